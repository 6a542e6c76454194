// A local HTTP stand-in for the AWS services `npm run keys -- probe --stage` calls besides DynamoDB:
// Secrets Manager's JSON protocol (X-Amz-Target: secretsmanager.DescribeSecret, PutSecretValue) and
// API Gateway's two REST calls that add a key to a usage plan. Only AWS itself is stood in: the script
// and its SDK clients are the real ones. It records each call with the region it was signed for.
import { createServer } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type AwsCall = { operation: string; region: string; body: Record<string, unknown> };

type Answer = [status: number, body: Record<string, unknown>];

const NO_SECRET: Answer = [
  400,
  { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." },
];

/** The region a request was signed for. SigV4: Credential=<key id>/<date>/<region>/<service>/aws4_request. */
export const signedRegion = (request: IncomingMessage) =>
  /Credential=[^/]+\/\d+\/([^/]+)\//.exec(request.headers.authorization ?? '')?.[1] ?? '';

async function readCall(request: IncomingMessage): Promise<AwsCall> {
  let text = '';
  for await (const chunk of request) text += (chunk as Buffer).toString();
  const target = request.headers['x-amz-target'];
  const path = request.url?.split('?')[0] ?? '';
  const region = signedRegion(request);
  return {
    operation:
      typeof target === 'string' ? target.replace(/^secretsmanager\./, '') : `${request.method} ${path}`,
    region,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/** Secrets Manager and API Gateway, holding `secrets` by ARN; `refusing` names operations to deny. */
export async function startAwsStandIn() {
  const secrets = new Map<string, string>();
  const refusing = new Set<string>();
  const calls: AwsCall[] = [];

  function answer({ operation, body }: AwsCall): Answer {
    const arn = String(body.SecretId);
    const held = secrets.get(arn);
    if (refusing.has(operation))
      return [400, { __type: 'AccessDeniedException', message: `not authorized to ${operation} ${arn}` }];
    if (operation === 'DescribeSecret')
      return held === undefined ? NO_SECRET : [200, { ARN: arn, Name: arn }];
    if (operation === 'PutSecretValue') {
      if (held === undefined) return NO_SECRET;
      secrets.set(arn, String(body.SecretString));
      return [200, { ARN: arn, VersionId: String(body.ClientRequestToken) }];
    }
    if (operation === 'POST /apikeys') return [201, { id: `apigw-${calls.length}`, name: body.name }];
    if (/^POST \/usageplans\/[^/]+\/keys$/.test(operation)) return [201, { id: body.keyId, type: 'API_KEY' }];
    return [404, { message: `${operation} is not stood in` }];
  }

  const server = createServer((request, response) => {
    void readCall(request).then((call) => {
      calls.push(call);
      const [status, body] = answer(call);
      response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    secrets,
    refusing,
    calls,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
