import { beforeAll, describe, expect, it } from 'vitest';
import type {
  MessageEditedFrame,
  MessageFrame,
  NoteCompleteFrame,
  SystemFrame,
  TranslationCompleteFrame,
} from '@xtalk/protocol';
import { FakeProvider } from '../ai/index.js';
import {
  guestLogin,
  joinRoom,
  presenceOf,
  startServer,
  TestClient,
  type TestServer,
} from '../testing/harness.js';
import { migrations } from '../store/index.js';
import { serviceNodes } from '../testing/service-nodes.js';

/*
 * `npm run test:services`: the same server against a real PostgreSQL and Redis, two nodes at once.
 * DATABASE_URL / REDIS_URL default to the local services; each run gets a database of its own.
 */
const services = serviceNodes('xtalk_test', 2, {
  // a LEAVE waits this long (decision 0140; the harness's default is none): the presence count is Redis's
  LEAVE_GRACE_SECONDS: '1.5',
  // two nodes start at once on a machine that may be busy: a start's Redis command may wait longer than
  // the default allows a live node; this block tests what crosses the nodes, never Redis's silence
  REDIS_COMMAND_TIMEOUT_MS: '5000',
});
const { database, env } = services;
let a: TestServer;
let b: TestServer;
beforeAll(() => {
  [a, b] = services.nodes as [TestServer, TestServer];
});

describe('two nodes on PostgreSQL and Redis: people on different nodes', () => {
  it('delivers messages, JOIN and LEAVE between people on different nodes', async () => {
    const alice = await guestLogin(a.app);
    const bob = await guestLogin(b.app);
    const { roomId } = await joinRoom(a.app, alice.token, null);
    const atA = await TestClient.join(a, alice, roomId);
    const atB = await TestClient.join(b, bob, roomId, 'ja');
    const join = await atA.next<SystemFrame>((frame) => frame.type === 'system' && frame.message === 'JOIN');
    expect(join.username).toBe(bob.user.username);

    atA.send({ type: 'chat', language: 'en', message: 'hello from node A', room: roomId });
    atB.send({ type: 'chat', language: 'ja', message: 'ノードBから', room: roomId });
    for (const client of [atA, atB]) {
      await client.next((frame) => frame.type === 'message' && frame.message === 'hello from node A');
      await client.next((frame) => frame.type === 'message' && frame.message === 'ノードBから');
    }
    atB.close();
    const leave = await atA.next<SystemFrame>(
      (frame) => frame.type === 'system' && frame.message === 'LEAVE',
    );
    expect(leave.username).toBe(bob.user.username);
    atA.close();
  });

  it('shows no LEAVE or JOIN for someone whose socket moved to the other node within the grace (decision 0140)', async () => {
    const [alice, bob, carol] = [await guestLogin(a.app), await guestLogin(a.app), await guestLogin(b.app)];
    const { roomId } = await joinRoom(a.app, alice.token, null);
    const atA = await TestClient.join(a, alice, roomId);
    const bobAtA = await TestClient.join(a, bob, roomId);
    const carolAtB = await TestClient.join(b, carol, roomId);
    // each node coalesces its own JOINs: Bob's (node A) may come after Carol's (node B)
    await atA.next(presenceOf('JOIN', bob.user.username));
    await atA.next(presenceOf('JOIN', carol.user.username));
    const mark = atA.frames.length;

    bobAtA.close();
    await bobAtA.closed();
    const bobAtB = await TestClient.join(b, bob, roomId);
    // Carol leaves after Bob's move: her LEAVE, a grace later, follows the end of Bob's grace on node A
    carolAtB.close();
    const carolLeft = await atA.next<SystemFrame>(presenceOf('LEAVE', carol.user.username), 10_000);
    const between = atA.framesBefore(carolLeft).slice(mark);
    expect(between.filter(presenceOf('LEAVE', bob.user.username))).toEqual([]);
    expect(between.filter(presenceOf('JOIN', bob.user.username))).toEqual([]);

    // Bob, now on node B, really leaves: announced on node A
    bobAtB.close();
    await atA.next(presenceOf('LEAVE', bob.user.username), 10_000);
    atA.close();
  });

  it('opens a socket on another node than the join, from the session read there (decision 0138)', async () => {
    const carol = await guestLogin(a.app);
    const mallory = await guestLogin(b.app);
    const { sessionId, roomId } = await joinRoom(a.app, carol.token, null);
    // node A holds the join's hand-off; node B has none and reads the session from PostgreSQL
    const refused = await TestClient.open(`${b.wsBase}/xtalk_ws/${sessionId}?t=${mallory.token}`).then(
      () => 0,
      (error: { statusCode?: number }) => error.statusCode,
    );
    expect(refused).toBe(403);
    const atB = await TestClient.open(`${b.wsBase}/xtalk_ws/${sessionId}?t=${carol.token}`);
    atB.send({ type: 'setUsername', username: carol.user.username, language: 'en', room: roomId });
    await atB.next((frame) => frame.type === 'system' && frame.message === 'READY');
    atB.send({ type: 'chat', language: 'en', message: 'joined on A, talking on B', room: roomId });
    await atB.next((frame) => frame.type === 'message' && frame.message === 'joined on A, talking on B');
    atB.close();
  });
});

