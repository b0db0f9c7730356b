import fp from 'fastify-plugin';
import { defaultWebRoot, webRoutes } from './static.js';

/*
 * The built web app, served by the same server as the API. It reads no other module and adds no decorator:
 * it registers the static files and the answer to every path no route has (a page, or the API's JSON 404),
 * so it comes after the modules whose routes it must not shadow.
 */

export const webPlugin = fp<{ root?: string | undefined }>(
  async (app, { root }) => webRoutes(app, { root: root ?? defaultWebRoot }),
  { name: 'xtalk-web' },
);
