import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ApiTag, asyncApiDocument, PRODUCT_NAME, PROTOCOL_VERSION } from '@xtalk/protocol';
import { registerOpenApi } from '@xtalk/service-base';
import type { Config } from '../config.js';
import { API_EXAMPLES } from './api-examples/index.js';

/*
 * What a client's developer reaches for first (decision 0224): the OpenAPI 3.1 document of every HTTP
 * route, the AsyncAPI 3 document of the room socket, and a reference page that reads the first. The page
 * is Swagger UI from its npm package, served from this origin under the app's own policy; the web app
 * never loads it.
 */

export const ASYNCAPI_PATH = '/api/asyncapi.json';
export const API_DOCS_PATH = '/api/docs';

const DESCRIPTION = [
  `The HTTP API of ${PRODUCT_NAME}: guests and rooms, accounts, the player service, credits, payments and glossaries.`,
  'Every refusal answers `{ statusCode, error, message, code }`: `code` is a stable word a client can act on, `message` English for logs.',
  `The room socket is described in AsyncAPI at ${ASYNCAPI_PATH}.`,
].join('\n\n');

/** Registers the documents and the page; call before any route, so the document sees them all. */
export async function registerApiDocs(app: FastifyInstance, config: Config): Promise<void> {
  await registerOpenApi(app, {
    title: `${PRODUCT_NAME} API`,
    version: `1.${PROTOCOL_VERSION}.0`,
    description: DESCRIPTION,
    serverUrl: config.PUBLIC_URL,
    tags: Object.values(ApiTag),
    examples: API_EXAMPLES,
  });
  // written on the first request, as the OpenAPI document is: a node that is never asked starts without it
  let asyncApi: ReturnType<typeof asyncApiDocument> | undefined;
  app.get(ASYNCAPI_PATH, { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    asyncApi ??= asyncApiDocument(config.PUBLIC_URL);
    return asyncApi;
  });
  await app.register(swaggerUi, {
    routePrefix: API_DOCS_PATH,
    // no badge from the validator's site: the page calls nothing but this origin
    validatorUrl: false,
    uiConfig: { deepLinking: true, tryItOutEnabled: false },
    theme: { title: `${PRODUCT_NAME} API` },
  });
}
