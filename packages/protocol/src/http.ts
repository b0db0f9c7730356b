import { z } from 'zod';
import { languageSchema } from './language.js';
import { PROVIDERS } from './api-paths.js';
import { roomRequestSchema } from './room-code.js';

/* HTTP bodies of the own backend. Errors are `{ statusCode, error, message }`. */

/** The signed-in user (`User`), as the server tells it. */
export const userSchema = z.object({
  userId: z.string(),
  appId: z.string(),
  platform: z.string(),
  platformPlayerId: z.string(),
  provider: z.enum(PROVIDERS),
  username: z.string(),
  displayUsername: z.string(),
  name: z.string(),
  /** Token expiry, seconds since the epoch. */
  expiresAt: z.number().int(),
});
export type User = z.infer<typeof userSchema>;

export const botcheckChallengeSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('altcha'), challenge: z.record(z.string(), z.unknown()) }),
  z.object({ provider: z.literal('turnstile'), siteKey: z.string() }),
]);
export type BotcheckChallenge = z.infer<typeof botcheckChallengeSchema>;

export const guestLoginBodySchema = z.object({
  botcheck: z.string().min(1, { message: 'botcheck is required.' }).max(20_000),
});
export type GuestLoginBody = z.infer<typeof guestLoginBodySchema>;

export const guestLoginResponseSchema = z.object({
  token: z.string(),
  user: userSchema,
  player: z.object({ id: z.string(), platformPlayerID: z.string() }),
});
export type GuestLoginResponse = z.infer<typeof guestLoginResponseSchema>;

export const joinRoomBodySchema = z.object({
  action: z.literal('join'),
  roomId: roomRequestSchema,
  /** The language the client will speak; optional, the socket's setUsername sets it too. */
  language: languageSchema.optional(),
});
export type JoinRoomBody = z.input<typeof joinRoomBodySchema>;

export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  /** Which error (HTTP_ERROR_CODES, or a username rule's code); the client words it. Added later: optional. */
  code: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
