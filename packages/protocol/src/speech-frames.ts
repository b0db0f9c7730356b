import { z } from 'zod';
import { languageSchema } from './language.js';

/* The frames of spoken translations: the server's audio sentence by sentence, or the text a client speaks. */

/**
 * Protocol 6: one sentence of a spoken translation. The very next frame on the socket is binary and holds
 * exactly `bytes` bytes: a self-contained Ogg/Opus stream of sentence `seq` (0, 1, 2, ...) of message
 * `id`'s translation into `language`; `last` on the final sentence. Sentences of a voice clip spoken before
 * its message exists carry id 0 and the clipId; the clip's message continues their `seq`. A client below 6
 * gets one WAV per message instead.
 */
export const speechFrame = z.object({
  type: z.literal('speech'),
  id: z.number().int().min(0),
  language: languageSchema,
  seq: z.number().int().min(0),
  last: z.boolean(),
  bytes: z.number().int().min(1),
  clipId: z.string().optional(),
});
export type SpeechFrame = z.infer<typeof speechFrame>;

/**
 * Protocol 8: message `id`'s translation into `language` (its `text`), which the server has no voice for,
 * sent to that language's listeners once the translation is complete. The client speaks it itself (the
 * browser's speech synthesis) through the same queue, order and mute as the server's `speech`.
 */
export const noServerVoiceFrame = z.object({
  type: z.literal('noServerVoice'),
  id: z.number().int().min(1),
  language: languageSchema,
  text: z.string().min(1),
});
export type NoServerVoiceFrame = z.infer<typeof noServerVoiceFrame>;
