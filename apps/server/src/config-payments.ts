import { DEFAULT_DAILY_FREE_CREDITS } from '@xtalk/protocol';
import { z } from 'zod';
import { optionalString } from './config-values.js';

/** Credits and what sells them: the payment service's keys, store verification, Stripe, the TEST MODE checkout. */
export const paymentSettings = {
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
};
