import { z } from 'zod';
import { languageSchema } from './language.js';

/*
 * A room's glossary (names and terms every translation in the room obeys) and "Catch me up" (a summary of
 * what someone missed, in their language). GET/PUT ApiPath.glossary carry these bodies; the frames are in
 * frames.ts and client-frames.ts. Limits are free of zod below so the web's first load can import them.
 */

export const GLOSSARY_MAX_ENTRIES = 200;
export const GLOSSARY_TERM_MAX_LENGTH = 100;
/** A summary covers at most this many messages, ... */
export const SUMMARY_MAX_MESSAGES = 200;
/** ... of at most this long ago, ... */
export const SUMMARY_WINDOW_MS = 30 * 60_000;
/** ... and is refused for fewer than this many. */
export const SUMMARY_MIN_MESSAGES = 5;
/** The room offers "Catch me up" on its own once someone has missed this many messages. */
export const CATCH_UP_MISSED_MESSAGES = 20;

const termText = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty.' })
  .max(GLOSSARY_TERM_MAX_LENGTH, { message: `must be at most ${GLOSSARY_TERM_MAX_LENGTH} characters.` });

/**
 * One entry: `term` as written in `language`, and its required rendering in other room languages. A room
 * language without a rendering keeps the term as written (a name that is never translated).
 */
export const glossaryEntrySchema = z.object({
  /** Given by the server; an entry sent without one is new. */
  id: z.string().min(1).max(64).optional(),
  term: termText,
  language: languageSchema,
  renderings: z.record(languageSchema, termText),
});
export type GlossaryEntryInput = z.infer<typeof glossaryEntrySchema>;
export type GlossaryEntry = Required<Pick<GlossaryEntryInput, 'id'>> & Omit<GlossaryEntryInput, 'id'>;

/** PUT: the whole list, replacing the room's glossary. */
export const glossaryPutBodySchema = z.object({
  entries: z
    .array(glossaryEntrySchema)
    .max(GLOSSARY_MAX_ENTRIES, { message: `A glossary holds at most ${GLOSSARY_MAX_ENTRIES} entries.` }),
});
export type GlossaryPutBody = z.infer<typeof glossaryPutBodySchema>;

/** GET, and the answer to PUT: `version` grows by one with every change (0 for a room without one). */
export interface GlossaryResponse {
  version: number;
  entries: GlossaryEntry[];
}
export const glossaryResponseSchema = z.object({
  version: z.number().int().nonnegative(),
  entries: z.array(glossaryEntrySchema.required({ id: true })),
});
