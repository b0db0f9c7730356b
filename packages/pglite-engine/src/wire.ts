/*
 * PostgreSQL's wire protocol for one prepared statement's run, written and read here rather than by
 * PGlite's general-purpose serializer and parser (docs/decisions/0128). A run is Bind + Execute + Sync in
 * one buffer, and its answer is BindComplete, DataRows, CommandComplete and ReadyForQuery: this writes the
 * one and reads the other without building a message object per message, and hands an error to PGlite's own
 * parser, so a failed statement throws exactly the DatabaseError PGlite would.
 * Message formats: https://www.postgresql.org/docs/current/protocol-message-formats.html
 */

/** A parameter as PGlite's serializers leave it: text, bytes (sent in binary), or NULL. */
export type WireValue = string | Uint8Array | null;

const EXECUTE_ALL_ROWS = Buffer.from([0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0]); // 'E', unnamed portal, no row limit
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]); // 'S'

/**
 * Close (of evicted statements) + Bind + Execute + Sync, as one buffer. Parameters are sent as PGlite's
 * `serialize.bind` sends them: text, except bytes in binary; results are asked for in text.
 */
export function bindExecuteSync(
  statement: string,
  values: readonly WireValue[],
  closes: readonly string[] = [],
): Buffer {
  let closeBytes = 0;
  for (const name of closes) closeBytes += 1 + 4 + 1 + Buffer.byteLength(name) + 1;
  const nameBytes = Buffer.byteLength(statement);
  // 'B', length, unnamed portal, statement, format codes, values, one result format count
  let bindLength = 4 + 1 + nameBytes + 1 + 2 + 2 * values.length + 2 + 2;
  for (const value of values)
    bindLength +=
      4 + (value === null ? 0 : typeof value === 'string' ? Buffer.byteLength(value) : value.byteLength);
  const out = Buffer.allocUnsafe(closeBytes + 1 + bindLength + EXECUTE_ALL_ROWS.length + SYNC.length);
  let at = 0;
  for (const name of closes) {
    out[at++] = 0x43; // 'C'
    at = out.writeInt32BE(4 + 1 + Buffer.byteLength(name) + 1, at);
    out[at++] = 0x53; // 'S': a prepared statement
    at += out.write(name, at);
    out[at++] = 0;
  }
  out[at++] = 0x42; // 'B'
  at = out.writeInt32BE(bindLength, at);
  out[at++] = 0; // unnamed portal
  at += out.write(statement, at);
  out[at++] = 0;
  at = out.writeInt16BE(values.length, at);
  for (const value of values) at = out.writeInt16BE(value instanceof Uint8Array ? 1 : 0, at);
  at = out.writeInt16BE(values.length, at);
  for (const value of values) {
    if (value === null) at = out.writeInt32BE(-1, at);
    else if (typeof value === 'string') {
      const length = out.write(value, at + 4);
      out.writeInt32BE(length, at);
      at += 4 + length;
    } else {
      at = out.writeInt32BE(value.byteLength, at);
      out.set(value, at);
      at += value.byteLength;
    }
  }
  at = out.writeInt16BE(0, at); // every result column in text
  at += EXECUTE_ALL_ROWS.copy(out, at);
  SYNC.copy(out, at);
  return out;
}

const DATA_ROW = 0x44; // 'D'
const ERROR_RESPONSE = 0x45; // 'E'
const decoder = new TextDecoder();

/**
 * Reads a run's answer as PGlite hands it over, in chunks that view its memory (so what is kept is
 * copied): each DataRow's fields as text or null, and the ErrorResponse's bytes if there is one. Every other
 * message (BindComplete, CommandComplete, CloseComplete, ReadyForQuery, a notice) needs nothing from us.
 */
export class ReplyReader {
  readonly rows: Array<Array<string | null>> = [];
  /** The ErrorResponse, whole, to be parsed by PGlite's parser. */
  error: Uint8Array | undefined;
  /**
   * Copies of the chunks since the last whole message, while they do not yet hold the next one: a message
   * longer than a chunk (a long row) is joined once, when its last byte has come, not once per chunk.
   */
  private held: Uint8Array[] = [];
  private heldBytes = 0;

  push(chunk: Uint8Array): void {
    if (this.heldBytes === 0) return this.hold(this.read(chunk));
    this.held.push(new Uint8Array(chunk)); // a copy: the chunk views PGlite's memory, reused next time
    this.heldBytes += chunk.length;
    if (this.heldBytes < this.nextMessageLength()) return;
    const joined = Buffer.concat(this.held, this.heldBytes);
    this.held = [];
    this.heldBytes = 0;
    this.hold(this.read(joined));
  }

  /** Reads every whole message in `data`; returns the bytes after them (a message not yet complete). */
  private read(data: Uint8Array): Uint8Array {
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let at = 0;
    while (at + 5 <= data.length) {
      const end = at + 1 + view.getInt32(at + 1);
      if (end > data.length) break;
      const type = data[at];
      if (type === DATA_ROW) this.rows.push(readDataRow(data, view, at + 5));
      else if (type === ERROR_RESPONSE && !this.error) this.error = new Uint8Array(data.subarray(at, end));
      at = end;
    }
    return data.subarray(at);
  }

  private hold(rest: Uint8Array): void {
    if (rest.length === 0) return;
    this.held.push(new Uint8Array(rest)); // a copy, as above
    this.heldBytes += rest.length;
  }

  /** The whole length of the message the held bytes begin, once its 5-byte header is in. */
  private nextMessageLength(): number {
    if (this.heldBytes < 5) return 5;
    const header = Buffer.concat(this.held, 5);
    return 1 + header.readInt32BE(1);
  }
}

function readDataRow(data: Uint8Array, view: DataView, start: number): Array<string | null> {
  const count = view.getInt16(start);
  const fields = new Array<string | null>(count);
  let at = start + 2;
  for (let index = 0; index < count; index++) {
    const length = view.getInt32(at);
    at += 4;
    if (length < 0) fields[index] = null;
    else {
      fields[index] = decoder.decode(data.subarray(at, at + length));
      at += length;
    }
  }
  return fields;
}
