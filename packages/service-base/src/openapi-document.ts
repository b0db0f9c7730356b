import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { API_SECURITY_SCHEMES, API_TAGS, type ApiTagName } from '@xtalk/protocol';

/*
 * The OpenAPI 3.1 document of a Fastify app, written from its routes' zod schemas (decision 0224): it
 * cannot drift from the code because it is read from the code. A route with `hide: true` in its schema
 * (a page for a browser, Stripe's webhook, the metrics scrape) is left out.
 */

/** Where every XTalk service publishes its document. */
export const OPENAPI_PATH = '/api/openapi.json';

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
  /** The public address clients call (PUBLIC_URL). */
  serverUrl: string;
  /** The areas this app serves, in the order the reference page lists them. */
  tags: readonly ApiTagName[];
}

/**
 * Collects the routes registered after it (call before any) and serves the document at OPENAPI_PATH.
 * Fastify builds the document once, on the first request.
 */
export async function registerOpenApi(app: FastifyInstance, info: OpenApiInfo): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: info.title, version: info.version, description: info.description },
      servers: [{ url: info.serverUrl }],
      tags: API_TAGS.filter((tag) => info.tags.includes(tag.name)),
      components: { securitySchemes: structuredClone(API_SECURITY_SCHEMES) },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return app.swagger();
  });
}