describe('two nodes on PostgreSQL and Redis: corrections across nodes', () => {
  it('carries a correction made on node A to listeners on node B: live, resumed, late and version 1', async () => {
    const V3 = { protocolVersion: 3 };
    const [alice, bob, carol, dave] = await Promise.all([
      guestLogin(a.app),
      guestLogin(b.app),
      guestLogin(b.app),
      guestLogin(b.app),
    ]);
    const { roomId } = await joinRoom(a.app, alice.token, null);
    const author = await TestClient.join(a, alice, roomId, 'en', V3);
    const listener = await TestClient.join(b, bob, roomId, 'ja', V3);
    const old = await TestClient.join(b, carol, roomId, 'ja'); // version 1: no messageEdited frame
    const leaving = await TestClient.join(b, dave, roomId, 'ja', V3);
    const text = 'it is raining cats and dogs, an idiom';
    author.send({ type: 'chat', language: 'en', message: text, room: roomId });
    const message = await leaving.next<MessageFrame>((f) => f.type === 'message' && f.message === text);
    await leaving.next((f) => f.type === 'translationComplete' && f.originalTimestamp === message.id);
    const ready = leaving.frames.find((f) => f.type === 'system' && f.message === 'READY') as SystemFrame;
    leaving.close();
    await leaving.closed();

    const fixed = 'it is raining frogs and dogs, an idiom';
    author.send({ type: 'editMessage', id: message.id, message: fixed });
    const edited = await listener.next<MessageEditedFrame>((f) => f.type === 'messageEdited');
    expect(edited).toMatchObject({ id: message.id, message: fixed, editedAt: expect.any(Number) });
    const complete = await listener.next<TranslationCompleteFrame>(
      (f) =>
        f.type === 'translationComplete' &&
        f.originalTimestamp === message.id &&
        f.fullText.includes('frogs'),
    );
    expect(complete.fullText).toBe(`[ja] ${fixed}`);
    expect(listener.frames.indexOf(complete)).toBeGreaterThan(listener.frames.indexOf(edited));
    const note = await listener.next<NoteCompleteFrame>(
      (f) =>
        f.type === 'noteComplete' &&
        f.originalTimestamp === message.id &&
        listener.frames.indexOf(f) > listener.frames.indexOf(edited),
    );
    expect(note.note).toMatch(/idiom/);
    // the version-1 client on node B gets the correction in its own words: a message frame, same id
    await old.next((f) => f.type === 'message' && f.id === message.id && f.message === fixed);
    await old.next((f) => f.type === 'translationComplete' && f.fullText === `[ja] ${fixed}`);
    expect(old.frames.some((f) => (f.type as string) === 'messageEdited')).toBe(false);

    // resuming on node B from before the edit: the edit, then the new translation, nothing else again
    const back = await TestClient.join(b, dave, roomId, 'ja', {
      ...V3,
      resume: { epoch: ready.epoch!, offset: message.offset! },
    });
    expect(back.frames.map((f) => f.type)).not.toContain('message');
    const replayed = back.frames.find((f) => f.type === 'messageEdited') as MessageEditedFrame;
    expect(replayed).toMatchObject({ id: message.id, message: fixed });
    const finals = back.frames.filter(
      (f): f is TranslationCompleteFrame =>
        f.type === 'translationComplete' && f.originalTimestamp === message.id,
    );
    expect(finals.at(-1)?.fullText).toBe(`[ja] ${fixed}`);
    expect(back.frames.indexOf(finals.at(-1)!)).toBeGreaterThan(back.frames.indexOf(replayed));
    // a late joiner on node B reads the final text from PostgreSQL
    const late = await TestClient.join(b, await guestLogin(b.app), roomId, 'ja', V3);
    expect(late.messages().find((f) => f.id === message.id)).toMatchObject({
      message: fixed,
      editedAt: expect.any(Number),
      translations: { ja: `[ja] ${fixed}` },
    });
    for (const client of [author, listener, old, back, late]) client.close();
  });
});

