import { fileURLToPath } from 'node:url';
import { createServer, type ViteDevServer } from 'vite';

/*
 * The screens whose page carries their first render (src/app/prerender.tsx): rendered at build time
 * through Vite's own module loader, so the markup comes from the same components, words and class names
 * as the app, never from a copy of them kept by hand.
 */

const webRoot = fileURLToPath(new URL('..', import.meta.url));

interface PrerenderModule {
  PRERENDERED: Record<string, unknown>;
  screenMarkup: (path: string, language: string) => Promise<string>;
}

/** Opens the loader, hands `render` the module's functions, and closes the loader. */
export async function withPrerenderer<T>(render: (module: PrerenderModule) => Promise<T>): Promise<T> {
  const server: ViteDevServer = await createServer({
    root: webRoot,
    configFile: false,
    logLevel: 'warn',
    server: { middlewareMode: true, hmr: false, ws: false },
    appType: 'custom',
  });
  try {
    return await render((await server.ssrLoadModule('/src/app/prerender.tsx')) as PrerenderModule);
  } finally {
    await server.close();
  }
}

/** `html` with `markup` inside its empty root element. */
export function withMarkup(html: string, markup: string): string {
  const root = '<div id="root"></div>';
  if (!html.includes(root)) throw new Error('prerender: the page has no empty root element');
  return html.replace(root, `<div id="root">${markup}</div>`);
}

/**
 * `html` with its scripts fetched at low priority. A page painted from its markup needs only its
 * stylesheet for that paint: the scripts come after it, and at the default (high) priority they share
 * the link with the stylesheet and are counted by Lighthouse's model as holding up the paint.
 */
export function scriptsAfterPaint(html: string): string {
  const lowered = html
    .replaceAll('<script type="module" crossorigin', '<script type="module" fetchpriority="low" crossorigin')
    .replaceAll(
      '<link rel="modulepreload" crossorigin',
      '<link rel="modulepreload" fetchpriority="low" crossorigin',
    );
  if (!lowered.includes('<script type="module" fetchpriority="low"'))
    throw new Error('prerender: the page has no module script to lower');
  return lowered;
}

const STYLESHEET = /<link rel="stylesheet" crossorigin href="\/([^"]+)">/;

/**
 * `html` with its stylesheet's rules in a `<style>` instead of the link to the file: the markup is painted
 * with the document alone, one round trip sooner. The rules stay in the document, so the app's other
 * screens, reached from this page without a page load, have them too.
 */
export function stylesInPage(html: string, stylesheet: (file: string) => string): string {
  const link = STYLESHEET.exec(html);
  if (!link) throw new Error('prerender: the page has no stylesheet');
  return html.replace(link[0], () => `<style>${stylesheet(link[1]!)}</style>`);
}
