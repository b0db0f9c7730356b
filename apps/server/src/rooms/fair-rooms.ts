import { FrameRefusal } from './refusal.js';

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

/** The chat service with every post taking its room's turn. */
export function withFairRooms<S extends { post(input: { roomId: string }): Promise<unknown> }>(
  chat: S,
  fair: FairRooms,
): S {
  return { ...chat, post: (input: { roomId: string }) => fair.run(input.roomId, () => chat.post(input)) };
}
