// One DynamoDB request without the AWS SDK: the JSON body, signed (Signature Version 4) with
// node:crypto, posted over one keep-alive HTTPS connection with node:https. Credentials, region
// and endpoint come from the environment, as Lambda gives them. No retries, no error types, no
// checksums, no endpoint rules: what is left when the SDK is taken away.
import { createHash, createHmac } from 'node:crypto';
import { Agent, request } from 'node:https';

const {
  AWS_REGION = 'us-east-1',
  AWS_ENDPOINT_URL_DYNAMODB,
  AWS_ACCESS_KEY_ID,
  AWS_SECRET_ACCESS_KEY,
  AWS_SESSION_TOKEN,
} = process.env;
const endpoint = new URL(AWS_ENDPOINT_URL_DYNAMODB ?? `https://dynamodb.${AWS_REGION}.amazonaws.com`);
const agent = new Agent({ keepAlive: true });

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

/** The request's headers with its Authorization, for `x-amz-target` DynamoDB_20120810.<operation>. */
function signedHeaders(operation: string, body: string): Record<string, string> {
  const amzDate = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    'content-type': 'application/x-amz-json-1.0',
    host: endpoint.host,
    'x-amz-date': amzDate,
    ...(AWS_SESSION_TOKEN && { 'x-amz-security-token': AWS_SESSION_TOKEN }),
    'x-amz-target': `DynamoDB_20120810.${operation}`,
  };
  const names = Object.keys(headers).sort();
  const canonicalRequest = ['POST', '/', '', ...names.map((name) => `${name}:${headers[name]}`), '']
    .concat(names.join(';'), sha256(body))
    .join('\n');
  const scope = `${day}/${AWS_REGION}/dynamodb/aws4_request`;
  const signingKey = [AWS_REGION, 'dynamodb', 'aws4_request'].reduce(
    hmac,
    hmac(`AWS4${AWS_SECRET_ACCESS_KEY}`, day),
  );
  const signature = createHmac('sha256', signingKey)
    .update(['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n'))
    .digest('hex');
  headers.authorization =
    `AWS4-HMAC-SHA256 Credential=${AWS_ACCESS_KEY_ID}/${scope}, ` +
    `SignedHeaders=${names.join(';')}, Signature=${signature}`;
  return headers;
}

/** Sends `input` as DynamoDB's `operation`; its answer, or an Error with DynamoDB's. */
export function dynamoDbRequest<T>(operation: string, input: object): Promise<T> {
  const body = JSON.stringify(input);
  return new Promise((resolve, reject) => {
    const headers = { ...signedHeaders(operation, body), 'content-length': String(Buffer.byteLength(body)) };
    const sent = request(endpoint, { method: 'POST', agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode === 200) resolve(JSON.parse(text) as T);
        else reject(new Error(`${operation}: ${response.statusCode} ${text}`));
      });
    });
    sent.on('error', reject);
    sent.end(body);
  });
}
