// API Gateway's response compression, as its REST API documents it: with minimumCompressionSize set,
// an answer of at least that many bytes, without a Content-Encoding of its own, is compressed in a
// coding the client's Accept-Encoding names (gzip, else deflate). No header, or `*` alone, gets it as is.
import { deflateSync, gzipSync } from 'node:zlib';
import type { APIGatewayProxyResult } from 'aws-lambda';

const CODINGS = { gzip: gzipSync, deflate: deflateSync } as const;
type Coding = keyof typeof CODINGS;

/** The first of our codings the client accepts (a q of 0 refuses one), if any. */
function acceptedCoding(acceptEncoding: string | undefined): Coding | undefined {
  const accepted = new Set<string>();
  for (const element of (acceptEncoding ?? '').split(',')) {
    const [coding = '', ...parameters] = element.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) accepted.add(coding);
  }
  return (Object.keys(CODINGS) as Coding[]).find((coding) => accepted.has(coding));
}

const hasContentEncoding = (headers: APIGatewayProxyResult['headers'] = {}) =>
  Object.keys(headers).some((name) => name.toLowerCase() === 'content-encoding');

export function compressedAnswer(
  answer: APIGatewayProxyResult,
  acceptEncoding: string | undefined,
  minimumBytes: number | undefined,
): APIGatewayProxyResult {
  const coding = acceptedCoding(acceptEncoding);
  if (minimumBytes === undefined || !coding || hasContentEncoding(answer.headers)) return answer;
  // Decoded only for an answer that may be compressed: the size is in bytes, not characters.
  const body = Buffer.from(answer.body, answer.isBase64Encoded ? 'base64' : 'utf8');
  if (body.length < minimumBytes) return answer;
  return {
    ...answer,
    headers: { ...answer.headers, 'Content-Encoding': coding },
    body: CODINGS[coding](body).toString('base64'),
    isBase64Encoded: true,
  };
}
