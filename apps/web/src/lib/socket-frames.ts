import type { ResumePosition, ServerFrame, serverFrameSchema } from '@xtalk/protocol';

/* What the room client (socket-client.ts) makes of what its socket brings: frames, audio, its position. */

/** Where the client is in a room's log: sent as `resume` on a reconnect to the same room. */
export type RoomPosition = ResumePosition & { roomId: string };

/** A text frame as a server frame; undefined (with a warning) for one that is not JSON or not known. */
export function parseServerFrame(
  data: string,
  schema: typeof serverFrameSchema | undefined,
): ServerFrame | undefined {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    console.warn('[socket] ignored a frame that is not JSON');
    return undefined;
  }
  const parsed = schema?.safeParse(json);
  if (parsed?.success) return parsed.data;
  console.warn('[socket] ignored an unknown frame', json);
  return undefined;
}

/** A binary frame as an ArrayBuffer, whatever the socket delivered it as (a Blob takes a turn). */
export function binaryOf(data: unknown): ArrayBuffer | Promise<ArrayBuffer> | undefined {
  if (data instanceof ArrayBuffer) return data;
  if (ArrayBuffer.isView(data))
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice().buffer;
  if (typeof Blob !== 'undefined' && data instanceof Blob) return data.arrayBuffer();
  return undefined;
}

/** The position after `frame`: READY and RESYNC say where the room is, logged frames move it on. */
export function positionAfter(
  position: RoomPosition | undefined,
  frame: ServerFrame,
  roomId: string,
): RoomPosition | undefined {
  if (frame.type === 'system') {
    if ((frame.message === 'READY' || frame.message === 'RESYNC') && frame.epoch !== undefined) {
      return { roomId, epoch: frame.epoch, offset: frame.offset ?? 0 };
    }
    return position;
  }
  const offset = (frame as { offset?: number }).offset;
  if (frame.type === 'error' || offset === undefined || !position) return position;
  if (position.roomId === roomId && offset > position.offset) return { ...position, offset };
  return position;
}
