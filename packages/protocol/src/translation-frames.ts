import { z } from 'zod';
import { languageSchema } from './language.js';
import { offsetField } from './offset-field.js';

/* The frames of a message's translation: its pieces as they stream, the whole, or its failure. */

export const translationChunkFrame = z.object({
  type: z.literal('translationChunk'),
  /** The message's id; 0 for a piece of a voice clip still being spoken (no message yet: see clipId). */
  originalTimestamp: z.number().int(),
  targetLanguage: languageSchema,
  chunk: z.string(),
  /**
   * Where this chunk starts in the translation being streamed: the length, in UTF-16 code units (a
   * JavaScript string's length), of the chunks sent before it. Additive (decision 0136): a client that
   * holds exactly that much appends; one that holds a different amount (it joined mid-stream, or a chunk of
   * a stream a correction replaced came late) waits for translationComplete instead of showing a piece
   * without its start. Absent on the chunks of a voice clip's sentences, which continue its caption.
   */
  at: z.number().int().min(0).optional(),
  /**
   * Protocol 3: the streamed clip this chunk translates. Chunks made before the clip ends carry
   * originalTimestamp 0; the clip's message (same clipId) then takes them over as its translation so far.
   */
  clipId: z.string().optional(),
  /**
   * The revision of the text this chunk translates: the message's `editedAt` when it was corrected,
   * absent for its first text. Additive: a node drops a chunk older than a correction it already
   * delivered, and a client that holds a later `editedAt` for the message may drop it too.
   */
  revision: z.number().int().optional(),
});
export type TranslationChunkFrame = z.infer<typeof translationChunkFrame>;

export const translationCompleteFrame = z.object({
  type: z.literal('translationComplete'),
  originalTimestamp: z.number().int(),
  targetLanguage: languageSchema,
  fullText: z.string(),
  offset: offsetField,
  /**
   * The revision of the text this translates, as a chunk's: the message's `editedAt` when it was
   * corrected, but 0 for its first text, so that a client can tell a first text's late translation from
   * one of a server that sends no revision. Additive: a node drops one older than a correction it already
   * delivered, and a client that holds a later `editedAt` for the message drops it; a frame without it
   * (an older server) is kept.
   */
  revision: z.number().int().optional(),
});
export type TranslationCompleteFrame = z.infer<typeof translationCompleteFrame>;

/**
 * Protocol 4: the translation of a message into `targetLanguage` failed for good after some of its chunks
 * were sent; the listener drops them and shows the message as written. A room notice (code `notice`, kind
 * engine_failed) says why, at most once per window. Logged in the room (`offset`, additive, decision
 * 0135), so a client that was away when it came gets it on resume; a client of version 3 or older is
 * never sent it, live or replayed.
 */
export const translationFailedFrame = z.object({
  type: z.literal('translationFailed'),
  originalTimestamp: z.number().int(),
  targetLanguage: languageSchema,
  offset: offsetField,
});
export type TranslationFailedFrame = z.infer<typeof translationFailedFrame>;
