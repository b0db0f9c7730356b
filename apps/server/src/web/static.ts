import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const here = dirname(fileURLToPath(import.meta.url));
/** apps/web/dist, found from this file whether it runs from src/web/ (tests, dev) or the dist/ bundle (start). */
export const defaultWebRoot =
  [resolve(here, '../../web/dist'), resolve(here, '../../../web/dist')].find((dir) => existsSync(dir)) ??
  resolve(here, '../../../web/dist');

const API_PREFIXES = ['/api/', '/xtalk', '/auth/google/'];

const htmlIn = (dir: string) =>
  new Set(existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith('.html')) : []);

/**
 * The page for a path: the build writes `routes/<path>.html` for the paths whose screen it preloads
 * (apps/web/build/route-preload.ts: index.html with that screen's chunks as modulepreload links), and
 * every other path gets index.html. A reader whose language's words are a chunk of their own gets the
 * build's copy of that page under `lang/<language>/`, which preloads the words too (decision 0241); the
 * language is only ever one the build wrote pages for, never text from the request.
 */
function pageFinder(root: string): (path: string, language: string | undefined) => string {
  const routes = htmlIn(join(root, 'routes'));
  const langDir = join(root, 'lang');
  const languages = new Set(existsSync(langDir) ? readdirSync(langDir) : []);
  return (path, language) => {
    const route = `${path.slice(1).replaceAll('/', '-')}.html`;
    const page = routes.has(route) ? `routes/${route}` : 'index.html';
    return language !== undefined && languages.has(language) ? `lang/${language}/${page}` : page;
  };
}

/** The interface language the page's own script stored in the `lang` cookie (lib/i18n: rememberLanguage). */
const cookieLanguage = (cookie: string | undefined) =>
  /(?:^|;\s*)lang=([a-z]{2})(?:;|$)/.exec(cookie ?? '')?.[1];

/**
 * Serves the built web app and answers any other GET that wants HTML with its page (index.html, or the
 * path's own with its screen's chunks preloaded), so client routes (/translate?r=…, /guest-login) survive
 * a reload. API paths keep their JSON 404.
 */
export async function webRoutes(app: FastifyInstance, options: { root: string }) {
  const built = existsSync(join(options.root, 'index.html'));
  const pageOf = pageFinder(options.root);
  if (built) {
    await app.register(fastifyStatic, {
      root: options.root,
      wildcard: false,
      index: false,
      // the build's .br/.gz twins (apps/web/build/precompress.ts), to browsers that accept them
      preCompressed: true,
      // hashed assets never change; index.html must always be fresh. `cacheControl: false` keeps send's
      // own 'max-age=0' from overwriting what setHeaders says (it did: assets were revalidated each load)
      cacheControl: false,
      setHeaders: (res, path) => {
        res.setHeader(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const wantsPage =
      request.method === 'GET' &&
      !API_PREFIXES.some((prefix) => path.startsWith(prefix)) &&
      !/\.\w+$/.test(path);
    if (wantsPage && built) {
      const page = pageOf(path, cookieLanguage(request.headers.cookie));
      // it differs by the language cookie and the encoding: no cache may hand one reader's to another
      return reply
        .header('cache-control', 'no-cache')
        .header('vary', 'Accept-Encoding, Cookie')
        .sendFile(page);
    }
    if (wantsPage) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The XTalk web app is not built yet: run `npm run build` (npm start does it for you).');
    }
    return reply.code(404).send({
      statusCode: 404,
      code: 'not_found',
      error: 'Not Found',
      message: `No route for ${request.method} ${path}.`,
    });
  });
}
