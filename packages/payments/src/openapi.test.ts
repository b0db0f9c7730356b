import { Validator } from '@seriousme/openapi-schema-validator';
import type { RouteOptions } from 'fastify';
import { ApiPath, ApiTag, PaymentPath, ServerPath } from '@xtalk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentServer, type TestService } from './testing/payment-server.js';

/* The standalone service serves the OpenAPI document of its own routes, valid, and nothing else's. */

describe("the standalone payment service's OpenAPI document", () => {
  let service: TestService;
  let document: { openapi: string; paths: Record<string, Record<string, { tags: string[] }>> };
  beforeAll(async () => {
    service = await startPaymentServer();
    const response = await service.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json();
  });
  afterAll(() => service.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('holds the payment and wallet calls, each under Payments or Credits', () => {
    for (const path of [
      PaymentPath.verify,
      ServerPath.walletAdd,
      ServerPath.txnCreate,
      ApiPath.walletBalance,
    ]) {
      expect(Object.keys(document.paths)).toContain(path);
    }
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations)) {
        expect([ApiTag.payments, ApiTag.credits]).toContain(operation.tags[0]);
      }
    }
    // the examples are the standalone's too
    expect(JSON.stringify(document.paths[PaymentPath.verify])).toContain('"example":');
    // the TEST MODE checkout pages are for a browser
    expect(Object.keys(document.paths).some((path) => path.includes('test-checkout'))).toBe(false);
  });

  it('lists every route the service registered that is not a page', async () => {
    const routes: RouteOptions[] = [];
    // a second build with a hook that sees its routes as they are added
    const { buildPaymentService, loadStandaloneSettings } = await import('./standalone/index.js');
    const settings = loadStandaloneSettings({ NODE_ENV: 'test', AUTH_SECRET: 'x'.repeat(40) });
    const other = await buildPaymentService(settings, {
      logger: false,
      onRoute: (route) => routes.push(route),
    });
    const registered = routes
      .filter((route) => route.schema?.hide !== true)
      .flatMap((route) => [route.method].flat().map((method) => `${method.toLowerCase()} ${route.url}`))
      .filter((entry) => !entry.startsWith('head '));
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual(registered.sort());
    await other.close();
  });
});
