// HTTPS in front of the embedded DynamoDB, for the measured processes: in Lambda, DynamoDB is an HTTPS
// endpoint, so a cold start includes a TLS handshake (and building Node's root certificate store), and
// every request is encrypted; over plain HTTP the SDK would also import `node:http` itself, which Lambda
// never does. The certificate in tls/ is for 127.0.0.1 only, trusted by the children alone.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:tls';
import { fileURLToPath } from 'node:url';

const TLS_DIR = new URL('./tls/', import.meta.url);
/** The certificate file the children add to their trusted ones (NODE_EXTRA_CA_CERTS). */
export const TLS_CERTIFICATE_FILE = fileURLToPath(new URL('cert.pem', TLS_DIR));

export type TlsFront = { endpoint: string; close(): Promise<void> };

/** Terminates TLS and passes each connection on to `target` (an http:// endpoint) as it is. */
export async function startTlsFront(target: string): Promise<TlsFront> {
  const { hostname, port } = new URL(target);
  const open = new Set<{ destroy(): void }>();
  const server = createServer(
    { key: readFileSync(new URL('key.pem', TLS_DIR)), cert: readFileSync(TLS_CERTIFICATE_FILE) },
    function passThrough(client) {
      const upstream = connect({ port: Number(port), host: hostname, noDelay: true });
      // Without it, Nagle's algorithm and delayed acknowledgements hold small writes back.
      client.setNoDelay(true);
      open.add(client);
      client.once('close', () => open.delete(client));
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: frontPort } = server.address() as AddressInfo;
  return {
    endpoint: `https://127.0.0.1:${frontPort}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
