import { z } from 'zod';
import { MAX_MESSAGE_LENGTH } from './constants.js';

/*
 * What a chat text may contain. Refused rather than silently changed, so the sender sees why:
 * - NUL and other C0 control characters (tab, newline and carriage return are text): PostgreSQL cannot
 *   store NUL, and none of them is something a person typed;
 * - unpaired UTF-16 surrogates (a broken character): they cannot be stored as UTF-8 without being
 *   replaced, so what others would read is not what was sent;
 * - a text of nothing visible (spaces, zero-width and other format characters, variation selectors).
 * Bidi controls are allowed (Arabic and Hebrew need them); the web app renders every message isolated so
 * they cannot reorder what is around it.
 */

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Characters that show nothing on their own: whitespace, format (Cf), fillers, variation selectors. */
// eslint-disable-next-line no-misleading-character-class -- each combining mark is matched on its own, on purpose
const INVISIBLE = /[\s\p{Cf}\p{Z}\u034F\u115F\u1160\u3164\uFFA0\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu;

export const textProblems = {
  empty: 'Message is empty.',
  control: 'Message contains a NUL or another control character.',
  surrogate: 'Message contains a broken character (an unpaired UTF-16 surrogate).',
  tooLong: `Message is longer than ${MAX_MESSAGE_LENGTH} characters.`,
} as const;

export const hasControlCharacter = (text: string) => CONTROL.test(text);
export const hasLoneSurrogate = (text: string) => LONE_SURROGATE.test(text);
export const isInvisible = (text: string) => text.replace(INVISIBLE, '').length === 0;

/** The first rule a chat text breaks, or undefined when it is fine. */
export function chatTextProblem(text: string): string | undefined {
  if (text.length > MAX_MESSAGE_LENGTH) return textProblems.tooLong;
  if (hasControlCharacter(text)) return textProblems.control;
  if (hasLoneSurrogate(text)) return textProblems.surrogate;
  if (isInvisible(text)) return textProblems.empty;
  return undefined;
}

/** A chat text (the `message` of a chat frame). */
export const chatTextSchema = z.string().superRefine((text, context) => {
  const problem = chatTextProblem(text);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});
