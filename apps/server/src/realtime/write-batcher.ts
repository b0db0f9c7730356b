import type { Writable } from 'node:stream';

/*
 * Room frames reach each socket as a ready WebSocket frame, written into the socket's stream while it is
 * corked; every socket corked during a turn of the event loop is uncorked once, at setImmediate. So:
 * - a room frame is framed once (header + JSON, one Buffer), not once per listener as `ws.send` does;
 * - what a socket gets within one turn (a burst of messages, a replay) leaves in one write system call,
 *   the way Centrifugo batches writes, instead of one `writev` per frame per listener;
 * - nothing waits for a timer: a socket is uncorked in the same turn's check phase, so a lone frame is
 *   not delayed, and the batches grow only when the server is busy (docs/decisions/0110).
 * Order per socket is the order of `write` calls; `ws`'s own writes (ping, close) go into the same
 * corked stream, so they keep their place. Backpressure stays the caller's: the queued bytes show in
 * the stream's writableLength (and so in `ws.bufferedAmount`).
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
  /** Writes `data` to `socket`, corked until the end of this turn. */
  write(socket: Writable, data: Buffer): void;
  /** Sockets corked now and turns flushed so far (tests and the benchmark). */
  stats(): { corked: number; flushes: number };
}

export function createWriteBatcher(schedule: (flush: () => void) => void = setImmediate): WriteBatcher {
  const corked = new Set<Writable>();
  let scheduled = false;
  let flushes = 0;

  function flush() {
    scheduled = false;
    flushes++;
    for (const socket of corked) socket.uncork();
    corked.clear();
  }

  return {
    write(socket, data) {
      if (!corked.has(socket)) {
        socket.cork();
        corked.add(socket);
        if (!scheduled) {
          scheduled = true;
          schedule(flush);
        }
      }
      socket.write(data);
    },
    stats: () => ({ corked: corked.size, flushes }),
  };
}
