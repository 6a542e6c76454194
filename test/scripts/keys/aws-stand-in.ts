// A local HTTP stand-in for the AWS services `npm run keys -- probe --stage` and `npm run restore`
// call besides DynamoDB: Secrets Manager's JSON protocol (DescribeSecret, PutSecretValue) and API
// Gateway's REST calls on keys and usage plans. Only AWS itself is stood in: the scripts and their SDK
// clients are the real ones. It records each call with the region it was signed for.
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

export type StoodInApiKey = { name: string; value: string; enabled: boolean };

/**
 * Secrets Manager and API Gateway, holding `secrets` by ARN, `apiKeys` by id and `usagePlans` (the ids
 * of each plan's keys) by id; `refusing` names operations to deny.
 */
export async function startAwsStandIn() {
  const secrets = new Map<string, string>();
  const apiKeys = new Map<string, StoodInApiKey>();
  const usagePlans = new Map<string, string[]>();
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
    const planKeys = /^GET \/usageplans\/([^/]+)\/keys$/.exec(operation);
    if (planKeys) {
      const item = (usagePlans.get(planKeys[1] ?? '') ?? []).map((id) => {
        const { name, value } = apiKeys.get(id) ?? { name: '', value: '' };
        return { id, type: 'API_KEY', name, value };
      });
      return [200, { item }];
    }
    const apiKey = apiKeys.get(/^GET \/apikeys\/([^/]+)$/.exec(operation)?.[1] ?? '');
    if (apiKey)
      return [200, { id: /[^/]+$/.exec(operation)?.[0], name: apiKey.name, enabled: apiKey.enabled }];
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
    apiKeys,
    usagePlans,
    refusing,
    calls,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
