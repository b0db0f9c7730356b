import type { ChatService, PostMessage } from './chat-service.js';
import { FrameRefusal } from '../rooms/index.js';
import type { StoredMessage } from '../rooms/index.js';

/*
 * Rooms take turns to store their messages (docs/decisions/0070-limits-on-every-door.md). Without this,
 * every message of every room queues first come, first served on the store (PGlite has one connection),
 * so a room flooded with messages delays every other room behind its backlog. Here each room has its own
 * queue, at most one of its messages is being stored at a time (a room's inserts serialise on its row
 * lock anyway), at most `concurrency` rooms store at once, and a waiting room gets the next free slot in
 * turn. A room whose queue is full is told it is busy instead of growing the backlog without bound.
 */

export interface FairRoomsOptions {
  /** Rooms storing at once. */
  concurrency: number;
  /** Messages of one room waiting (not yet being stored) before more are refused. */
  maxQueuedPerRoom: number;
}

interface Task {
  run(): Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export const ROOM_BUSY = 'This room is receiving too many messages right now; wait a moment and send again.';

export function createFairRooms(options: FairRoomsOptions) {
  const queues = new Map<string, Task[]>();
  /** Rooms with waiting work and nothing being stored, in the order they get the next free slot. */
  const ready: string[] = [];
  const busy = new Set<string>();

  function pump() {
    while (busy.size < options.concurrency && ready.length > 0) {
      const roomId = ready.shift()!;
      const queue = queues.get(roomId)!;
      const task = queue.shift()!;
      busy.add(roomId);
      // the slot is free (and the room back in line) before the caller hears the result
      const finish = () => {
        busy.delete(roomId);
        if (queue.length > 0) ready.push(roomId);
        else queues.delete(roomId);
        pump();
      };
      task.run().then(
        (value) => {
          finish();
          task.resolve(value);
        },
        (error: unknown) => {
          finish();
          task.reject(error);
        },
      );
    }
  }

  return {
    /** Runs `work` in the room's turn; refused (FrameRefusal rate_limited) when the room's queue is full. */
    run<T>(roomId: string, work: () => Promise<T>): Promise<T> {
      let queue = queues.get(roomId);
      if (queue && queue.length >= options.maxQueuedPerRoom) {
        return Promise.reject(new FrameRefusal('rate_limited', ROOM_BUSY));
      }
      return new Promise<T>((resolve, reject) => {
        if (!queue) queues.set(roomId, (queue = []));
        queue.push({ run: work, resolve: resolve as (value: unknown) => void, reject });
        if (!busy.has(roomId) && queue.length === 1) ready.push(roomId);
        pump();
      });
    },
    /** Waiting messages per room and rooms storing now (health, tests). */
    stats: () => ({
      messagesStoring: busy.size,
      messagesWaiting: [...queues.values()].reduce((n, q) => n + q.length, 0),
    }),
  };
}
export type FairRooms = ReturnType<typeof createFairRooms>;

interface Waiter {
  input: PostMessage;
  resolve(stored: StoredMessage): void;
  reject(error: unknown): void;
}

/**
 * The chat service with every post taking its room's turn. The posts a room has waiting when its turn
 * comes are stored together, in the order they came (group commit, decision 0112): a backlog costs
 * one statement, not one per message, and a room's messages never wait on one commit each. A room with
 * `maxQueuedPerRoom` posts waiting refuses more (ROOM_BUSY), as the room queue does.
 */
export function withFairRooms(
  chat: ChatService,
  fair: FairRooms,
  maxQueuedPerRoom: number,
): ChatService & { postsWaiting(): number } {
  const waiting = new Map<string, Waiter[]>();

  /** Runs in the room's turn: takes everything waiting for the room; later posts wait for the next turn. */
  async function store(roomId: string): Promise<void> {
    const batch = waiting.get(roomId) ?? [];
    waiting.delete(roomId);
    if (batch.length === 1) {
      const [only] = batch as [Waiter];
      return chat.post(only.input).then(only.resolve, only.reject);
    }
    try {
      const results = await chat.postMany(batch.map((waiter) => waiter.input));
      results.forEach((result, index) => {
        if (result.status === 'fulfilled') batch[index]!.resolve(result.value);
        else batch[index]!.reject(result.reason);
      });
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
    }
  }

  return {
    ...chat,
    /** Posts waiting for their room's turn (health: the fair queue holds one task per room's batch). */
    postsWaiting: () => [...waiting.values()].reduce((sum, queue) => sum + queue.length, 0),
    post(input: PostMessage): Promise<StoredMessage> {
      const { roomId } = input;
      const queue = waiting.get(roomId);
      if (queue && queue.length >= maxQueuedPerRoom) {
        return Promise.reject(new FrameRefusal('rate_limited', ROOM_BUSY));
      }
      return new Promise<StoredMessage>((resolve, reject) => {
        if (queue) return void queue.push({ input, resolve, reject });
        const created: Waiter[] = [{ input, resolve, reject }];
        waiting.set(roomId, created);
        // after the waiter is in: a free room runs `store` at once, within this call
        fair
          .run(roomId, () => store(roomId))
          .catch((error: unknown) => {
            if (waiting.get(roomId) === created) waiting.delete(roomId);
            for (const waiter of created) waiter.reject(error);
          });
      });
    },
  };
}
