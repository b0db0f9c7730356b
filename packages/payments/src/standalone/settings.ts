import { z } from 'zod';

/*
 * The standalone service's settings, read once from the environment: the same names XTalk's server
 * reads for the payment service (docs/configuration.md there), plus where to listen and the database.
 */

const optional = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));
const key = (name: string) =>
  optional.refine((value) => value === undefined || value.length >= 16, {
    message: `${name} must be at least 16 characters.`,
  });

export const standaloneSettingsSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8790),
    HOST: z.string().default('0.0.0.0'),
    DATABASE_URL: optional,
    /** PGlite's files go to DATA_DIR/db; unset with no DATABASE_URL: in memory, gone at exit. */
    DATA_DIR: optional,
    AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must be at least 32 characters (the one XTalk signs with).'),
    /** Every checkout and return address starts with it; required in production, never a request's Host. */
    PUBLIC_URL: optional.pipe(z.string().url().optional()),
    PAYMENT_SERVER_KEY: key('PAYMENT_SERVER_KEY'),
    ADMIN_API_KEY: key('ADMIN_API_KEY'),
    STRIPE_SECRET_KEY: optional,
    STRIPE_WEBHOOK_SECRET: optional,
    STRIPE_API_URL: z.string().url().default('https://api.stripe.com'),
    /** Without Stripe, the TEST MODE checkout (Pay credits without money); unset: on outside production. */
    TEST_CHECKOUT: z.enum(['on', 'off']).optional(),
    GOOGLE_PLAY_SERVICE_ACCOUNT: optional,
    GOOGLE_PLAY_API_URL: z.string().url().default('https://androidpublisher.googleapis.com/'),
    FACEBOOK_APP_SECRET: optional,
    OPENING_FREE_CREDITS: z.coerce.number().int().min(0).default(0),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .refine((s) => Boolean(s.STRIPE_SECRET_KEY) === Boolean(s.STRIPE_WEBHOOK_SECRET), {
    message: 'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together or not at all.',
    path: ['STRIPE_WEBHOOK_SECRET'],
  })
  .refine((s) => s.NODE_ENV !== 'production' || s.PUBLIC_URL !== undefined, {
    message:
      'PUBLIC_URL must be set in production (NODE_ENV=production): every checkout address starts with it.',
    path: ['PUBLIC_URL'],
  })
  .transform((s) => ({
    ...s,
    PUBLIC_URL: s.PUBLIC_URL ?? `http://localhost:${s.PORT}`,
    TEST_CHECKOUT: s.TEST_CHECKOUT ?? (s.NODE_ENV === 'production' ? 'off' : 'on'),
  }));

export type StandaloneSettings = z.output<typeof standaloneSettingsSchema>;

/** The settings, or an error naming every one that is wrong. */
export function loadStandaloneSettings(env: Record<string, string | undefined>): StandaloneSettings {
  const result = standaloneSettingsSchema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new Error(`Invalid payment service settings:\n  ${problems.join('\n  ')}`);
}
