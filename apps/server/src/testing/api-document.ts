import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { startServer, type TestServer } from './harness.js';

/*
 * What the tests of the published OpenAPI document read: a server with every route there is (Stripe
 * configured, so its webhook is registered too), the routes Fastify registered, and the served document.
 */

export interface DocumentedServer<Document> {
  server: TestServer;
  routes: RouteOptions[];
  document: Document;
}

/** Started before the file's tests, closed after them. */
export function useDocumentedServer<Document>(): DocumentedServer<Document> {
  const served = { routes: [] } as unknown as DocumentedServer<Document>;
  beforeAll(async () => {
    served.server = await startServer(
      { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' },
      { onRoute: (route) => served.routes.push(route) },
    );
    const response = await served.server.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    served.document = response.json();
  }, 60_000);
  afterAll(() => served.server.close());
  return served;
}
