import { createServer } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { listenOnFreePort } from '../apps/server/src/testing/free-port.js';
import { ProductServer } from './lib/product-server.js';

/*
 * The harness's product server is the child it started, never whatever answers at its port: a port taken
 * between its pick and the child's listen fails the start as taken, so the start can move to a new one.
 */
describe('the product server at a port another process took', () => {
  // another process's server that answers the health check as the product's would
  const impostor = createServer((_request, response) => response.writeHead(200).end('{"status":"ok"}'));
  afterAll(() => new Promise<void>((resolve) => impostor.close(() => resolve())));

  it('fails its start as a taken port instead of taking the other server for itself', async () => {
    const port = await listenOnFreePort(impostor);
    const started = ProductServer.start({}, port).then(
      async (server) => {
        await server.dispose();
        return 'started';
      },
      (error: unknown) => (error as { code?: string }).code,
    );
    expect(await started).toBe('EADDRINUSE');
  });

  it('starts at a free port', async () => {
    const server = await ProductServer.start();
    try {
      expect((await fetch(`${server.url}/api/health`)).ok).toBe(true);
    } finally {
      await server.dispose();
    }
  });
});
