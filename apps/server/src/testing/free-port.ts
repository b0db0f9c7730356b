import { createServer, type Server } from 'node:net';

/*
 * Ports on 127.0.0.1 that the system picks, so that tests running side by side never meet on one.
 */

/** Starts `server` (TCP, HTTP or SMTP's) on 127.0.0.1 at a port nothing uses, and gives that port. */
export async function listenOnFreePort(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  const port = await listenOnFreePort(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Whether `error` says the address was taken (a listen that lost its port to another process). */
export function isAddressInUse(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'EADDRINUSE';
}

/**
 * Starts `start` at a free port, again at a new one while the port it was given is taken before it binds:
 * a port picked here is free only until someone else binds it, and a server that must know its own
 * address before listening (its public URL, a list of nodes) cannot take the port the system gives it.
 * `pick` gives the ports to try.
 */
export async function onFreePort<T>(
  start: (port: number) => Promise<T>,
  pick: () => Promise<number> = freePort,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start(await pick());
    } catch (error) {
      if (!isAddressInUse(error) || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}

/** A port lost this many times in a row is not a race any more. */
const PORT_ATTEMPTS = 5;
