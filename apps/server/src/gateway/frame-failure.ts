import type { ErrorCode } from '@xtalk/protocol';
import { FrameRefusal } from '../rooms/index.js';
import { DATABASE_REFUSAL, isDatabaseUnreachable } from '../store/index.js';

/**
 * How a frame whose work failed is answered: a refusal in its own words; a database out of reach as
 * `unavailable`, since nothing was stored and nothing is wrong with the frame, so the sender tries again;
 * anything else as an internal error, which the caller logs.
 */
export function failureAnswer(error: unknown): { code: ErrorCode; message: string; unexpected?: true } {
  if (error instanceof FrameRefusal) return { code: error.code, message: error.message };
  if (isDatabaseUnreachable(error)) return DATABASE_REFUSAL;
  return {
    code: 'internal',
    message: 'Something went wrong on the server; please try again.',
    unexpected: true,
  };
}