describe('two nodes on PostgreSQL and Redis: translation work across nodes', () => {
  it('a correction taken on one node stops the old translation running on another', async () => {
    const slow = { ...env, FAKE_AI_CHUNK_DELAY_MS: '20' };
    const [c, d] = await Promise.all([startServer(slow), startServer(slow)]);
    try {
      const alice = await guestLogin(c.app);
      const { roomId } = await joinRoom(c.app, alice.token, null);
      const V3 = { protocolVersion: 3 };
      const atC = await TestClient.join(c, alice, roomId, 'en', V3);
      const atD = await TestClient.join(d, alice, roomId, 'en', V3); // the author's second tab, on D
      const listener = await TestClient.join(d, await guestLogin(d.app), roomId, 'ja', V3);
      const long = Array.from({ length: 30 }, (_, i) => `stale${i}`).join(' ');
      atC.send({ type: 'chat', language: 'en', message: long, room: roomId });
      const message = await listener.next<MessageFrame>((f) => f.type === 'message' && f.message === long);
      // node C is streaming the old translation (30 words, 20 ms apart) when node D takes the correction
      await listener.next((f) => f.type === 'translationChunk' && f.originalTimestamp === message.id);
      atD.send({ type: 'editMessage', id: message.id, message: 'fresh words' });
      const edited = await listener.next<MessageEditedFrame>((f) => f.type === 'messageEdited');
      await listener.next((f) => f.type === 'translationComplete' && f.fullText === '[ja] fresh words');
      // the following frame: a message as long as the old one, posted on C now, is translated after C's
      // old work would have finished had it not been stopped
      const follow = Array.from({ length: 32 }, (_, i) => `follow${i}`).join(' ');
      atC.send({ type: 'chat', language: 'en', message: follow, room: roomId });
      await listener.next((f) => f.type === 'translationComplete' && f.fullText === `[ja] ${follow}`, 10_000);
      const after = listener.frames
        .slice(listener.frames.indexOf(edited) + 1)
        .filter((f) => 'originalTimestamp' in f && f.originalTimestamp === message.id);
      expect(after.length).toBeGreaterThan(0);
      expect(JSON.stringify(after)).not.toMatch(/stale/);
      for (const client of [atC, atD, listener]) client.close();
    } finally {
      await Promise.allSettled([c.close(), d.close()]);
    }
  });

  it('speaks a translation for a listener on the other node, and not once they left (decision 0137)', async () => {
    // a third node whose engine calls the test can read; the listener is counted in Redis by node B
    const provider = new FakeProvider();
    const c = await startServer({ ...env, LANGUAGES: 'en,ja' }, { provider });
    try {
      const [author, listener] = [await guestLogin(c.app), await guestLogin(b.app)];
      const { roomId } = await joinRoom(c.app, author.token, null);
      const atC = await TestClient.join(c, author, roomId, 'en');
      const atB = await TestClient.join(b, listener, roomId, 'ja');
      await atC.next(presenceOf('JOIN', listener.user.username)); // announced once node B has counted the listener
      atC.send({ type: 'chat', language: 'en', message: 'heard on node B', room: roomId });
      await expect.poll(() => atB.binary.length, { timeout: 5000 }).toBe(1);
      atB.close();
      await atC.next(presenceOf('LEAVE', listener.user.username)); // announced once node B no longer counts her
      atC.send({ type: 'chat', language: 'en', message: 'no one left to hear', room: roomId });
      await atC.next(
        (frame) => frame.type === 'translationComplete' && frame.fullText === '[ja] no one left to hear',
      );
      atC.close();
    } finally {
      await c.close(); // waits for the translation work still running, speech included
    }
    const spoken = provider.calls.filter((call) => call.task === 'speech').map((call) => call.text);
    expect(spoken).toEqual(['[ja] heard on node B']);
  });
});

