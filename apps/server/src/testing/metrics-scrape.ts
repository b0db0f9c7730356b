import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { parsePrometheusText, type Family } from './prometheus-text.js';

/** One GET /metrics through inject, in the text format's content type, parsed strictly. */
export async function scrape(app: FastifyInstance): Promise<Map<string, Family>> {
  const reply = await app.inject({ url: '/metrics' });
  expect(reply.statusCode).toBe(200);
  expect(reply.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(reply.body);
}

/** Scrapes until `ready` holds: what a test waits for (a close, a translation, its failure) ends in the background. */
export async function scrapeUntil(
  app: FastifyInstance,
  ready: (families: Map<string, Family>) => boolean,
): Promise<Map<string, Family>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const families = await scrape(app);
    if (ready(families) || Date.now() > deadline) return families;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
