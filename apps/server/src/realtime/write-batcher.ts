import type { Writable } from 'node:stream';

/*
 * Room frames reach each socket as a ready WebSocket frame, written straight into the upgraded stream:
 * - a room frame is framed once (header + JSON, one Buffer), not once per listener as `ws.send` does;
 * - a lone frame is written at once; what a socket gets within one busy turn (a burst of messages, a
 *   replay) leaves in one write system call at setImmediate, the way Centrifugo batches writes, instead of
 *   one `writev` per frame per listener (createWriteBatcher below; docs/decisions/0110, 0127);
 * - nothing waits for a timer, so batches grow only when the server is busy.
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
export function textFrame(payload: Buffer): Buffer {
  if (payload === lastPayload) return lastFrame!;
  const cached = framed.get(payload);
  if (cached) return remember(payload, cached);
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81; // FIN + text
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
  /** Sockets corked now and turns flushed so far (tests and the benchmark). */
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

/**
 * Writes room frames, corking a socket only when the server is busy (docs/decisions/0127):
 * - a socket's first frame of a turn goes out at once while turns are quiet (one frame per socket), so
 *   the first listener of a fan-out is not kept waiting until every listener's frame has been queued;
 * - a second frame for the same socket within the turn corks it: the rest of the turn's frames leave with
 *   one write at setImmediate;
 * - after a turn in which any socket got two frames (a burst, a replay), the next turn corks every socket
 *   from its first frame, as all turns did before (docs/decisions/0110); a quiet turn ends that.
 */
export function createWriteBatcher(schedule: (flush: () => void) => void = setImmediate): WriteBatcher {
  const corked: Writable[] = [];
  let turn = 1;
  let scheduled = false;
  let flushes = 0;
  /** Some socket got a second frame in the last turn / in this one. */
  let busy = false;
  let burst = false;

  function flush() {
    scheduled = false;
    flushes++;
    turn = (turn % TURNS) + 1;
    busy = burst;
    burst = false;
    for (const socket of corked) socket.uncork();
    corked.length = 0;
  }

  function cork(socket: Marked) {
    socket[MARK] = turn * 2 + 1;
    socket.cork();
    corked.push(socket);
  }

  return {
    write(socket, data) {
      const marked = socket as Marked;
      const mark = marked[MARK] ?? 0;
      if (mark >> 1 === turn) {
        burst = true;
        if ((mark & 1) === 0) cork(marked);
      } else if (busy) cork(marked);
      else marked[MARK] = turn * 2;
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
      socket.write(data);
    },
    stats: () => ({ corked: corked.length, flushes, busy }),
  };
}
