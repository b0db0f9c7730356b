import { DEFAULT_SESSION_TTL_SECONDS } from '@xtalk/protocol';
import { z } from 'zod';
import { optionalString } from './config-values.js';

/** Who may enter and how: sessions, sign-in providers, account mails, bot checks, guests' lifetime. */
export const accountSettings = {
  /** Unset: generated once and kept in DATA_DIR/auth-secret. */
  AUTH_SECRET: optionalString,
  SESSION_TTL_SECONDS: z.coerce.number().int().positive().default(DEFAULT_SESSION_TTL_SECONDS),
  /** OpenID Connect issuer of the "Sign in with Google" button; any OIDC provider works. */
  OIDC_ISSUER: z.string().url().default('https://accounts.google.com'),
  /** Unset: sign-in is off and the web app says so; guests still enter. */
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  /** How long the one-time code of /auth/{code} may be exchanged (seconds). */
  AUTH_CODE_TTL_SECONDS: z.coerce.number().int().positive().max(600).default(60),
  /** Unset: no admin access to the player API. */
  ADMIN_API_KEY: optionalString.refine((value) => value === undefined || value.length >= 16, {
    message: 'ADMIN_API_KEY must be at least 16 characters.',
  }),
  /** Where account mails go (smtp://user:pass@host:587); unset: they are written to the server log. */
  SMTP_URL: optionalString.refine((value) => value === undefined || /^smtps?:\/\//.test(value), {
    message: 'SMTP_URL must start with smtp:// or smtps://.',
  }),
  /**
   * Without SMTP_URL, whether a mail's text (its sign-in link) is written to the log: on only where the
   * operator reads that log alone (a developer's machine), since the link signs its reader in.
   */
  MAIL_TO_LOG: z.enum(['on', 'off']).default('off'),
  /** The From of account mails. */
  MAIL_FROM: z.string().default('XTalk <no-reply@xtalk.invalid>'),
  /** Turns on Telegram sign-in (Login Widget tgw, Mini App tga) checked with this bot's token. */
  TELEGRAM_BOT_TOKEN: optionalString,
  /**
   * The bot's username (without @), which the web app's Login Widget and Mini App sign-in name; with
   * TELEGRAM_BOT_TOKEN it puts "Sign in with Telegram" on the sign-in page.
   */
  TELEGRAM_BOT_NAME: optionalString
    .transform((value) => value?.replace(/^@/, ''))
    .refine((value) => value === undefined || /^[A-Za-z][A-Za-z0-9_]{4,31}$/.test(value), {
      message: 'TELEGRAM_BOT_NAME must be a bot username: 5-32 letters, digits or underscores.',
    }),
  /** The EIP-155 chain id the Sign-In with Ethereum messages of the web app name (1: Ethereum mainnet). */
  WALLET_CHAIN_ID: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).default(1),
  TURNSTILE_SITE_KEY: optionalString,
  TURNSTILE_SECRET_KEY: optionalString,
  /** Turnstile's siteverify endpoint (tests point it at a server of their own). */
  TURNSTILE_VERIFY_URL: z.string().url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  /** ALTCHA proof-of-work cost; lower in tests so browsers solve fast. */
  ALTCHA_COST: z.coerce.number().int().positive().default(50_000),
  /** Guests idle this long (seconds) are removed with their memberships, sessions and data. */
  GUEST_RETENTION_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 24 * 3600),
};
