import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuestLoginResponse, MessageFrame, ServerFrame, SystemFrame } from '@xtalk/protocol';
import { loadConfig } from '../config.js';
import { startSweeps } from './sweeps.js';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';
import { dbOf, storedRoomRows } from '../testing/seed/index.js';
import { createRoomLog } from '../rooms/index.js';

/*
 * MESSAGE_RETENTION_DAYS (decision 0216): the sweep removes old messages and what is logged about them
 * while the room goes on talking, and a resume across what went is answered without a loop.
 */

const DAY_MS = 24 * 3600_000;
const isReady = (frame: ServerFrame) => frame.type === 'system' && frame.message === 'READY';
const isMessage = (text: string) => (frame: ServerFrame) =>
  frame.type === 'message' && frame.message === text;
const offsetOf = (frame: ServerFrame) => (frame as { offset?: number }).offset;
const isTranslationOf = (message: MessageFrame) => (frame: ServerFrame) =>
  frame.type === 'translationComplete' && frame.originalTimestamp === message.id;

describe('message retention', () => {
  // near the database's own time, which stamps when guests were made (the idle-guest sweep reads it)
  let now = Date.now();
  const clock = { now: () => now };
  let server: TestServer;
  let alice: GuestLoginResponse;
  let bob: GuestLoginResponse;
  let roomId: string;
  let speaker: TestClient;
  let epoch: string;
  /** Within the old messages, and just after them and their translations. */
  let early: number;
  let afterOld: number;

  /** Sends `text` and waits until the room has its message and its Japanese translation. */
  async function say(text: string): Promise<MessageFrame> {
    speaker.send({ type: 'chat', language: 'en', message: text, room: roomId });
    const message = await speaker.next<MessageFrame>(isMessage(text));
    await speaker.next(isTranslationOf(message));
    return message;
  }

  /** A fresh socket of Bob's that resumes at `offset`: the frames before READY, and READY. */
  async function resumeAt(offset: number) {
    const session = await joinRoom(server.app, bob.token, roomId);
    const client = await TestClient.open(`${server.wsBase}/xtalk_ws/${session.sessionId}?t=${bob.token}`);
    client.send({
      type: 'setUsername',
      username: bob.user.username,
      language: 'ja',
      room: roomId,
      protocolVersion: 8,
      resume: { epoch, offset },
    });
    const ready = await client.next<SystemFrame>(isReady);
    client.close();
    return { before: client.framesBefore(ready), ready };
  }

  const lastOffset = (client: TestClient) => Math.max(...client.frames.map((frame) => offsetOf(frame) ?? 0));

  beforeAll(async () => {
    // sessions outlive the days the clock is moved on
    server = await startServer(
      { MESSAGE_RETENTION_DAYS: '1', SESSION_TTL_SECONDS: String(7 * 86_400) },
      { clock },
    );
    [alice, bob] = await Promise.all([guestLogin(server.app), guestLogin(server.app)]);
    ({ roomId } = await joinRoom(server.app, alice.token, null));
    speaker = await TestClient.join(server, alice, roomId, 'en', { protocolVersion: 8 });
    epoch = speaker.frames.find((frame): frame is SystemFrame => isReady(frame))!.epoch!;
    for (const n of [1, 2, 3, 4, 5, 6]) {
      await say(`old ${n}`);
      if (n === 2) early = lastOffset(speaker);
    }
    afterOld = lastOffset(speaker);
    now += 2 * DAY_MS;
    await say('new 1');
  });
  afterAll(async () => {
    speaker.close();
    await server.close();
  });

  it('removes the old messages and their logged changes while the room goes on talking', async () => {
    const config = loadConfig({ NODE_ENV: 'test', MESSAGE_RETENTION_DAYS: '1' });
    // the sweep starts at once; messages sent meanwhile are stored and acknowledged as usual
    const sweeper = startSweeps(config, dbOf(server), clock, server.app.log);
    const during = await Promise.all([1, 2, 3, 4, 5].map((n) => say(`during ${n}`)));
    await sweeper.stop();
    expect(during.map((message) => message.offset)).toEqual(
      [...during.map((message) => message.offset)].sort((a, b) => a! - b!),
    );
    const stored = (await storedRoomRows(server)).messages.filter((row) => row.room_id === roomId);
    expect(stored.map((row) => row.text).sort()).toEqual(
      ['new 1', 'during 1', 'during 2', 'during 3', 'during 4', 'during 5'].sort(),
    );
    const log = createRoomLog(dbOf(server));
    const position = (await log.position(roomId))!;
    const logged = await log.readSince(roomId, 0, position.offset, 1000);
    expect(logged.length).toBeGreaterThan(0);
    expect(JSON.stringify(logged)).not.toContain('old ');
    expect(Math.min(...logged.map((frame) => frame.offset))).toBeGreaterThan(afterOld);
  });

  it('resumes exactly from a position after the removed range', async () => {
    const { before, ready } = await resumeAt(afterOld);
    expect(before.some((frame) => frame.type === 'system' && frame.message === 'RESYNC')).toBe(false);
    expect(before.map(offsetOf)).toEqual(
      Array.from({ length: ready.offset! - afterOld }, (_, index) => afterOld + index + 1),
    );
    expect(before.filter((frame) => frame.type === 'message').map((frame) => frame.message)[0]).toBe('new 1');
  });

  it('answers a position inside the removed range with RESYNC and what is left, once', async () => {
    const gap = await resumeAt(early);
    expect(gap.before[0]).toMatchObject({ type: 'system', message: 'RESYNC', offset: gap.ready.offset });
    const texts = gap.before.filter((frame) => frame.type === 'message').map((frame) => frame.message);
    expect(texts).toEqual(['new 1', 'during 1', 'during 2', 'during 3', 'during 4', 'during 5']);
    // the position READY gave is exact from then on: resuming there asks for nothing more
    const again = await resumeAt(gap.ready.offset!);
    expect(again.before).toEqual([]);
    expect(again.ready.offset).toBe(gap.ready.offset);
  });
});
