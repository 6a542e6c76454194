// The local server's connections and the requests each one holds. A client must get the outcome of
// every request the server executes: so a request Node cannot parse is answered only after the
// complete requests sent before it on the same connection, and close() drains the way a load
// balancer drains an instance, without resetting a connection a request may be on its way over.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * How long close() keeps a connection that holds no request open: a keep-alive client may have
 * sent one just before it could know of the close, and that request is answered, its answer the
 * last of the connection. Past it, such a connection is closed cleanly (FIN, not a reset).
 */
export const DRAIN_LINGER_MS = 1_000;

type HeldRequest = { request: IncomingMessage; answered: Promise<void> };

export function trackConnections(
  server: Server,
  { graceMs, lingerMs }: { graceMs: number; lingerMs: number },
) {
  // The server's own list leaves out the sockets it handed over (CONNECT): these are all of them.
  const connections = new Map<Duplex, Set<HeldRequest>>();
  let draining = false;
  let closed: Promise<void> | undefined;

  server.on('connection', (socket: Duplex) => {
    connections.set(socket, new Set());
    socket.once('close', () => connections.delete(socket));
  });

  /** Counts a request as held by its connection until its response closes. */
  function hold(request: IncomingMessage, response: ServerResponse) {
    const held = connections.get(request.socket);
    const entry = { request, answered: new Promise<void>((resolve) => response.once('close', resolve)) };
    held?.add(entry);
    void entry.answered.then(() => held?.delete(entry));
  }

  /**
   * Resolves once the connection's complete requests are answered. Node parses a pipelined request
   * whole before it meets what follows, so these are the ones being executed.
   */
  const completeRequestsAnswered = (socket: Duplex) =>
    Promise.all(
      [...(connections.get(socket) ?? [])]
        .filter(({ request }) => request.complete)
        .map((held) => held.answered),
    );

  /** Half-closes every connection that holds no request; a request sent on one after that is not executed. */
  function endIdle() {
    for (const [socket, held] of connections) if (held.size === 0) socket.end();
  }

  /**
   * No new connection from the first moment; each request in flight or arriving within the linger
   * answered in full, every answer from then on the last of its connection; idle connections
   * closed after the linger; past the grace period, whatever is still open is cut.
   */
  function close() {
    closed ??= new Promise<void>((resolve) => {
      draining = true;
      const linger = setTimeout(endIdle, lingerMs);
      const cutOff = setTimeout(() => {
        for (const socket of connections.keys()) socket.destroy();
      }, graceMs);
      // Node's close() destroys idle keep-alive connections at once, resetting any whose client
      // had just sent a request on it: the linger closes them instead.
      server.closeIdleConnections = () => undefined;
      server.close(() => {
        clearTimeout(linger);
        clearTimeout(cutOff);
        resolve();
      });
    });
    return closed;
  }

  return { hold, completeRequestsAnswered, close, isDraining: () => draining };
}
