import { z } from 'zod';
import { PROVIDERS } from './api-paths.js';
import { userSchema } from './http.js';
import { playerLinkSchema } from './player-accounts.js';
import { FULL_NAME_MAX_LENGTH, USERNAME_MAX_LENGTH } from './usernames.js';

/*
 * HTTP bodies of accounts: sign-in exchange, profile, room history and the
 * player service. Paths are in ApiPath (http.ts).
 */

/** GET /api/auth/config: which sign-in methods this server offers. */
export const authConfigSchema = z.object({
  /** Google (or another OIDC issuer) sign-in is configured. */
  google: z.boolean(),
  /** Account mails really leave the server (SMTP_URL is set); absent from servers that predate it. */
  mail: z.boolean().optional(),
  /*
   * The fields below are absent from servers that predate them: a client reads absent as "not offered"
   * (email as offered, since every server has had it).
   */
  /** Email and password sign-in. */
  email: z.boolean().optional(),
  /** Telegram's Login Widget and Mini App sign-in, with the bot's username; false when not configured. */
  telegram: z.union([z.literal(false), z.object({ bot: z.string() })]).optional(),
  /** Sign-In with Ethereum: the chain id and domain the server's messages name; false when off. */
  wallet: z
    .union([z.literal(false), z.object({ chainId: z.number().int().positive(), domain: z.string() })])
    .optional(),
});
export type AuthConfig = z.infer<typeof authConfigSchema>;

/** POST /api/auth/exchange: trade the one-time code of /auth/{code}?provider=ggl for a session. */
export const exchangeBodySchema = z.object({
  token: z.string().max(200),
  provider: z.enum(PROVIDERS).default('ggl'),
  /** The guest form (provider guest, empty token); refused: guests enter through the bot check. */
  platformPlayerId: z.string().max(200).optional(),
});
export type ExchangeBody = z.input<typeof exchangeBodySchema>;

export const exchangeResponseSchema = z.object({ token: z.string(), user: userSchema });
export type ExchangeResponse = z.infer<typeof exchangeResponseSchema>;

/**
 * PATCH /users (bearer): `name` is the username; `fullName`
 * optionally sets the Full Name of the Profile Settings dialog in the same call. Lengths are checked by
 * the username rules, not here, so the answer carries the rule's error code.
 */
export const updateUserBodySchema = z.object({
  name: z.string().max(USERNAME_MAX_LENGTH * 4),
  fullName: z
    .string()
    .max(FULL_NAME_MAX_LENGTH * 4)
    .optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

export const updateUserResponseSchema = z.object({ user: userSchema });
export type UpdateUserResponse = z.infer<typeof updateUserResponseSchema>;

/** A refused username: the error body plus the rule's code (UsernameError) for the form to translate. */
export const usernameErrorBodySchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  code: z.string(),
});

/** One entry of a signed-in user's room history; times in ms since the epoch. */
export const roomHistoryEntrySchema = z.object({
  roomId: z.string(),
  added: z.number(),
  updated: z.number(),
});
export type RoomHistoryEntry = z.infer<typeof roomHistoryEntrySchema>;

/** GET /api/rooms/history: most recently updated first, at most PAST_ROOMS_LIMIT. */
export const roomHistoryResponseSchema = z.object({ rooms: z.array(roomHistoryEntrySchema) });
export type RoomHistoryResponse = z.infer<typeof roomHistoryResponseSchema>;

/* Player service. A player is the profile of a user: id, name and free-form data. */

/** Player calls with an id need a string or number id. */
export const playerIdSchema = z.union(
  [z.string().min(1).max(200), z.number().int().nonnegative().transform(String)],
  { message: 'id must be a string or a number.' },
);

export const playerSchema = z.object({
  id: z.string(),
  name: z.string(),
  username: z.string(),
  provider: z.enum(PROVIDERS),
  platform: z.string(),
  appId: z.string(),
  platformPlayerID: z.string(),
  /** Free-form data; always carries `name`. */
  data: z.record(z.string(), z.unknown()),
  /** Every sign-in the player holds (never secrets; another player's email is masked). */
  links: z.array(playerLinkSchema).optional(),
});
export type Player = z.infer<typeof playerSchema>;

/** PUT /api/player: set a player's name (the Full Name). */
export const putPlayerBodySchema = z.object({
  id: playerIdSchema,
  name: z.string().max(FULL_NAME_MAX_LENGTH * 4),
});
export type PutPlayerBody = z.input<typeof putPlayerBodySchema>;

/** PUT /api/player/{id}/data: replace the player's data (`name` in it is ignored; use PUT /api/player). */
export const putPlayerDataBodySchema = z.object({ data: z.record(z.string(), z.unknown()) });
export type PutPlayerDataBody = z.infer<typeof putPlayerDataBodySchema>;

export const loadByPlatformIdBodySchema = z.object({
  platform: z.string().max(50).optional(),
  appID: z.string().max(50).optional(),
  platformPlayerIds: z.array(playerIdSchema).min(1).max(100),
});
export type LoadByPlatformIdBody = z.input<typeof loadByPlatformIdBodySchema>;

export const loadByGctIdBodySchema = z.object({ gctIDs: z.array(playerIdSchema).min(1).max(100) });
export type LoadByGctIdBody = z.input<typeof loadByGctIdBodySchema>;

export const playersResponseSchema = z.object({ players: z.array(playerSchema) });
export type PlayersResponse = z.infer<typeof playersResponseSchema>;