describe('two nodes on PostgreSQL and Redis: one database and one bus for both nodes', () => {
  it('ran the migrations once on a real PostgreSQL', async () => {
    const health = (await a.app.inject({ method: 'GET', url: '/api/health' })).json();
    expect(health).toMatchObject({ db: 'postgres', bus: 'redis' });
    const rows = await database.query<{ id: number }>('select id from schema_migrations order by id');
    expect(rows.map((row) => row.id)).toEqual(migrations.map((migration) => migration.id));
  });

  it('gives unique, increasing ids to messages posted at once on both nodes', async () => {
    const people = await Promise.all([
      guestLogin(a.app),
      guestLogin(a.app),
      guestLogin(b.app),
      guestLogin(b.app),
    ]);
    const { roomId } = await joinRoom(a.app, people[0]!.token, null);
    const clients = await Promise.all(
      people.map((person, i) => TestClient.join(i < 2 ? a : b, person, roomId)),
    );
    const perClient = 6;
    clients.forEach((client, i) => {
      for (let n = 0; n < perClient; n++)
        client.send({ type: 'chat', language: 'en', message: `c${i} m${n}`, room: roomId });
    });
    const total = clients.length * perClient;
    const watcher = clients[0]!;
    await expect
      .poll(() => watcher.messages().length, { timeout: 10_000, interval: 50 })
      .toBeGreaterThanOrEqual(total);
    const ids = (watcher.messages() as MessageFrame[]).map((frame) => frame.id);
    expect(new Set(ids).size).toBe(total);
    // Two publishers' frames may cross on Redis, but each node's room sequencer hands them out in
    // offset order: every client sees the stored order live. Late joiners get it too, on either node.
    for (const client of clients) {
      await expect
        .poll(() => client.messages().length, { timeout: 10_000, interval: 50 })
        .toBeGreaterThanOrEqual(total);
      // translations take offsets too, so the messages' offsets rise but need not be consecutive
      const offsets = (client.messages() as MessageFrame[]).map((frame) => frame.offset!);
      expect(offsets).toEqual([...offsets].sort((x, y) => x - y));
      expect((client.messages() as MessageFrame[]).map((frame) => frame.id)).toEqual(
        [...ids].sort((x, y) => x - y),
      );
    }
    const byId = [...ids].sort((x, y) => x - y);
    const late = await TestClient.join(b, people[3]!, roomId);
    expect((late.messages() as MessageFrame[]).map((frame) => frame.id)).toEqual(byId);
    const lateOnA = await TestClient.join(a, people[0]!, roomId);
    expect((lateOnA.messages() as MessageFrame[]).map((frame) => frame.id)).toEqual(byId);
    lateOnA.close();
    for (const client of [...clients, late]) client.close();
  });

  it('gives joiners on one node every message posted on the other around their join, once each (decision 0134)', async () => {
    // node A shares a room's recent window among its joiners while it has delivered nothing past it;
    // messages posted on node B as each one joins must reach it once: in its replay or live, never neither
    const [poster, first, ...joiners] = await Promise.all(
      Array.from({ length: 8 }, (_, i) => guestLogin(i === 0 ? b.app : a.app)),
    );
    const { roomId } = await joinRoom(b.app, poster!.token, null);
    const atB = await TestClient.join(b, poster!, roomId);
    const atA = await TestClient.join(a, first!, roomId); // node A reads the window and keeps it
    const say = (message: string) => atB.send({ type: 'chat', language: 'en', message, room: roomId });
    say('before');
    await atA.next((frame) => frame.type === 'message' && frame.message === 'before');

    const clients = [atA];
    for (const [i, person] of joiners.entries()) {
      const joining = TestClient.join(a, person, roomId);
      say(`during ${i}`);
      clients.push(await joining);
    }
    say('last');
    const expected = ['before', ...joiners.map((_, i) => `during ${i}`), 'last'];
    for (const client of clients) {
      await client.next((frame) => frame.type === 'message' && frame.message === 'last');
      expect(client.messages().map((frame) => (frame as MessageFrame).message)).toEqual(expected);
      client.close();
    }
    atB.close();
  });

  it('keeps rooms, messages and logins across a restart of both nodes', async () => {
    const alice = await guestLogin(a.app);
    const { roomId } = await joinRoom(a.app, alice.token, null);
    const client = await TestClient.join(a, alice, roomId);
    client.send({ type: 'chat', language: 'en', message: 'survives', room: roomId });
    await client.next((frame) => frame.type === 'message' && frame.message === 'survives');
    await Promise.all([a.close(), b.close()]);
    expect(await client.closed()).toBe(1012);
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
    services.nodes.splice(0, 2, a, b);
    const again = await TestClient.join(b, alice, roomId);
    expect(again.messages().map((frame) => (frame as MessageFrame).message)).toEqual(['survives']);
    again.close();
  });
});
