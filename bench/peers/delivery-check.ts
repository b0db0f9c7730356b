/*
 * What the load generator checks of each delivery beside its time: that every member receives the room's
 * stored messages once each, in the order of their room offsets, with none skipped, and how many sends the
 * server refused (an `error` frame naming the send's clientId instead of the message). A refused send was
 * never acknowledged, so it is neither stored nor owed to anyone: a run that stores fewer messages than
 * it sent is either refusing them (counted here) or losing acknowledged ones (a skip or a repeat here).
 * Read from the frame's bytes, as the times are, so the check stays cheap at tens of thousands a second.
 */

const OFFSET = Buffer.from('"offset":');
const ERROR = Buffer.from('"type":"error"');
const CODE = Buffer.from('"code":"');

/** Reads the decimal number at `from`; -1 when there is none. */
function digitsAt(data: Buffer, from: number): number {
  let value = -1;
  for (let i = from; i < data.length; i++) {
    const digit = data[i]! - 48;
    if (digit < 0 || digit > 9) break;
    value = (value < 0 ? 0 : value * 10) + digit;
  }
  return value;
}

/** One member's last offset, so the next can be checked against it. */
export interface OffsetTrack {
  lastOffset?: number;
}

export interface DeliveryCounts {
  /** Sends answered with an `error` frame, by its code. */
  refused: Record<string, number>;
  /** A member's message whose offset is not past the last one it had (a repeat or a reorder). */
  outOfOrder: number;
  /** Offsets a member never received between two it did (a stored message skipped for that member). */
  skipped: number;
}

export function createDeliveryCheck() {
  let counts: DeliveryCounts = { refused: {}, outOfOrder: 0, skipped: 0 };
  return {
    /** A message frame of the load (it carries the mark) reached `member`. */
    message(member: OffsetTrack, data: Buffer) {
      const at = data.indexOf(OFFSET);
      if (at < 0) return;
      const offset = digitsAt(data, at + OFFSET.length);
      const last = member.lastOffset;
      if (last !== undefined && offset <= last) counts.outOfOrder++;
      else {
        if (last !== undefined) counts.skipped += offset - last - 1;
        member.lastOffset = offset;
      }
    },
    /** Any other frame reached a ready member: a refusal is counted by its code. */
    other(data: Buffer) {
      if (data.indexOf(ERROR) < 0) return;
      const at = data.indexOf(CODE);
      const end = at < 0 ? -1 : data.indexOf(0x22, at + CODE.length);
      const code = end < 0 ? 'unknown' : data.subarray(at + CODE.length, end).toString();
      counts.refused[code] = (counts.refused[code] ?? 0) + 1;
    },
    /** The counts since the last call, started afresh for the next load. */
    take(): DeliveryCounts {
      const taken = counts;
      counts = { refused: {}, outOfOrder: 0, skipped: 0 };
      return taken;
    },
  };
}
