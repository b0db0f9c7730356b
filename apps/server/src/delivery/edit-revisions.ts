import type { Envelope } from './envelope.js';

/*
 * A chunk of a corrected text can reach a node after the correction does: the node that streams the old
 * text may publish a chunk it checked just before it heard of the correction, and the room's channel then
 * carries it after `messageEdited`. Each chunk names the revision of the text it translates (the message's
 * `editedAt`, none for its first text), and the node that delivers the room drops one older than the
 * correction it already delivered, so no piece of the old text follows `messageEdited` to any listener. A
 * translationComplete that could not be logged travels the same way, and is dropped the same way; a logged
 * one is stored only while the message still has its text, and its offset orders it before the correction.
 * Only the room's recent corrections are kept: a stale chunk trails its correction by the time one engine
 * call takes, never by hundreds of corrections.
 */

/** A correction as its logged frame begins; a quote inside a string is escaped, so text never matches. */
const EDITED_MARK = Buffer.from('"type":"messageEdited"');
/** A chunk, or a complete translation, as the translation serialises it (its type first). */
const CHUNK_MARK = Buffer.from('{"type":"translationChunk"');
const COMPLETE_MARK = Buffer.from('{"type":"translationComplete"');
const startsWith = (body: Buffer, mark: Buffer) => body.subarray(0, mark.length).equals(mark);
const KEPT = 256;

interface Revised {
  id?: unknown;
  editedAt?: unknown;
  originalTimestamp?: unknown;
  revision?: unknown;
}

function parse(body: Buffer): Revised | undefined {
  try {
    return JSON.parse(body.toString()) as Revised;
  } catch {
    return undefined;
  }
}

/** One room's latest correction per message, and the check of its chunks against them. */
export function createEditRevisions(kept = KEPT) {
  const latest = new Map<number, number>();

  function corrected(body: Buffer): void {
    const frame = parse(body);
    if (typeof frame?.id !== 'number' || typeof frame.editedAt !== 'number') return;
    latest.delete(frame.id);
    latest.set(frame.id, frame.editedAt);
    if (latest.size > kept) latest.delete(latest.keys().next().value!);
  }

  return {
    /** Notes a correction as it is delivered; true for a chunk of a text a delivered correction replaced. */
    stale(envelope: Envelope): boolean {
      const { body } = envelope;
      if (envelope.kind !== 'text') return false;
      if (envelope.offset !== undefined) {
        if (body.includes(EDITED_MARK)) corrected(body);
        return false;
      }
      // most rooms have no recent correction: their chunks are never parsed
      if (latest.size === 0) return false;
      const complete = startsWith(body, COMPLETE_MARK);
      if (!complete && !startsWith(body, CHUNK_MARK)) return false;
      const frame = parse(body);
      if (typeof frame?.originalTimestamp !== 'number') return false;
      const known = latest.get(frame.originalTimestamp);
      // a chunk names no revision for a first text; a complete translation from a node that names none is kept
      if (complete && typeof frame.revision !== 'number') return false;
      const revision = typeof frame.revision === 'number' ? frame.revision : 0;
      return known !== undefined && revision < known;
    },
  };
}
export type EditRevisions = ReturnType<typeof createEditRevisions>;
