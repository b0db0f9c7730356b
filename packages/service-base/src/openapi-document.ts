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
  /** What the reference page shows a caller, by operation (decision 0244). */
  examples?: ApiExamples;
}

/**
 * One example request body and one example answer per success status, for each operation named
 * `METHOD /path` as the route registers it (`GET /api/player/:id`). They are data beside the routes, not
 * in the schemas the web app shares: the document gives each its route's schema with the example as
 * `examples`, and a test parses every one with that schema, so an example cannot drift from its route.
 */
export type ApiExamples = Readonly<
  Record<string, { readonly body?: unknown } & Readonly<Record<number, unknown>>>
>;

/** A part of a route as the document has it: a JSON schema, which @fastify/swagger reads `examples` from. */
type JsonPart = { examples?: unknown[] } | undefined;

/**
 * The route's schemas as the document shows them, each part its operation has an example for with it.
 * The example goes on the written JSON schema, not through zod's metadata: zod leaves examples out of a
 * request schema that transforms (a trimmed email), where a client needs them most.
 */
function exampled(examples: ApiExamples): typeof jsonSchemaTransform {
  return (input) => {
    const methods = [input.route.method].flat().filter((method) => method !== 'HEAD');
    const own = examples[`${methods[0]} ${input.url}`];
    const output = jsonSchemaTransform(input);
    if (!own) return output;
    const schema = output.schema as { body?: JsonPart; response?: Record<string, JsonPart> };
    const withExample = (part: JsonPart, example: unknown) =>
      part && example !== undefined ? { ...part, examples: [example] } : part;
    return {
      ...output,
      schema: {
        ...schema,
        body: withExample(schema.body, own.body),
        response: Object.fromEntries(
          Object.entries(schema.response ?? {}).map(([status, part]) => [
            status,
            withExample(part, own[Number(status)]),
          ]),
        ),
      },
    } as typeof output;
  };
}

export async function registerOpenApi(app: FastifyInstance, info: OpenApiInfo): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: info.title, version: info.version, description: info.description },
      servers: [{ url: info.serverUrl }],
      tags: API_TAGS.filter((tag) => info.tags.includes(tag.name)),
      components: { securitySchemes: structuredClone(API_SECURITY_SCHEMES) },
    },
    transform: exampled(info.examples ?? {}),
    transformObject: jsonSchemaTransformObject,
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return app.swagger();
  });
}
