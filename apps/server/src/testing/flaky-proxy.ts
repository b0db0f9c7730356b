import { connect, createServer, type Socket } from 'node:net';
import { listenOnFreePort } from './free-port.js';

/*
 * A TCP proxy in front of a real server that a fault test can cut: every open link at once, or the
 * link that next sends a matching command, after which it stops listening for a while, as a server
 * that went away again right after coming back; or it stops and starts, as the server going away for
 * as long as the test says.
 */

export interface FlakyProxy {
  /** The port clients connect to. */
  port: number;
  /** Cuts every open link, as a crash of the server behind would. */
  cutAll(): void;
  /** Cuts the first link that sends bytes matching `pattern`, then refuses connections for `refuseMs`. */
  cutOnNext(pattern: RegExp, refuseMs: number): void;
  /** The server behind goes away: every link cut, connections refused until `start()`. */
  stop(): Promise<void>;
  /** The server behind is back on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startFlakyProxy(targetPort: number): Promise<FlakyProxy> {
  const links = new Set<Socket>();
  let trap: { pattern: RegExp; refuseMs: number } | undefined;
  let port = 0;
  const cutAll = () => {
    for (const socket of links) socket.destroy();
    links.clear();
  };
  // not listening: a connection is refused, as by a server that is down, not accepted and dropped
  const stop = () => {
    if (!server.listening) return (cutAll(), Promise.resolve());
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    cutAll();
    return closed;
  };
  const start = () =>
    new Promise<void>((resolve) =>
      server.listening ? resolve() : server.listen(port, '127.0.0.1', () => resolve()),
    );
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    links.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      links.delete(client);
      links.delete(upstream);
    };
    client.on('data', (chunk) => {
      if (trap && trap.pattern.test(chunk.toString('latin1'))) {
        const { refuseMs } = trap;
        trap = undefined;
        void stop();
        setTimeout(() => void start(), refuseMs).unref();
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  port = await listenOnFreePort(server);
  return {
    port,
    cutAll,
    cutOnNext(pattern, refuseMs) {
      trap = { pattern, refuseMs };
    },
    stop,
    start,
    close: stop,
  };
}
