import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/harness.js';
import { guestJoined, openWithHello } from './testing/hello-in-url.js';

/*
 * What a socket connect costs in writes on the server's side. With the hello in the URL, the 101 answer,
 * READY and what follows it in the same turn leave in one write (one system call), not the 101 at once
 * and the frames a turn later.
 */

/** Every write the server makes on the sockets it upgrades from now on, each as the text it carried. */
function recordWrites(server: TestServer): string[][] {
  const writes: string[][] = [];
  server.app.server.prependListener('upgrade', (_request, socket: Socket) => {
    const mine: string[] = [];
    writes.push(mine);
    const { _write: write, _writev: writev } = socket as unknown as {
      _write: (chunk: Buffer, ...rest: unknown[]) => void;
      _writev: (chunks: { chunk: Buffer }[], ...rest: unknown[]) => void;
    };
    Object.assign(socket, {
      _write(chunk: Buffer, ...rest: unknown[]) {
        mine.push(chunk.toString('latin1'));
        return write.call(socket, chunk, ...rest);
      },
      _writev(chunks: { chunk: Buffer }[], ...rest: unknown[]) {
        mine.push(chunks.map(({ chunk }) => chunk.toString('latin1')).join(''));
        return writev.call(socket, chunks, ...rest);
      },
    });
  });
  return writes;
}

describe('a socket connect', () => {
  let server: TestServer;
  let writes: string[][];

  beforeAll(async () => {
    server = await startServer();
    writes = recordWrites(server);
  });
  afterAll(() => server.close());

  async function connectWithHelloInUrl(roomId: string | null) {
    const { login, session, hello } = await guestJoined(server, roomId);
    const client = await openWithHello(server, session.sessionId, login.token, hello);
    return { client, roomId: session.roomId };
  }

  it('writes the 101 answer and READY in one write', async () => {
    const host = await connectWithHelloInUrl(null);
    writes.length = 0;
    const guest = await connectWithHelloInUrl(host.roomId);
    expect(writes).toHaveLength(1);
    const [first] = writes[0]!;
    expect(first).toMatch(/^HTTP\/1\.1 101 Switching Protocols\r\n/);
    expect(first).toContain('"message":"READY"');
    guest.client.close();
    host.client.close();
  });
});
