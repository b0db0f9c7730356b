import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.js';
import { userSchema } from './http.js';

/*
 * The rest of the player service: several sign-ins per player (links), email
 * accounts, Ethereum wallets, Telegram and the token endpoint for native clients. Its paths (PlayerPath,
 * MailPagePath) are in api-paths.ts, free of zod for the web's first load.
 */

/**
 * The kinds of identity a player can hold. `ggl` is any OIDC issuer (Google by default), `evm` an
 * Ethereum wallet address, `tg` a Telegram user (signed in with the widget, tgw, or a Mini App, tga),
 * `guest` the guest identity a player started with, `store` an app-store account id (purchases only).
 */
export const LINK_PROVIDERS = ['guest', 'ggl', 'email', 'evm', 'tg', 'store'] as const;
export type LinkProvider = (typeof LINK_PROVIDERS)[number];
/** Links that sign a person in; the last of these cannot be unlinked. */
export const SIGN_IN_PROVIDERS: readonly LinkProvider[] = ['ggl', 'email', 'evm', 'tg'];

export const playerLinkSchema = z.object({
  provider: z.enum(LINK_PROVIDERS),
  subject: z.string(),
  /** The OIDC issuer of a `ggl` link, the store of a `store` link. */
  issuer: z.string().optional(),
});
export type PlayerLink = z.infer<typeof playerLinkSchema>;
export const playerLinksResponseSchema = z.object({ links: z.array(playerLinkSchema) });
export type PlayerLinksResponse = z.infer<typeof playerLinksResponseSchema>;

const email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'Enter a valid email address.' }))
  .transform((value) => value.toLowerCase());
const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { message: `Passwords have at least ${PASSWORD_MIN_LENGTH} characters.` })
  .max(PASSWORD_MAX_LENGTH, { message: `Passwords have at most ${PASSWORD_MAX_LENGTH} characters.` });
/** A password as typed at sign-in: any length up to the maximum (the rules apply when it is chosen). */
const givenPassword = z.string().min(1, { message: 'password is required.' }).max(PASSWORD_MAX_LENGTH);
const mailToken = z.string().min(1, { message: 'token is required.' }).max(200);

export const emailRegisterBodySchema = z.object({ email, password });
export const emailLoginBodySchema = z.object({ email, password: givenPassword });
export const emailOnlyBodySchema = z.object({ email });
export const emailVerifyBodySchema = z.object({ token: mailToken });
export const emailResetBodySchema = z.object({ token: mailToken, newPassword: password });
export const passwordChangeBodySchema = z.object({ password: givenPassword, newPassword: password });
export type EmailRegisterBody = z.input<typeof emailRegisterBodySchema>;
export type PasswordChangeBody = z.input<typeof passwordChangeBodySchema>;

/** The answer of register, forgot and resend: the same whether or not the email is registered. */
export const mailSentResponseSchema = z.object({ ok: z.literal(true), message: z.string() });
export type MailSentResponse = z.infer<typeof mailSentResponseSchema>;

/** The answer of sign-out and "sign out everywhere" (POST /api/auth/logout, /api/auth/logout-all). */
export const signedOutResponseSchema = z.object({ ok: z.literal(true), message: z.string() });
export type SignedOutResponse = z.infer<typeof signedOutResponseSchema>;

/** Every sign-in answers with the session token and the user (as /api/auth/exchange does). */
export const signInResponseSchema = z.object({ token: z.string(), user: userSchema });
export type SignInResponse = z.infer<typeof signInResponseSchema>;

/** Wallets: the payload of signing in or linking with a wallet. */
export const walletBodySchema = z.object({
  nonce: z.string().min(1).max(200),
  signature: z.string().min(1).max(2000),
  chainType: z.string().min(1).max(40),
  networkID: z.union([
    z.number().int().positive(),
    z
      .string()
      .regex(/^\d{1,18}$/)
      .transform(Number),
  ]),
  walletProvider: z.string().max(100).default(''),
  /** The EIP-4361 (Sign-In with Ethereum) message that was signed. */
  signingData: z.string().min(1).max(4000),
});
export type WalletBody = z.input<typeof walletBodySchema>;
/**
 * GET /api/auth/nonce/{address}: the nonce, and an EIP-4361 message carrying it for the wallet to sign
 * (this server's domain, the configured chain, the nonce's expiry); absent from older servers.
 */
export const nonceResponseSchema = z.object({ nonce: z.string(), message: z.string().optional() });
export type NonceResponse = z.infer<typeof nonceResponseSchema>;

/** Telegram Login Widget data (tgw): the fields Telegram signs plus its hash. */
export const telegramWidgetDataSchema = z
  .object({
    id: z.union([z.number().int(), z.string().regex(/^\d+$/)]),
    auth_date: z.union([z.number().int(), z.string().regex(/^\d+$/)]),
    hash: z.string().regex(/^[0-9a-f]{64}$/i, { message: 'hash must be 64 hex characters.' }),
  })
  .catchall(z.union([z.string(), z.number()]));
export type TelegramWidgetData = z.infer<typeof telegramWidgetDataSchema>;

/** POST /api/player/link: what proves the identity depends on the provider. */
export const linkBodySchema = z.discriminatedUnion('provider', [
  /** Registers an email account for this player; it is linked when the mail's link is opened. */
  z.object({ provider: z.literal('email'), email, password }),
  walletBodySchema.extend({ provider: z.literal('evm') }),
  z.object({ provider: z.literal('tgw'), data: telegramWidgetDataSchema }),
  z.object({
    provider: z.literal('tga'),
    signedPayload: z.string().min(1).max(8000),
    data: z.object({ bot: z.string().min(1) }),
  }),
  /** The one-time code of an OIDC sign-in redirect (/auth/{code}). */
  z.object({ provider: z.literal('ggl'), code: z.string().min(1).max(200) }),
  /**
   * 'Store link': an app-store account id, for purchases (not a sign-in). Proven by `purchase`, one the
   * store verifies whose account id is `accountId` (Google Play's obfuscatedExternalAccountId), or by the
   * payment service's X-Server-Key header.
   */
  z.object({
    provider: z.literal('store'),
    store: z.enum(['google', 'apple', 'facebook']),
    accountId: z.string().min(1).max(200),
    purchase: z
      .object({
        appId: z.string().min(1).max(200),
        productId: z.string().min(1).max(200),
        purchaseToken: z.string().min(1).max(4000),
      })
      .optional(),
  }),
]);
export type LinkBody = z.input<typeof linkBodySchema>;

/** The token endpoint of native clients (docs/product.md#calls-other-clients-rely-on). */
export const tokenBodySchema = z.object({
  app_id: z.string().min(1).max(50),
  platform: z.string().min(1).max(50),
  identity_provider: z.string().min(1).max(50),
  platform_player_id: z.string().max(254).default(''),
  payload: z.string().max(8000).default(''),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type TokenBody = z.input<typeof tokenBodySchema>;
