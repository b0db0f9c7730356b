import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { ApiPath } from '@xtalk/protocol';
import type { Config } from '../config.js';

/** The path Telegram's web client frames as the Mini App; every other page refuses to be framed. */
export const TELEGRAM_MINI_APP_PATH = '/translate';
/** Where Telegram's web client runs (its apps open a Mini App in a web view, not a frame). */
export const TELEGRAM_WEB_ORIGIN = 'https://web.telegram.org';
/** The Login Widget: its script comes from telegram.org and frames its button from oauth.telegram.org. */
export const TELEGRAM_WIDGET_SCRIPT_ORIGIN = 'https://telegram.org';
export const TELEGRAM_WIDGET_FRAME_ORIGIN = 'https://oauth.telegram.org';
const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';

const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

type Directives = Record<string, Iterable<string | ((req: IncomingMessage) => string)>>;

/**
 * What the web app loads, and nothing else: its own scripts (inline ones only by the hashes the web build
 * wrote for its pages, `inlineScripts`: decision 0263), WebAssembly for the Opus
 * encoder, workers and worklets from its own files (the service worker, ALTCHA's solver, the encoder)
 * or blobs, audio played from blob: and data: addresses, sockets to the nodes PUBLIC_WS_ENDPOINTS lists,
 * and the third parties a configuration turns on (Turnstile, Telegram's widget). Styles may be inline: React and the bot-check widget set them, and a
 * style cannot run code.
 */
export function policyDirectives(config: Config, inlineScripts: readonly string[] = []): Directives {
  const https = config.PUBLIC_URL.startsWith('https:');
  const turnstile = config.TURNSTILE_SITE_KEY && config.TURNSTILE_SECRET_KEY ? [TURNSTILE_ORIGIN] : [];
  const telegram = config.TELEGRAM_BOT_TOKEN !== undefined;
  // the page offers the Login Widget only when the bot's name is configured too, so only then does the
  // policy admit it; each origin only where the widget needs it
  const widget = telegram && config.TELEGRAM_BOT_NAME !== undefined;
  const frames = [...turnstile, ...(widget ? [TELEGRAM_WIDGET_FRAME_ORIGIN] : [])];
  return {
    'default-src': ["'self'"],
    'script-src': [
      "'self'",
      "'wasm-unsafe-eval'",
      ...inlineScripts,
      ...turnstile,
      ...(widget ? [TELEGRAM_WIDGET_SCRIPT_ORIGIN] : []),
    ],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'media-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': [
      "'self'",
      ...config.PUBLIC_WS_ENDPOINTS.flatMap((origin) => [origin, readinessOf(origin)]),
    ],
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    'frame-src': frames.length > 0 ? frames : ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': [(req) => frameAncestorsOf(req.url ?? '/', telegram)],
    // over plain HTTP (a local run) there is nothing to upgrade to
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/**
 * A listed node's readiness, which the page reads before it moves back to its room's home (decision 0237).
 * Named on its own: Chromium does not let a ws: source admit the same host's http: fetch.
 */
function readinessOf(origin: string): string {
  return `${origin.replace(/^ws/, 'http')}${ApiPath.healthReady}`;
}

function frameAncestorsOf(url: string, telegram: boolean): string {
  const path = url.split('?')[0];
  return telegram && path === TELEGRAM_MINI_APP_PATH ? TELEGRAM_WEB_ORIGIN : "'none'";
}

/**
 * Security headers on every response (helmet). `frame-ancestors` is what forbids framing: every browser
 * that runs the app honours it, and unlike X-Frame-Options it can let Telegram frame the Mini App path,
 * so the legacy header is not sent. HSTS only when the public address is https: over plain HTTP it would
 * be ignored, and a local run must not pin a host to TLS.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: Config,
  inlineScripts: readonly string[] = [],
): Promise<void> {
  const https = config.PUBLIC_URL.startsWith('https:');
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: policyDirectives(config, inlineScripts) },
    // the Stripe checkout and Telegram's login open in windows of their own and may talk back
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false } : false,
    xFrameOptions: false,
  });
}
