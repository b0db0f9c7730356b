import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { useDocumentedServer } from '../testing/api-document.js';
import { API_DOCS_PATH, ASYNCAPI_PATH } from './api-docs.js';

/*
 * The published OpenAPI document against the route table Fastify really has: a route added without a
 * schema, or left out of the document, fails here. The document is checked by a real OpenAPI validator.
 */

/** Routes left out on purpose: pages and files for a browser, the metrics scrape, Stripe's webhook. */
const HIDDEN = [
  /^\/metrics$/,
  /^\/api\/openapi\.json$/,
  new RegExp(`^${ASYNCAPI_PATH.replace('.', '\\.')}$`),
  new RegExp(`^${API_DOCS_PATH}(/|$)`),
  /^\/api\/payments\/stripe\/webhook$/,
  /^\/api\/payments\/test-checkout\//,
  // the operator's copy of the embedded database, like /metrics not an API for programs
  /^\/api\/admin\/backup$/,
  // the web app's files and pages
  /^\/\*$/,
  /^\/$/,
];

interface Document {
  openapi: string;
  paths: Record<string, Record<string, { tags?: string[]; responses: Record<string, unknown> }>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options'];

describe('the OpenAPI document', () => {
  const served = useDocumentedServer<Document>();

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(served.document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(served.document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('holds every route Fastify registered, with its methods, and nothing else', () => {
    const registered = new Set<string>();
    for (const route of served.routes) {
      const methods = [route.method].flat().map((method) => method.toLowerCase());
      const url = route.url;
      if (HIDDEN.some((pattern) => pattern.test(url))) continue;
      // Fastify answers HEAD for every GET by itself; the document lists the GET
      for (const method of methods) if (method !== 'head') registered.add(`${method} ${url}`);
    }
    const documented = new Set<string>();
    for (const [path, operations] of Object.entries(served.document.paths)) {
      const url = path.replace(/\{(\w+)\}/g, ':$1');
      for (const method of Object.keys(operations)) {
        if (METHODS.includes(method)) documented.add(`${method} ${url}`);
      }
    }
    expect(documented.size).toBeGreaterThan(60);
    expect([...documented].sort()).toEqual([...registered].sort());
  });

  it('files every operation under one of its tags and answers each refusal in the error shape', () => {
    const tags = new Set(
      (served.document as unknown as { tags: { name: string }[] }).tags.map((tag) => tag.name),
    );
    for (const [path, operations] of Object.entries(served.document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.tags?.length, `${method} ${path}`).toBe(1);
        expect(tags.has(operation.tags![0]!), `${method} ${path}`).toBe(true);
        const statuses = Object.keys(operation.responses);
        expect(statuses.some((status) => status.startsWith('2') || status.startsWith('3'))).toBe(true);
      }
    }
  });

  it('names the three ways a caller proves who it is', () => {
    const schemes = (served.document as unknown as { components: { securitySchemes: object } }).components
      .securitySchemes;
    expect(Object.keys(schemes).sort()).toEqual(['adminKey', 'bearerSession', 'serverKey']);
  });

  it('serves the AsyncAPI document of the room socket, versioned by the protocol', async () => {
    const response = await served.server.app.inject({ method: 'GET', url: ASYNCAPI_PATH });
    expect(response.statusCode).toBe(200);
    const asyncApi = response.json();
    expect(asyncApi.asyncapi).toBe('3.0.0');
    expect(Number(asyncApi.info.version)).toBeGreaterThan(0);
    expect(Object.keys(asyncApi.components.messages)).toContain('client.setUsername');
    expect(Object.keys(asyncApi.components.messages)).toContain('server.message');
  });
});
