import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { registerApiDocs } from './api-docs.js';
import { registerBodyGuard } from './body-guard.js';
import { registerErrorHandler } from './error-handler.js';
import { registerRateLimits } from './rate-limits.js';
import { registerRequestLog } from './request-log.js';
import { registerSecurityHeaders } from './security-headers.js';

/*
 * What every HTTP answer goes through: error bodies, the body guard, security headers, its log line, rate
 * limits; and the documents that describe every route registered after them.
 */

export const httpPlugin = fp<{ config: Config; inlineScripts?: readonly string[] }>(
  async (app, { config, inlineScripts }) => {
    registerErrorHandler(app);
    registerBodyGuard(app);
    registerRequestLog(app);
    await registerSecurityHeaders(app, config, inlineScripts);
    await registerApiDocs(app, config);
  },
  { name: 'xtalk-http' },
);

/**
 * The rate limits, registered before any route they cover: each route gets its limit when it is added.
 * A bearer token's user is read through the auth plugin's tokens when a request comes, so the limits can
 * be in place before auth adds its routes.
 */
export const rateLimitsPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    await registerRateLimits(app, {
      config,
      tokens: { verify: (token) => app.xtalkAuth.tokens.verify(token) },
      redis: app.xtalkRedis,
      redisOutage: app.xtalkRedisOutage,
    });
  },
  { name: 'xtalk-rate-limits', dependencies: ['xtalk-bus'] },
);
