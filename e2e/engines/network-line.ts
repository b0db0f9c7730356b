import { connect, createServer, type Socket } from 'node:net';
import { listenOnFreePort } from '../../apps/server/src/testing/free-port.js';

/*
 * One person's line to the server: a TCP relay on a port of its own, so a test can take the network away
 * from one browser in any engine (no engine-specific offline switch). `cutSockets` drops the open
 * WebSockets and refuses new ones while pages still load (a network whose WebSocket path is broken);
 * `cut` refuses everything, as a dead network would.
 */

export interface NetworkLine {
  readonly url: string;
  cutSockets(): void;
  cut(): void;
  mend(): void;
  close(): Promise<void>;
}

const WEBSOCKET_REQUEST = /^GET \/xtalk_ws\//;

export async function networkLine(serverPort: number): Promise<NetworkLine> {
  let state: 'up' | 'no-sockets' | 'down' = 'up';
  const open = new Set<{ client: Socket; upstream: Socket; socket: boolean }>();
  const relay = createServer((client) => {
    if (state === 'down') return void client.destroy();
    client.once('data', (first: Buffer) => {
      const socket = WEBSOCKET_REQUEST.test(first.toString('latin1', 0, 64));
      if (state === 'down' || (socket && state === 'no-sockets')) return void client.destroy();
      const upstream = connect(serverPort, '127.0.0.1');
      const pair = { client, upstream, socket };
      open.add(pair);
      upstream.write(first);
      client.pipe(upstream).pipe(client);
      const end = () => {
        open.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    client.on('error', () => client.destroy());
  });
  const port = await listenOnFreePort(relay);
  const drop = (which: (pair: { socket: boolean }) => boolean) => {
    for (const pair of open) if (which(pair)) pair.client.destroy();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    cutSockets() {
      state = 'no-sockets';
      drop((pair) => pair.socket);
    },
    cut() {
      state = 'down';
      drop(() => true);
    },
    mend() {
      state = 'up';
    },
    close() {
      drop(() => true);
      return new Promise((resolve) => relay.close(() => resolve()));
    },
  };
}
