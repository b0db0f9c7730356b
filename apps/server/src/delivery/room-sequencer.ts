import type { FastifyBaseLogger } from 'fastify';
import type { LoggedFrame, RoomPosition } from '../rooms/index.js';
import { decodeEnvelope, encodeText, type Envelope } from './envelope.js';
import type { RecentWindowRead } from './recent-windows.js';

/** Where a node reads what its bus did not bring: the room log in the database. */
export interface RoomLogSource {
  position(roomId: string): Promise<RoomPosition | undefined>;
  readSince(roomId: string, after: number, upTo: number, limit: number): Promise<LoggedFrame[]>;
  /** A room's position and latest messages in one read (joiners); the hub shares it while current. */
  recentWindow?: RecentWindowRead;
}

export interface SequencerOptions {
  /** How long a gap may stay open (frames of two nodes cross on the bus) before the log is read. */
  gapWaitMs: number;
  /** Frames read from the log per query. */
  pageSize: number;
  logger: FastifyBaseLogger;
}

/**
 * Puts one room's logged frames (messages and later changes, each at a room offset) in offset order on
 * this node, each once, and fills every gap from the log: frames of two publishers may cross on the bus,
 * and a bus outage may drop some. Frames without an offset (chunks, JOIN, LEAVE) pass straight through.
 * See docs/decisions/0061-room-offsets-and-epochs.md.
 */
export function createRoomSequencer(
  roomId: string,
  source: RoomLogSource | undefined,
  deliver: (envelope: Envelope) => void,
  options: SequencerOptions,
) {
  /** The next offset to deliver; undefined until started (frames are held until then). */
  let next: number | undefined = source ? undefined : 0;
  const held = new Map<number, Envelope>();
  const timer = waitTimer(() => void catchUp());
  let fetching = false;
  let fetchAgain = false;
  let stopped = false;

  function schedule(delay = options.gapWaitMs) {
    if (!fetching && !stopped) timer.start(delay);
  }

  function drain() {
    if (next === undefined) return;
    for (let envelope = held.get(next); envelope; envelope = held.get(next)) {
      held.delete(next);
      next += 1;
      deliver(envelope);
    }
    for (const offset of held.keys()) if (offset < next) held.delete(offset);
    if (held.size > 0) schedule();
    else timer.clear();
  }

  /** A frame read from the log: delivered when it is the next one, past a hole in the log if need be. */
  function takeFromLog(frame: LoggedFrame) {
    if (stopped || next === undefined || frame.offset < next) return;
    if (frame.offset > next) {
      // The log is gap-free, so a hole means its start was trimmed: nothing there to wait for.
      options.logger.warn({ roomId, from: next, to: frame.offset }, 'room log has a hole; skipping it');
      next = frame.offset;
    }
    held.delete(frame.offset);
    next += 1;
    deliver(decodeEnvelope(encodeText(frame))!);
  }

  /** Reads everything from `next` on out of the log and delivers it; bus copies that come later are dropped. */
  async function catchUp(): Promise<void> {
    if (!source || next === undefined || stopped) return;
    if (fetching) {
      fetchAgain = true;
      return;
    }
    fetching = true;
    timer.clear();
    try {
      do {
        fetchAgain = false;
        await readToEnd(source, roomId, options.pageSize, () => next!, takeFromLog);
      } while (fetchAgain && !stopped);
    } catch (error) {
      options.logger.warn({ err: error, roomId }, 'reading the room log to fill a gap failed; retrying');
      fetching = false;
      schedule(Math.max(options.gapWaitMs, 1000));
      return;
    }
    fetching = false;
    drain();
  }

  return {
    /**
     * Starts at the room's current offset: what is already stored, joiners read from the log. `read`
     * gives that position when it comes from another read of the room (its recent window).
     */
    async start(read?: () => Promise<RoomPosition | undefined>): Promise<void> {
      if (!source || next !== undefined) return;
      const position = await (read ? read() : source.position(roomId));
      next ??= (position?.offset ?? 0) + 1;
      drain();
    },
    push(envelope: Envelope) {
      if (envelope.offset === undefined || !source) return deliver(envelope);
      if (next !== undefined && envelope.offset < next) return; // delivered already (from the log)
      held.set(envelope.offset, envelope);
      drain();
    },
    catchUp,
    /** The last offset delivered, in order and with no gap before it; undefined until started. */
    delivered: (): number | undefined => (next === undefined ? undefined : next - 1),
    stop() {
      stopped = true;
      timer.clear();
      held.clear();
    },
  };
}
/** One pending wait at a time: starting it again while it runs changes nothing. */
function waitTimer(onDue: () => void) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    start(delay: number) {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        onDue();
      }, delay);
      timer.unref?.();
    },
    clear() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** Reads a room's log page by page, from the offset `from` gives at each page, to its end. */
async function readToEnd(
  source: RoomLogSource,
  roomId: string,
  pageSize: number,
  from: () => number,
  take: (frame: LoggedFrame) => void,
) {
  for (;;) {
    const frames = await source.readSince(roomId, from() - 1, Number.MAX_SAFE_INTEGER, pageSize);
    for (const frame of frames) take(frame);
    if (frames.length < pageSize) return;
  }
}

export type RoomSequencer = ReturnType<typeof createRoomSequencer>;
