import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GuestLoginResponse, SystemFrame } from '@xtalk/protocol';
import {
  guestLogin,
  joinRoom,
  presenceOf,
  startServer,
  TestClient,
  type TestServer,
} from '../testing/harness.js';
import { createDepartures } from './departures.js';
import { heldDepartures } from './testing/held-departures.js';

describe('createDepartures', () => {
  afterEach(() => vi.useRealTimers());

  it('waits the grace, ends every wait on release, and waits no more after it', async () => {
    vi.useFakeTimers();
    const departures = createDepartures(5000);
    let done = 0;
    void departures.wait().then(() => done++);
    void departures.wait().then(() => done++);
    await vi.advanceTimersByTimeAsync(4999);
    expect(done).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(2);

    void departures.wait().then(() => done++);
    await vi.advanceTimersByTimeAsync(1000);
    departures.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(3);
    await departures.wait();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not wait without a grace', async () => {
    await createDepartures(0).wait();
  });
});

describe('LEAVE after a grace (decision 0140), on the real server', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** Three guests and a room on a server whose grace ends when the test says (`grace.end()`), or `env`'s. */
  async function room(env: Record<string, string> = {}) {
    const grace = heldDepartures();
    const s = await startServer(env, env.LEAVE_GRACE_SECONDS ? {} : { departures: grace });
    server = s;
    const logins: GuestLoginResponse[] = [];
    for (let i = 0; i < 3; i++) logins.push(await guestLogin(s.app));
    const [alice, bob, carol] = logins as [GuestLoginResponse, GuestLoginResponse, GuestLoginResponse];
    const roomId = (await joinRoom(s.app, alice.token, null)).roomId;
    return { s, grace, alice, bob, carol, roomId };
  }

  it('announces neither LEAVE nor JOIN when someone is back within the grace', async () => {
    const { s, grace, alice, bob, carol, roomId } = await room();
    const a = await TestClient.join(s, alice, roomId);
    const b = await TestClient.join(s, bob, roomId);
    const c = await TestClient.join(s, carol, roomId);
    await a.next(presenceOf('JOIN', bob.user.username));
    await a.next(presenceOf('JOIN', carol.user.username));
    const mark = a.frames.length;

    // Bob reloads: his socket closes, and a new one (a new session) joins while the grace runs
    b.close();
    await grace.waiting(1);
    const again = await TestClient.join(s, bob, roomId);
    // Carol really leaves; then the grace ends for both
    c.close();
    await grace.waiting(2);
    grace.end();
    const carolLeft = await a.next<SystemFrame>(presenceOf('LEAVE', carol.user.username));
    expect(carolLeft.usernames ?? [carolLeft.username]).toEqual([carol.user.username]);
    const between = a.framesBefore(carolLeft).slice(mark);
    expect(between.filter(presenceOf('LEAVE', bob.user.username))).toEqual([]);
    expect(between.filter(presenceOf('JOIN', bob.user.username))).toEqual([]);

    // and Bob, back, is in the room as before
    again.send({ type: 'chat', language: 'en', message: 'reloaded', room: roomId });
    await a.next((frame) => frame.type === 'message' && frame.message === 'reloaded');
    again.close();
    a.close();
  });

  it('announces someone who does not come back once the grace after their close ends', async () => {
    const { s, grace, alice, bob, roomId } = await room();
    const a = await TestClient.join(s, alice, roomId);
    const b = await TestClient.join(s, bob, roomId);
    b.close();
    // the grace has begun: the LEAVE waits for it, so none can have been sent yet
    await grace.waiting(1);
    expect(a.frames.filter(presenceOf('LEAVE', bob.user.username))).toEqual([]);
    const left = a.nextNew<SystemFrame>(presenceOf('LEAVE', bob.user.username));
    grace.end();
    await left;
    a.close();
  });

  it('does not hold a shutdown for the grace', async () => {
    const { s, alice, bob, roomId } = await room({
      LEAVE_GRACE_SECONDS: '120',
      MAX_SOCKETS_PER_USER: '1',
    });
    const a = await TestClient.join(s, alice, roomId);
    const b = await TestClient.join(s, bob, roomId);
    b.close();
    await b.closed();
    // Bob's next socket opens only once the server has counted the first one closed (its close handling,
    // and with it the grace, has begun)
    let again: TestClient | undefined;
    await expect
      .poll(async () => {
        again = await TestClient.join(s, bob, roomId).catch(() => undefined);
        return again !== undefined;
      })
      .toBe(true);
    // without the release at shutdown, this would wait out the 120 s grace (the test times out first)
    await s.close();
    server = undefined;
    again!.ws.terminate();
    a.ws.terminate();
  });
});
