import { describe, expect, it, vi } from 'vitest';
import { CloseCode } from '@xtalk/protocol';
import { FakeSocket, flush, last, message, ready, setup, withFakeSockets } from '#web/test/fake-room-socket';
import {
  HOME_CHECK_MS,
  pageSocketOrigin,
  readinessUrlOf,
  SocketEndpoints,
  socketUrlOn,
} from './socket-endpoints';

withFakeSockets();

const NODES = ['wss://a.example', 'wss://b.example', 'wss://c.example'];

/** A room client whose sessions name `list` as their endpoints, the way the room screen wires it. */
function clusterClient(
  list: readonly string[] | undefined,
  random: () => number,
  roomOrder?: readonly string[],
) {
  const endpoints = new SocketEndpoints('wss://page.example', random);
  let n = 0;
  const { client, states } = setup(async (room) => {
    n++;
    endpoints.use(list, roomOrder);
    return {
      sessionId: `s${n}`,
      roomId: room ?? 'NEWROOM',
      url: socketUrlOn(endpoints.current, `s${n}`, 'tok'),
    };
  });
  endpoints.follow(client);
  return { client, states, endpoints, origin: () => new URL(last().url).origin.replace(/^https?/, 'wss') };
}

/** Time passes on a live socket: someone talks now and then, so the liveness watch keeps it. */
async function talking(ms: number) {
  for (let left = ms; left > 0; left -= 5000) {
    await vi.advanceTimersByTimeAsync(Math.min(5000, left));
    last().receive({ type: 'system', message: 'JOIN', username: 'g-someone' });
  }
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

  it('starts at the room’s home when the join names the room’s order, then goes down that order', async () => {
    const order = ['wss://c.example', 'wss://a.example', 'wss://b.example'];
    const { client, origin, endpoints } = clusterClient(NODES, () => 0.99, order);
    client.join('ABC2345');
    await flush();
    expect(origin()).toBe('wss://c.example');
    expect(endpoints.atHome).toBe(true);
    last().open();
    last().drop(CloseCode.ServiceRestart);
    await flush();
    expect(origin()).toBe('wss://a.example');
    expect(endpoints.atHome).toBe(false);
  });

  it('moves back to the home as a handover once it answers, at a random moment, and not before', async () => {
    const order = ['wss://c.example', 'wss://a.example', 'wss://b.example'];
    const { client, states, origin, endpoints } = clusterClient(NODES, () => 0.5, order);
    const asked: string[] = [];
    let homeAnswers = false;
    endpoints.returnHome(client, async (home) => {
      asked.push(home);
      return homeAnswers;
    });
    client.join('ABC2345');
    await flush();
    last().open();
    last().drop(CloseCode.ServiceRestart); // the home drains
    await flush();
    last().open();
    last().receive(ready(4));
    const wait = HOME_CHECK_MS.min + 0.5 * (HOME_CHECK_MS.max - HOME_CHECK_MS.min);
    await talking(wait - 1);
    expect(asked).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toEqual(['wss://c.example']);
    expect(origin()).toBe('wss://a.example'); // still away: stays, and looks again later

    homeAnswers = true;
    const seen = states.length;
    await talking(wait);
    await flush();
    expect(origin()).toBe('wss://c.example');
    expect(states.slice(seen)).toEqual(['handover']);
    last().open();
    expect(JSON.parse(last().sent[0]!)).toMatchObject({ resume: { epoch: 'e1', offset: 4 } });
    last().receive(ready(4));
    expect(endpoints.atHome).toBe(true);
  });

  it('looks for a node’s readiness at its http(s) address', () => {
    expect(readinessUrlOf('wss://a.example:8443')).toBe('https://a.example:8443/api/health/ready');
    expect(readinessUrlOf('ws://10.0.0.3:8787')).toBe('http://10.0.0.3:8787/api/health/ready');
  });
});
