import { describe, expect, it } from 'vitest';
import { FrameRefusal } from '../rooms/index.js';
import type { ChatService, PostMessage } from './chat-service.js';
import { createFairRooms, ROOM_BUSY, withFairRooms } from './fair-rooms.js';
import type { StoredMessage } from '../rooms/index.js';

/* Rooms take turns: the proof that one room's backlog never sits in front of another room's message. */

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('fair rooms', () => {
  it("runs a quiet room's message before a flooded room's backlog", async () => {
    const fair = createFairRooms({ concurrency: 1, maxQueuedPerRoom: 1000 });
    const started: string[] = [];
    const gates: (() => void)[] = [];
    const task = (name: string) => () => {
      started.push(name);
      const gate = deferred();
      gates.push(gate.resolve);
      return gate.promise;
    };
    const done: Promise<unknown>[] = [];
    for (let i = 0; i < 100; i++) done.push(fair.run('FLOOD', task(`flood-${i}`)));
    done.push(fair.run('QUIET', task('quiet')));
    // finish whatever is running, one at a time, until the quiet room's message has started
    while (!started.includes('quiet')) {
      gates.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    // first come first served would have run all 100 flood messages first
    expect(started).toEqual(['flood-0', 'quiet']);
    for (const gate of gates.splice(0)) gate();
    while (started.length < 101) {
      await new Promise((resolve) => setImmediate(resolve));
      for (const gate of gates.splice(0)) gate();
    }
    await Promise.all(done);
  });

  it("keeps each room's own order and stores one message of a room at a time", async () => {
    const fair = createFairRooms({ concurrency: 4, maxQueuedPerRoom: 100 });
    let inA = 0;
    let maxInA = 0;
    const order: string[] = [];
    const work = (room: string, i: number) => async () => {
      if (room === 'A') maxInA = Math.max(maxInA, ++inA);
      await new Promise((resolve) => setImmediate(resolve));
      order.push(`${room}${i}`);
      if (room === 'A') inA--;
    };
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => [fair.run('A', work('A', i)), fair.run('B', work('B', i))]).flat(),
    );
    expect(order.filter((name) => name.startsWith('A'))).toEqual(
      Array.from({ length: 10 }, (_, i) => `A${i}`),
    );
    expect(order.filter((name) => name.startsWith('B'))).toEqual(
      Array.from({ length: 10 }, (_, i) => `B${i}`),
    );
    expect(maxInA).toBe(1);
  });

  it('refuses a message to a room whose queue is full, as rate_limited, and recovers', async () => {
    const fair = createFairRooms({ concurrency: 1, maxQueuedPerRoom: 2 });
    const gate = deferred();
    const running = fair.run('A', () => gate.promise);
    const queued = [fair.run('A', async () => 1), fair.run('A', async () => 2)];
    const refused = await fair.run('A', async () => 3).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(FrameRefusal);
    expect(refused).toMatchObject({ code: 'rate_limited', message: ROOM_BUSY });
    // another room is not affected by A's full queue
    const other = fair.run('B', async () => 'b');
    gate.resolve();
    await running;
    expect(await Promise.all(queued)).toEqual([1, 2]);
    expect(await other).toBe('b');
    expect(await fair.run('A', async () => 4)).toBe(4);
    expect(fair.stats()).toEqual({ messagesStoring: 0, messagesWaiting: 0 });
  });

  it('passes a failure to its own caller and keeps going', async () => {
    const fair = createFairRooms({ concurrency: 1, maxQueuedPerRoom: 10 });
    const failed = fair.run('A', async () => {
      throw new Error('store down');
    });
    const next = fair.run('A', async () => 'ok');
    await expect(failed).rejects.toThrow('store down');
    expect(await next).toBe('ok');
  });
});

describe('posts through fair rooms', () => {
  /** A chat service that records how it was called; the first post waits for `gate`. */
  function recordingChat(gate: Promise<void>) {
    const calls: string[][] = [];
    const stored = (input: PostMessage): StoredMessage => ({
      message: { type: 'message', id: 1, username: 'u', message: input.text } as StoredMessage['message'],
      duplicate: false,
      roomId: input.roomId,
    });
    const chat = {
      async post(input: PostMessage) {
        calls.push([input.text]);
        if (calls.length === 1) await gate;
        if (input.text === 'bad') throw new Error('refused');
        return stored(input);
      },
      async postMany(inputs: PostMessage[]) {
        calls.push(inputs.map((input) => input.text));
        return inputs.map((input): PromiseSettledResult<StoredMessage> =>
          input.text === 'bad'
            ? { status: 'rejected', reason: new Error('refused') }
            : { status: 'fulfilled', value: stored(input) },
        );
      },
    } as unknown as ChatService;
    return { chat, calls };
  }
  const post = (roomId: string, text: string) =>
    ({ roomId, userId: 'u', username: 'u', displayUsername: 'u', language: 'en', text }) as PostMessage;
  const text = (stored: StoredMessage) => stored.message.message;

  it('stores what a room has waiting when its turn comes together, in order, each answer to its own caller', async () => {
    const gate = deferred();
    const { chat, calls } = recordingChat(gate.promise);
    const fair = createFairRooms({ concurrency: 1, maxQueuedPerRoom: 100 });
    const posting = withFairRooms(chat, fair, 100);
    const first = posting.post(post('A', 'one'));
    const waiting = ['two', 'bad', 'four'].map((name) =>
      posting.post(post('A', name)).then(text, (e: Error) => e.message),
    );
    const otherRoom = posting.post(post('B', 'b1'));
    gate.resolve();
    expect(text(await first)).toBe('one');
    expect(await Promise.all(waiting)).toEqual(['two', 'refused', 'four']);
    expect(text(await otherRoom)).toBe('b1');
    // the first alone; B waited while A stored, so its turn comes first; then A's three together
    expect(calls).toEqual([['one'], ['b1'], ['two', 'bad', 'four']]);
    expect(text(await posting.post(post('A', 'five')))).toBe('five');
    expect(calls.at(-1)).toEqual(['five']);
  });

  it('refuses a post to a room with maxQueuedPerRoom waiting, as rate_limited, and recovers', async () => {
    const gate = deferred();
    const { chat } = recordingChat(gate.promise);
    const posting = withFairRooms(chat, createFairRooms({ concurrency: 1, maxQueuedPerRoom: 2 }), 2);
    const running = posting.post(post('A', 'one'));
    const queued = [posting.post(post('A', 'two')), posting.post(post('A', 'three'))];
    expect(posting.postsWaiting()).toBe(2);
    const refused = await posting.post(post('A', 'four')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(FrameRefusal);
    expect(refused).toMatchObject({ code: 'rate_limited', message: ROOM_BUSY });
    gate.resolve();
    await running;
    expect((await Promise.all(queued)).map(text)).toEqual(['two', 'three']);
    expect(text(await posting.post(post('A', 'five')))).toBe('five');
  });
});
