import { connect, createServer, type Socket } from 'node:net';

/*
 * A TCP proxy in front of a real server that a fault test can cut: every open link at once, or the
 * link that next sends a matching command, after which it stops listening for a while, as a server
 * that went away again right after coming back.
 */

export interface FlakyProxy {
  /** The port clients connect to. */
  port: number;
  /** Cuts every open link, as a crash of the server behind would. */
  cutAll(): void;
  /** Cuts the first link that sends bytes matching `pattern`, then refuses connections for `refuseMs`. */
  cutOnNext(pattern: RegExp, refuseMs: number): void;
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
        // not listening: a reconnect is refused, as by a server that is down, not accepted and dropped
        server.close();
        setTimeout(() => server.listen(port, '127.0.0.1'), refuseMs).unref();
        return cutAll();
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    cutAll,
    cutOnNext(pattern, refuseMs) {
      trap = { pattern, refuseMs };
    },
    close: () => {
      cutAll();
      return new Promise((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
    },
  };
}
