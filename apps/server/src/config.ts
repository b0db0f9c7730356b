import { z } from 'zod';
import { accountSettings } from './config-accounts.js';
import { aiSettings } from './config-ai.js';
import { limitSettings } from './config-limits.js';
import { paymentSettings } from './config-payments.js';
import { roomSettings } from './config-rooms.js';
import { serviceSettings } from './config-service.js';

/*
 * Configuration is read once, here, from the environment; everything else receives the typed result.
 * The settings are declared by what they are about in the config-*.ts files beside this one; the rules
 * that tie settings of different kinds together are here. Every variable is listed in
 * docs/configuration.md; keep the two in step.
 */

export const configSchema = z
  .object({
    ...serviceSettings,
    ...accountSettings,
    ...paymentSettings,
    ...aiSettings,
    ...roomSettings,
    ...limitSettings,
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
