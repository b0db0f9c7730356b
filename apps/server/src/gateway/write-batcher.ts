import type { Writable } from 'node:stream';

/*
 * Room frames reach each socket as a ready WebSocket frame, written straight into the upgraded stream:
 * - a room frame is framed once (header + JSON, one Buffer), not once per listener as `ws.send` does;
 * - what a socket gets within one turn (a burst of messages, a replay) leaves in one write system call at
 *   setImmediate, the way Centrifugo batches writes, instead of one `writev` per frame per listener; a
 *   large fan-out's frame goes out at once (createWriteBatcher below; decision 0110, decision 0127);
 * - nothing waits for a timer, so batches grow only when the server is busy;
 * - a socket being upgraded is held corked for its turn, so the 101 answer leaves with READY.
 * Order per socket is the order of `write` calls; `ws`'s own writes (ping, close) go into the same
 * stream, so they keep their place. Backpressure stays the caller's: the queued bytes show in the
 * stream's writableLength (and so in `ws.bufferedAmount`).
 */

/** WebSocket text frames by their JSON, so a room frame is framed once for all its listeners. */
const framed = new WeakMap<Buffer, Buffer>();
/** The last one, checked first: a fan-out asks for the same payload once per listener in a row. */
let lastPayload: Buffer | undefined;
let lastFrame: Buffer | undefined;

/** An unmasked, final text frame (RFC 6455 5.2): what a server sends. */
export const textFrame = (payload: Buffer): Buffer => wsFrame(payload, 0x81);

/** An unmasked, final binary frame: a spoken sentence's audio, written in turn after its `speech` frame. */
export const binaryFrame = (payload: Buffer): Buffer => wsFrame(payload, 0x82);

/** Framed once per payload (a payload is only ever sent as one kind). */
function wsFrame(payload: Buffer, first: number): Buffer {
  if (payload === lastPayload) return lastFrame!;
  const cached = framed.get(payload);
  if (cached) return remember(payload, cached);
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = first; // FIN + opcode
  if (length < 126) frame[1] = length;
  else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  payload.copy(frame, headerLength);
  framed.set(payload, frame);
  return remember(payload, frame);
}

function remember(payload: Buffer, frame: Buffer): Buffer {
  lastPayload = payload;
  lastFrame = frame;
  return frame;
}

export interface WriteBatcher {
  /** Writes `data` to `socket`: at once, or corked until the end of this turn (see createWriteBatcher). */
  write(socket: Writable, data: Buffer): void;
  /**
   * Corks `socket` until the end of this turn, before anything is written to it: what others write to
   * it meanwhile (the upgrade's 101 answer) leaves in one write with the frames that follow (READY).
   */
  hold(socket: Writable): void;
  /** Sockets corked now, turns flushed so far, and whether the last turn had a burst (tests). */
  stats(): { corked: number; flushes: number; busy: boolean };
}

/**
 * On each socket written to: the turn of its last write, times two, plus one if it is corked in that turn.
 * A number on the socket rather than a Set of them: the check runs once per delivery.
 */
const MARK = Symbol('xtalk.writeTurn');
type Marked = Writable & { [MARK]?: number };
/** Turns count round within this, so a mark (turn * 2 + 1 < 2 ** 30) stays an unboxed small integer. */
const TURNS = 2 ** 28;

/** Listeners of one frame corked in a turn before the rest of its fan-out is written at once. */
export const WRITE_THROUGH_AFTER = 32;

export interface WriteBatcherOptions {
  /** When corked sockets are uncorked: the end of this turn (tests pass their own). */
  schedule?: (flush: () => void) => void;
  /** WRITE_THROUGH_AFTER unless given (tests). */
  writeThroughAfter?: number;
}

/**
 * Writes room frames (decision 0127):
 * - a frame goes into a corked socket, and every socket corked in a turn is uncorked once, at setImmediate
 *   (decision 0110): what a socket gets within a turn (a burst, a replay) leaves in one write;
 * - except in a large fan-out: once the same frame has been handed over for `writeThroughAfter` listeners
 *   in a row, it goes out at once to each further listener that has had nothing else in this turn. Corked,
 *   the first of 1,000 listeners waited for the whole fan-out to be queued, and every socket was visited
 *   twice; in a small room the wait is a few writes long and corking costs nothing;
 * - a second frame for a socket within the turn corks it, and after a turn in which that happened (a
 *   burst) every socket is corked from its first frame; a turn without ends that.
 */
export function createWriteBatcher(options: WriteBatcherOptions = {}): WriteBatcher {
  const { schedule = setImmediate, writeThroughAfter = WRITE_THROUGH_AFTER } = options;
  const corked: Writable[] = [];
  let turn = 1;
  let scheduled = false;
  let flushes = 0;
  /** The last turn had a burst / this one has (some socket got a second frame). */
  let busy = false;
  let burst = false;
  /** The frame written last, and to how many sockets in a row. */
  let lastWritten: Buffer | undefined;
  let run = 0;
  /** Sockets held in this turn that have had no frame yet: their first one is no burst. */
  const held = new Set<Writable>();

  function flush() {
    scheduled = false;
    flushes++;
    turn = (turn % TURNS) + 1;
    busy = burst;
    burst = false;
    lastWritten = undefined;
    run = 0;
    held.clear();
    for (const socket of corked) socket.uncork();
    corked.length = 0;
  }

  function cork(socket: Marked) {
    socket[MARK] = turn * 2 + 1;
    socket.cork();
    corked.push(socket);
  }

  function scheduleFlush() {
    if (scheduled) return;
    scheduled = true;
    schedule(flush);
  }

  return {
    write(socket, data) {
      if (data === lastWritten) run++;
      else {
        lastWritten = data;
        run = 1;
      }
      const marked = socket as Marked;
      const mark = marked[MARK] ?? 0;
      if (mark >> 1 === turn) {
        if (!held.delete(socket)) burst = true;
        if ((mark & 1) === 0) cork(marked);
      } else if (busy || run <= writeThroughAfter) cork(marked);
      else marked[MARK] = turn * 2;
      scheduleFlush();
      socket.write(data);
    },
    hold(socket) {
      const marked = socket as Marked;
      if ((marked[MARK] ?? 0) >> 1 === turn) return;
      cork(marked);
      held.add(socket);
      scheduleFlush();
    },
    stats: () => ({ corked: corked.length, flushes, busy }),
  };
}
