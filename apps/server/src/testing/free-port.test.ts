import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, listenOnFreePort, onFreePort } from './free-port.js';
import { startServer } from './harness.js';

/*
 * A port picked for a server that must know its address first is free only until another process binds
 * it: the start moves to a new port instead of failing.
 */
describe('onFreePort', () => {
  const squatter = createServer();
  afterAll(() => new Promise<void>((resolve) => squatter.close(() => resolve())));

  it('starts a server again at a new port when its port is taken between the pick and the listen', async () => {
    const taken = await listenOnFreePort(squatter);
    const picked: number[] = [];
    const pick = async () => {
      const port = picked.length === 0 ? taken : await freePort();
      picked.push(port);
      return port;
    };
    const server = await onFreePort(
      (port) => startServer({ PUBLIC_URL: `http://127.0.0.1:${port}` }, { port }),
      pick,
    );
    try {
      expect(picked).toHaveLength(2);
      expect(server.baseUrl).toBe(`http://127.0.0.1:${picked[1]}`);
      const health = await fetch(`${server.baseUrl}/api/health`);
      expect(health.ok).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('gives up on an error that is not a taken port', async () => {
    let starts = 0;
    const start = () => {
      starts += 1;
      return Promise.reject(new Error('broken'));
    };
    await expect(onFreePort(start)).rejects.toThrow('broken');
    expect(starts).toBe(1);
  });
});
