// A local HTTP stand-in for CloudFormation's DescribeStacks, which a `--stage` tool calls when there is
// no outputs file (scripts/stage-outputs.ts): the AWS Query protocol, a form-encoded POST answered in
// XML. Only AWS itself is stood in: the scripts reach it with their real SDK client, through
// AWS_ENDPOINT_URL_CLOUDFORMATION. It records each call with the region it was signed for.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signedRegion } from '#test/scripts/keys/aws-stand-in.ts';

export type CloudFormationCall = { action: string; stackName: string; region: string };

const NAMESPACE = 'http://cloudformation.amazonaws.com/doc/2010-05-15/';

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The stack's one member of DescribeStacks' answer, with its outputs by key. */
const describedStack = (stackName: string, outputs: Record<string, string>) =>
  [
    `<DescribeStacksResponse xmlns="${NAMESPACE}"><DescribeStacksResult><Stacks><member>`,
    `<StackName>${stackName}</StackName><StackStatus>UPDATE_COMPLETE</StackStatus>`,
    '<CreationTime>2026-01-01T00:00:00.000Z</CreationTime><Outputs>',
    ...Object.entries(outputs).map(
      ([key, value]) =>
        `<member><OutputKey>${key}</OutputKey><OutputValue>${escapeXml(value)}</OutputValue></member>`,
    ),
    '</Outputs></member></Stacks></DescribeStacksResult>',
    '<ResponseMetadata><RequestId>stand-in</RequestId></ResponseMetadata></DescribeStacksResponse>',
  ].join('');

const error = (code: string, message: string) =>
  `<ErrorResponse xmlns="${NAMESPACE}"><Error><Type>Sender</Type><Code>${code}</Code>` +
  `<Message>${escapeXml(message)}</Message></Error><RequestId>stand-in</RequestId></ErrorResponse>`;

/** CloudFormation holding `stacks`, each stack's outputs by key (`TableName5A1B2C`). */
export async function startCloudFormationStandIn() {
  const stacks = new Map<string, Record<string, string>>();
  const calls: CloudFormationCall[] = [];

  function answer({ action, stackName }: CloudFormationCall): [status: number, xml: string] {
    if (action !== 'DescribeStacks') return [400, error('InvalidAction', `${action} is not stood in`)];
    const outputs = stacks.get(stackName);
    if (!outputs) return [400, error('ValidationError', `Stack with id ${stackName} does not exist`)];
    return [200, describedStack(stackName, outputs)];
  }

  const server = createServer((request, response) => {
    let form = '';
    request.on('data', (chunk: Buffer) => (form += chunk.toString()));
    request.on('end', () => {
      const fields = new URLSearchParams(form);
      const call = {
        action: fields.get('Action') ?? '',
        stackName: fields.get('StackName') ?? '',
        region: signedRegion(request),
      };
      calls.push(call);
      const [status, xml] = answer(call);
      response.writeHead(status, { 'Content-Type': 'text/xml' }).end(xml);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stacks,
    calls,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
