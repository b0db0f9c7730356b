import { describe, expect, it, vi } from 'vitest';
import { CloseCode } from '@xtalk/protocol';
import { FakeSocket, flush, last, message, ready, setup, withFakeSockets } from '#web/test/fake-room-socket';
import { pageSocketOrigin, SocketEndpoints, socketUrlOn } from './socket-endpoints';

withFakeSockets();

const NODES = ['wss://a.example', 'wss://b.example', 'wss://c.example'];

/** A room client whose sessions name `list` as their endpoints, the way the room screen wires it. */
function clusterClient(list: readonly string[] | undefined, random: () => number) {
  const endpoints = new SocketEndpoints('wss://page.example', random);
  let n = 0;
  const { client, states } = setup(async (room) => {
    n++;
    endpoints.use(list);
    return {
      sessionId: `s${n}`,
      roomId: room ?? 'NEWROOM',
      url: socketUrlOn(endpoints.current, `s${n}`, 'tok'),
    };
  });
  endpoints.follow(client);
  return { client, states, origin: () => new URL(last().url).origin.replace(/^https?/, 'wss') };
}

describe('SocketEndpoints', () => {
  it('opens on the page’s own origin when the server lists none', () => {
    expect(pageSocketOrigin({ protocol: 'https:', host: 'xtalk.example' })).toBe('wss://xtalk.example');
    expect(pageSocketOrigin({ protocol: 'http:', host: 'localhost:5173' })).toBe('ws://localhost:5173');
    const endpoints = new SocketEndpoints('wss://xtalk.example');
    endpoints.use(undefined);
    endpoints.failed();
    expect(endpoints.current).toBe('wss://xtalk.example');
    expect(socketUrlOn(endpoints.current, 's1', 'a b')).toBe('wss://xtalk.example/xtalk_ws/s1?t=a%20b');
  });

  it('starts at a random node of the list, goes round it in order, and keeps its place while the list stays', () => {
    const endpoints = new SocketEndpoints('wss://page.example', () => 0.5);
    endpoints.use(NODES);
    const seen = [endpoints.current];
    for (let i = 0; i < 3; i++) {
      endpoints.failed();
      endpoints.use([...NODES]); // every join answers with the list again
      seen.push(endpoints.current);
    }
    expect(seen).toEqual(['wss://b.example', 'wss://c.example', 'wss://a.example', 'wss://b.example']);
    // a new list is a new start
    endpoints.use(['wss://d.example']);
    expect(endpoints.current).toBe('wss://d.example');
  });

  it('moves a resuming client on to the next node after a cut connection, on the usual backoff', async () => {
    const { client, origin } = clusterClient(NODES, () => 0);
    client.join('ABC2345');
    await flush();
    expect(origin()).toBe('wss://a.example');
    last().open();
    last().receive(ready(4));
    last().receive(message(5));
    last().drop(1006); // node a dies
    const before = FakeSocket.all.length;
    await vi.advanceTimersByTimeAsync(299); // the backoff's first step (setup's random makes it 300 ms)
    expect(FakeSocket.all.length).toBe(before);
    await vi.advanceTimersByTimeAsync(1);
    expect(origin()).toBe('wss://b.example');
    // node b does not answer either: the backoff grows, and the next node is c
    last().drop(1006);
    await vi.advanceTimersByTimeAsync(599);
    expect(FakeSocket.all.length).toBe(before + 1);
    await vi.advanceTimersByTimeAsync(1);
    expect(origin()).toBe('wss://c.example');
    last().open();
    expect(JSON.parse(last().sent[0]!)).toMatchObject({ resume: { epoch: 'e1', offset: 5 } });
    last().receive(ready(5));
    expect(client.state).toBe('ready');
  });

  it('moves on at once when a node drains (1012), and stays put after the application’s own closes', async () => {
    const { client, origin } = clusterClient(NODES, () => 0);
    client.join('ABC2345');
    await flush();
    last().open();
    last().drop(CloseCode.ServiceRestart);
    await flush();
    expect(origin()).toBe('wss://b.example');
    last().open();
    last().drop(CloseCode.SessionEnded); // another tab took the session: not the node's fault
    client.reconnectNow();
    await flush();
    expect(origin()).toBe('wss://b.example');
  });
});
