import { z } from 'zod';
import { languageSchema } from './language.js';
import { roomRequestSchema } from './room-code.js';

/* HTTP bodies of the own backend (spec section 7; DESIGN.md). Errors are `{ statusCode, error, message }`. */

export const PROVIDERS = ['guest', 'ggl'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The signed-in user (spec section 3, User), as the server tells it. */
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

export const joinRoomResponseSchema = z.object({ sessionId: z.string(), roomId: z.string() });
export type JoinRoomResponse = z.infer<typeof joinRoomResponseSchema>;

export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Paths of the own backend, so neither side spells them twice. */
export const ApiPath = {
  botcheck: '/api/auth/botcheck',
  guest: '/api/auth/guest',
  me: '/api/me',
  join: '/xtalk',
  socket: (sessionId: string) => `/xtalk_ws/${encodeURIComponent(sessionId)}`,
  health: '/api/health',
  /** Accounts: sign-in (server routes the browser navigates to, then the exchange), profile, history. */
  googleLogin: '/auth/google/login',
  googleCallback: '/auth/google/callback',
  authConfig: '/api/auth/config',
  exchange: '/api/auth/exchange',
  users: '/users',
  roomHistory: '/api/rooms/history',
  /** Player service (spec section 7). */
  player: '/api/player',
  playerById: (id: string) => `/api/player/${encodeURIComponent(id)}`,
  playerData: (id: string) => `/api/player/${encodeURIComponent(id)}/data`,
  playersByPlatformId: '/api/players/load_by_platform_id',
  playersByGctId: '/api/players/load_by_gct_id',
  /** Wallet, client calls (spec section 7; bodies in wallet.ts). Bearer. */
  walletBalance: '/api/wallet/balance',
  walletList: '/api/wallet/list',
  walletPurchase: '/api/wallet/purchase',
  walletPurchaseStatus: '/api/wallet/purchase/status',
  walletTxnList: '/api/wallet/txn/list',
  walletWithdrawRequest: '/api/wallet/withdraw-request',
  /** Payments: Stripe's webhook, and the built-in TEST MODE checkout page (HTML) with its two actions. */
  stripeWebhook: '/api/payments/stripe/webhook',
  testCheckout: (orderId: string) => `/api/payments/test-checkout/${encodeURIComponent(orderId)}`,
  testCheckoutPay: (orderId: string) => `/api/payments/test-checkout/${encodeURIComponent(orderId)}/pay`,
  testCheckoutCancel: (orderId: string) =>
    `/api/payments/test-checkout/${encodeURIComponent(orderId)}/cancel`,
} as const;
