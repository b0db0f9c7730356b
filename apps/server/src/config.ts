import { z } from 'zod';
import {
  CLIENT_ID_REQUIRED_PROTOCOL_VERSION,
  DEFAULT_DAILY_FREE_CREDITS,
  DEFAULT_SESSION_TTL_SECONDS,
  MIN_PROTOCOL_VERSION,
  PROTOCOL_VERSION,
  languageSchema,
} from '@xtalk/protocol';

/*
 * Configuration is read once, here, from the environment; everything else receives the typed result.
 * Every variable is listed in README's configuration table; keep the two in step.
 */

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const csv = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  );

export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    HOST: z.string().default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65_535).default(8787),
    /**
     * The address people open: the one base of every absolute URL the server writes (mailed links, the
     * SIWE domain, OAuth redirects, checkout addresses), and the origin that may open the WebSocket.
     * Required in production; elsewhere http://localhost:PORT. Never taken from a request's Host.
     */
    PUBLIC_URL: optionalString.refine((value) => value === undefined || /^https?:\/\/[^/?#\s]+/.test(value), {
      message: 'PUBLIC_URL must be an http:// or https:// address.',
    }),
    /** Extra browser origins allowed to open the WebSocket, comma-separated. */
    ALLOWED_ORIGINS: csv,
    /** The nodes' own ws(s):// addresses the web client opens its socket on, in turn (empty: the page's). */
    PUBLIC_WS_ENDPOINTS: csv.pipe(
      z.array(z.string().regex(/^wss?:\/\/[^/?#\s]+$/, 'each must be a ws:// or wss:// address, no path')),
    ),
    ROOM_PEOPLE_PER_NODE: z.coerce.number().int().min(1).default(1000), // a hot room's share of a node (0250)
    DATA_DIR: z.string().default('./data'),
    /** Unset: embedded PGlite in DATA_DIR/db. */
    DATABASE_URL: optionalString,
    /** Unset: fan-out and presence stay in this process (one node). */
    REDIS_URL: optionalString,
    /** The longest a Redis command on a request's path waits before the node goes on without Redis (ms). */
    REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(500),
    /** Unset: generated once and kept in DATA_DIR/auth-secret. */
    AUTH_SECRET: optionalString,
    SESSION_TTL_SECONDS: z.coerce.number().int().positive().default(DEFAULT_SESSION_TTL_SECONDS),
    /** Languages every message is translated into. */
    LANGUAGES: z
      .string()
      .default('en,ja')
      .transform((value) =>
        value
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      )
      .pipe(z.array(languageSchema).min(1)),
    /** How long after sending its author may correct a message (seconds); 0 turns corrections off. */
    EDIT_WINDOW_SECONDS: z.coerce
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3600)
      .default(600),
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
    /** Bearer token of GET /metrics. Unset: /metrics answers loopback requests only. */
    METRICS_TOKEN: optionalString.refine((value) => value === undefined || value.length >= 16, {
      message: 'METRICS_TOKEN must be at least 16 characters.',
    }),
    /** Private key of the payment service's server calls (header X-Server-Key). Unset: those calls are off. */
    PAYMENT_SERVER_KEY: optionalString.refine((value) => value === undefined || value.length >= 16, {
      message: 'PAYMENT_SERVER_KEY must be at least 16 characters.',
    }),
    /** Google Play purchase verification: a service-account key file's JSON, or a path to it. */
    GOOGLE_PLAY_SERVICE_ACCOUNT: optionalString,
    /** Base URL of the Google Play Developer API (tests point it at a server of their own). */
    GOOGLE_PLAY_API_URL: z.string().url().default('https://androidpublisher.googleapis.com/'),
    /** Facebook purchase verification: the app secret that signs `signed_request`. */
    FACEBOOK_APP_SECRET: optionalString,
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
    TURNSTILE_VERIFY_URL: z
      .string()
      .url()
      .default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
    /** ALTCHA proof-of-work cost; lower in tests so browsers solve fast. */
    ALTCHA_COST: z.coerce.number().int().positive().default(50_000),
    AI_PROVIDER: z.enum(['auto', 'openai', 'local', 'fake']).default('auto'),
    OPENAI_API_KEY: optionalString,
    OPENAI_BASE_URL: optionalString,
    OPENAI_TRANSLATION_MODEL: z.string().default('gpt-4o-mini'),
    OPENAI_TTS_MODEL: z.string().default('gpt-4o-mini-tts'),
    OPENAI_TTS_VOICE: z.string().default('alloy'),
    OPENAI_TRANSCRIPTION_MODEL: z.string().default('gpt-4o-mini-transcribe'),
    /** Per-call timeout of an AI engine call (ms). */
    AI_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
    /** Messages translated at once by this process. */
    AI_CONCURRENCY: z.coerce.number().int().positive().default(8),
    /** The fake provider's delay per streamed chunk (tests and the benchmark). */
    FAKE_AI_CHUNK_DELAY_MS: z.coerce.number().int().min(0).default(0),
    /** The fake provider's transcript of a clip without a marker (e2e: what the fake microphone says). */
    FAKE_AI_TRANSCRIPT: optionalString,
    /** The fake provider's delay of each streamed transcription delta (ms). */
    FAKE_AI_DELTA_MS: z.coerce.number().int().min(0).default(0),
    /** The languages the fake provider has no voice for, comma-separated (e2e: the browser's voice). */
    FAKE_AI_NO_VOICE: csv,
    /** Streamed voice clips are transcribed while spoken ('on'), or only when they end ('off': clip mode). */
    VOICE_STREAMING: z.enum(['on', 'off']).default('on'),
    /** Free credits a signed-in account is topped up to every day at 00:00 Asia/Tokyo. */
    CREDITS_DAILY_FREE: z.coerce.number().int().min(0).default(DEFAULT_DAILY_FREE_CREDITS),
    /** The same for each guest: AI use of guests is bounded too (they are told to sign in for more). */
    CREDITS_GUEST_DAILY: z.coerce.number().int().min(0).default(300),
    /** Unset (with STRIPE_WEBHOOK_SECRET): no payment provider; see TEST_CHECKOUT. */
    STRIPE_SECRET_KEY: optionalString,
    /** The signing secret of the webhook endpoint POST /api/payments/stripe/webhook. */
    STRIPE_WEBHOOK_SECRET: optionalString,
    /** The API base the Stripe SDK talks to (tests and operators can point it elsewhere). */
    STRIPE_API_URL: z.string().url().default('https://api.stripe.com'),
    /**
     * Without Stripe, whether purchases go through the built-in TEST MODE checkout, whose Pay credits
     * without money. Unset: on outside production, off in production (purchases are then unavailable).
     */
    TEST_CHECKOUT: z.enum(['on', 'off']).optional(),
    /** Where local model weights live; default DATA_DIR/models. */
    MODELS_DIR: optionalString,
    /** The embedded engine's models (docs/models.md); unset: the commercially usable defaults. */
    LOCAL_TRANSLATION_MODEL: optionalString,
    LOCAL_TRANSCRIPTION_MODEL: optionalString,
    /** The hint model; `none`: no hints. */
    LOCAL_HINT_MODEL: optionalString,
    /** Server voices by language, `en=Xenova/mms-tts-eng,fr=...`; unset: none (the browser speaks). */
    LOCAL_SPEECH_MODELS: csv.pipe(
      z.array(z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]+)*=\S+$/, 'each must be language=model')),
    ),
    /** Hints on the embedded engine: `auto` (on a machine with 4 cores and 8 GB), `on` or `off`. */
    LOCAL_HINTS: z.enum(['auto', 'on', 'off']).default('auto'),
    /**
     * How far behind (in room offsets: messages and later changes) a reconnecting client is replayed
     * exactly what it missed; further behind it is told RESYNC and gets the recent window.
     */
    RESUME_MAX_EVENTS: z.coerce.number().int().positive().max(100_000).default(1000),
    /** The oldest protocol version served; a setUsername without protocolVersion counts as version 1. */
    MIN_PROTOCOL_VERSION: z.coerce.number().int().min(1).max(PROTOCOL_VERSION).default(MIN_PROTOCOL_VERSION),
    /**
     * Clients of this protocol version and later must send a clientId with every chat frame (READY says
     * so; one without is refused). From 2 on (the version that brought clientId); above the newest
     * version, no client must.
     */
    CLIENT_ID_REQUIRED_FROM_PROTOCOL: z.coerce
      .number()
      .int()
      .min(2)
      .max(1_000_000)
      .default(CLIENT_ID_REQUIRED_PROTOCOL_VERSION),
    /** How many proxies in front of the server to trust for the client address (X-Forwarded-For hops). */
    TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    // ---- limits (see README "Limits" and docs/decisions/0070-limits-on-every-door.md)
    /** Bot-check challenges per IP per minute. */
    RATE_LIMIT_BOTCHECK_PER_MINUTE: z.coerce.number().int().positive().default(30),
    /** Guest users created per IP per minute (POST /api/auth/guest). */
    GUESTS_PER_MINUTE_PER_IP: z.coerce.number().int().positive().default(10),
    /** Sign-in requests (Google login, callback, code exchange) per IP per minute. */
    RATE_LIMIT_SIGN_IN_PER_MINUTE: z.coerce.number().int().positive().default(20),
    /** Other API requests (rooms, players, profile, history, payments) per user per minute. */
    RATE_LIMIT_API_PER_MINUTE_PER_USER: z.coerce.number().int().positive().default(120),
    /** The same routes per IP per minute (many people may share one address). */
    RATE_LIMIT_API_PER_MINUTE_PER_IP: z.coerce.number().int().positive().default(600),
    /** Room joins (POST /xtalk: a new socket session each) per user per minute. */
    ROOM_JOINS_PER_MINUTE_PER_USER: z.coerce.number().int().positive().default(30),
    /** Room codes asked for that do not exist, per user per minute (guessing codes). */
    ROOM_LOOKUP_MISSES_PER_MINUTE: z.coerce.number().int().positive().default(10),
    /**
     * The same per IP per minute, high enough for the people behind one NAT; at it, only those who missed
     * themselves are refused.
     */
    ROOM_LOOKUP_MISSES_PER_MINUTE_PER_IP: z.coerce.number().int().positive().default(500),
    /** Open WebSockets per IP on one node. */
    MAX_SOCKETS_PER_IP: z.coerce.number().int().positive().default(64),
    /** Open WebSockets per user on one node (one per session; a new one for a session replaces the old). */
    MAX_SOCKETS_PER_USER: z.coerce.number().int().positive().default(4),
    /** Inbound WebSocket frames of any kind (valid or not) per connection per second, and the burst. */
    WS_FRAMES_PER_SECOND: z.coerce.number().positive().default(10),
    WS_FRAME_BURST: z.coerce.number().int().positive().default(30),
    /** Chat frames per connection per second, and the burst. */
    WS_CHAT_PER_SECOND: z.coerce.number().positive().default(2),
    WS_CHAT_BURST: z.coerce.number().int().positive().default(8),
    /** setUsername, setLanguage and updateUsername frames per connection per second, and the burst. */
    WS_CONTROL_PER_SECOND: z.coerce.number().positive().default(1),
    WS_CONTROL_BURST: z.coerce.number().int().positive().default(10),
    /** Invalid frames (bad JSON, failing the schema) per connection per second, and the burst. */
    WS_INVALID_PER_SECOND: z.coerce.number().positive().default(1),
    WS_INVALID_BURST: z.coerce.number().int().positive().default(10),
    /** Refused frames in a row after which the connection is closed (1008) instead of answered. */
    WS_FLOOD_CLOSE_AFTER: z.coerce.number().int().positive().default(100),
    /** Seconds a user closed for flooding may not open a socket again (on that node). */
    WS_FLOOD_COOLDOWN_SECONDS: z.coerce.number().int().min(0).default(60),
    /** Seconds a closed connection stays in the room's presence, so a quick return shows no LEAVE/JOIN. */
    LEAVE_GRACE_SECONDS: z.coerce.number().min(0).max(300).default(5),
    /** Rooms with more people than this are hot: current clients get counts, not every name (decision 0166). */
    HOT_ROOM_ABOVE: z.coerce.number().int().min(1).default(200),
    /** How long a hot room stays quiet before its exact count goes out. */
    HOT_ROOM_SETTLE_MS: z.coerce.number().int().min(10).max(600_000).default(2000),
    /** On SIGTERM, the window over which this node's sockets are closed with 1012 (decision 0144). */
    DRAIN_SECONDS: z.coerce.number().min(0).max(600).default(10),
    /** From SIGTERM, how long translations already paid for may run before they are recorded as failed. */
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(20),
    /** With Redis: seconds after its last heartbeat a node's presence is taken out by the others. */
    NODE_TTL_SECONDS: z.coerce.number().min(1).max(3600).default(15),
    /** Chat messages of one room waiting to be stored on this node before more are refused (busy). */
    ROOM_QUEUE_MAX: z.coerce.number().int().positive().default(64),
    /** Messages stored at once by this node; rooms take turns for these slots. */
    STORE_CONCURRENCY: z.coerce.number().int().positive().default(4),
    /** Guests idle this long (seconds) are removed with their memberships, sessions and data. */
    GUEST_RETENTION_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .default(30 * 24 * 3600),
    /** Messages older than this many days are removed with all that is stored about them; unset: kept. */
    MESSAGE_RETENTION_DAYS: optionalString.pipe(
      z.coerce.number<string | undefined>().int().positive().max(36_500).optional(),
    ),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .refine((c) => Boolean(c.GOOGLE_CLIENT_ID) || !c.GOOGLE_CLIENT_SECRET, {
    message: 'GOOGLE_CLIENT_SECRET is set without GOOGLE_CLIENT_ID.',
    path: ['GOOGLE_CLIENT_ID'],
  })
  .refine((c) => Boolean(c.TELEGRAM_BOT_TOKEN) || !c.TELEGRAM_BOT_NAME, {
    message: 'TELEGRAM_BOT_NAME is set without TELEGRAM_BOT_TOKEN.',
    path: ['TELEGRAM_BOT_TOKEN'],
  })
  .refine((c) => Boolean(c.STRIPE_SECRET_KEY) === Boolean(c.STRIPE_WEBHOOK_SECRET), {
    message: 'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together or not at all.',
    path: ['STRIPE_WEBHOOK_SECRET'],
  })
  .refine((c) => c.GUEST_RETENTION_SECONDS >= c.SESSION_TTL_SECONDS, {
    // a guest whose token may still be valid is not idle
    message: 'GUEST_RETENTION_SECONDS must be at least SESSION_TTL_SECONDS.',
    path: ['GUEST_RETENTION_SECONDS'],
  })
  .refine((c) => Boolean(c.TURNSTILE_SITE_KEY) === Boolean(c.TURNSTILE_SECRET_KEY), {
    message: 'TURNSTILE_SITE_KEY and TURNSTILE_SECRET_KEY are set together or not at all.',
    path: ['TURNSTILE_SECRET_KEY'],
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.PUBLIC_URL !== undefined, {
    // a link built from the request's Host would follow whatever host an attacker's request names
    message:
      'PUBLIC_URL must be set in production (NODE_ENV=production): every link the server writes starts with it.',
    path: ['PUBLIC_URL'],
  })
  .transform(({ PUBLIC_URL, TEST_CHECKOUT, ...rest }) => ({
    ...rest,
    PUBLIC_URL: (PUBLIC_URL ?? `http://localhost:${rest.PORT}`).replace(/\/+$/, ''),
    /** Whether the operator named PUBLIC_URL (not a variable): without it the socket admits the page's origin. */
    publicUrlSet: PUBLIC_URL !== undefined,
    TEST_CHECKOUT: TEST_CHECKOUT ?? (rest.NODE_ENV === 'production' ? 'off' : 'on'),
  }));

export type Config = z.output<typeof configSchema>;

/** Parse the environment (or a test's overrides); throws one readable error listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(config)'}: ${issue.message}`,
    );
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

const SECRET_KEYS = [
  'DATABASE_URL',
  'REDIS_URL',
  'AUTH_SECRET',
  'TURNSTILE_SECRET_KEY',
  'OPENAI_API_KEY',
  'GOOGLE_CLIENT_SECRET',
  'ADMIN_API_KEY',
  'METRICS_TOKEN',
  'PAYMENT_SERVER_KEY',
  'GOOGLE_PLAY_SERVICE_ACCOUNT',
  'FACEBOOK_APP_SECRET',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'SMTP_URL',
  'TELEGRAM_BOT_TOKEN',
] as const;

/** The configuration as printed at start: secrets masked, passwords in URLs hidden. */
export function describeConfig(config: Config): Record<string, unknown> {
  const shown: Record<string, unknown> = { ...config };
  for (const key of SECRET_KEYS) {
    const value = config[key];
    if (value === undefined) continue;
    shown[key] = /^[a-z]+:\/\//i.test(value) ? value.replace(/\/\/([^@/]*)@/, '//***@') : '***';
  }
  return shown;
}
