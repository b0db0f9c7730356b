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
