import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http-errors.js';
import { createMetrics, type Metrics } from './registry.js';

/*
 * GET /metrics (Prometheus text exposition, from prom-client) and the HTTP request histogram. With a
 * token, a scraper must send it as a bearer token; without one, only a scraper on this machine is
 * answered, and everyone else sees no such page (docs/decisions/0142-metrics.md).
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics: what modules report into, and the registry /metrics reads; unset when off. */
    xtalkMetrics: Metrics | undefined;
  }
}

export const METRICS_PATH = '/metrics';

export interface MetricsPluginOptions {
  /** METRICS_ENABLED: off, the app keeps no metrics and serves no /metrics. */
  enabled: boolean;
  /** METRICS_TOKEN; undefined: loopback scrapers only. */
  token: string | undefined;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * A request from this machine, directly: both the peer and the client address (after TRUST_PROXY_HOPS)
 * are loopback and no proxy forwarded it (a proxy on this machine would make every visitor loopback).
 */
function fromLoopback(request: FastifyRequest): boolean {
  const headers = request.headers;
  if (headers['x-forwarded-for'] !== undefined || headers.forwarded !== undefined) return false;
  return LOOPBACK.test(request.socket.remoteAddress ?? '') && LOOPBACK.test(request.ip);
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Throws the answer a scraper gets when it may not read the metrics. */
function checkAccess(request: FastifyRequest, token: string | undefined): void {
  if (token === undefined) {
    if (!fromLoopback(request)) throw new HttpError(404, 'Not found.');
    return;
  }
  const header = request.headers.authorization;
  if (!header) throw new HttpError(401, 'The metrics need a bearer token.');
  const [scheme, given] = header.split(' ', 2);
  if (scheme?.toLowerCase() !== 'bearer' || !given || !sameSecret(given, token))
    throw new HttpError(403, 'That token does not open the metrics.');
}

const metricsRoutes: FastifyPluginAsync<{ metrics: Metrics; token: string | undefined }> = async (
  app,
  { metrics, token },
) => {
  // Prometheus's scrape, not a call for a client: left out of the published document
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    checkAccess(request, token);
    const text = await metrics.text();
    return reply.type(metrics.contentType).header('cache-control', 'no-store').send(text);
  });
};

/**
 * Decorates the app with its metrics, times every HTTP request by its route pattern (unmatched ones as
 * one label, so a scanner's paths never become series) and adds GET /metrics. Turned off, it decorates
 * nothing: modules handed no report call nothing, no hook or collector is added, and /metrics is a 404.
 */
export const metricsPlugin = fp<MetricsPluginOptions>(
  async (app, { enabled, token }) => {
    if (!enabled) {
      app.decorate('xtalkMetrics', undefined);
      // answered here, or the web app's fallback would answer a scraper with the page
      app.get(METRICS_PATH, { schema: { hide: true } }, async () => {
        throw new HttpError(404, 'Not found.');
      });
      return;
    }
    const metrics = createMetrics();
    app.decorate('xtalkMetrics', metrics);
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      metrics.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    });
    await app.register(metricsRoutes, { metrics, token });
  },
  { name: 'xtalk-metrics' },
);
