import type { Plugin, Rollup } from 'vite';
import { scriptsAfterPaint, stylesInPage, withMarkup, withPrerenderer } from './prerender';

/*
 * The screens loaded on demand (React.lazy in app/router.tsx) are fetched only once the entry chunk has
 * been downloaded and run: on Lighthouse's throttled mobile link that is one more round trip before
 * /guest-login's largest paint (LCP <= 2.0 s; decision 0084). So for each path below the build
 * writes `routes/<path>.html`: index.html with that screen's chunk (and the chunks it imports) as
 * `modulepreload` links in its head, fetched at once, in parallel with the entry; the server answers the
 * path with it (apps/server/src/web/static.ts). Other paths get index.html as it is.
 * In the markup rather than added by an inline script (as until decision 0122): the browser's preload
 * scanner sees links before any script runs, and the page has no script to compile and run in its
 * first task, the one that parses the document.
 */

/** Path -> the module of its lazily loaded screen (app/router.tsx). */
export const ROUTE_MODULES: Record<string, string> = {
  '/guest-login': 'src/features/auth/components/guest-login.tsx',
  '/login': 'src/features/auth/components/login-card.tsx',
  '/signup': 'src/features/auth/components/login-card.tsx',
  '/translate': 'src/app/routes/translate-route.tsx',
  '/translate/npc': 'src/app/routes/translate-route.tsx',
};

/** Where a path's page is written in the build (apps/server/src/web/static.ts reads the same name). */
export const routePageOf = (path: string) => `routes/${path.slice(1).replaceAll('/', '-')}.html`;

/** Where a page's copy for a language is written: `lang/<language>/<page>` (the server reads the same). */
export const languagePageOf = (language: string, page: string) => `lang/${language}/${page}`;

export function routePreload(): Plugin {
  return {
    name: 'xtalk-route-preload',
    apply: 'build',
    // after Vite's own HTML plugin has put index.html into the bundle
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') throw new Error('route-preload: the build has no index.html');
      const html = String(index.source);
      const { entry, screens, catalogues, filesOf } = chunkGraph(bundle);
      const stylesheet = (file: string) => {
        const asset = bundle[file];
        if (asset?.type !== 'asset') throw new Error(`route-preload: the build has no ${file}`);
        return String(asset.source);
      };
      // the entry and its static imports are in index.html already
      const inHtml = filesOf(entry.fileName);
      const linksTo = (files: Iterable<string>) =>
        // crossorigin as on Vite's own modulepreload links, so the module loader reuses what was fetched
        [...files]
          .filter((file) => !inHtml.has(file))
          .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
      // each page by its path (undefined: index.html, any other path) with its preload links
      const pages = new Map<string | undefined, string[]>([[undefined, []]]);
      for (const [path, module] of Object.entries(ROUTE_MODULES))
        pages.set(path, linksTo(filesOf(screens.get(module)!.fileName)));
      // each page again for each lazily loaded language: its words preloaded too (decision 0241)
      const languages = new Map([
        ['en', [] as string[]],
        ...[...catalogues].map(
          ([language, catalogue]) => [language, linksTo(filesOf(catalogue.fileName))] as const,
        ),
      ]);
      await withPrerenderer(async ({ PRERENDERED, screenMarkup }) => {
        for (const [language, words] of languages) {
          const own = html.replace('<html lang="en">', `<html lang="${language}">`);
          for (const [path, links] of pages) {
            const page = path === undefined ? 'index.html' : routePageOf(path);
            let source = withLinks(own, [...words, ...links]);
            // a screen painted before the script: its markup in the page's language
            if (path !== undefined && path in PRERENDERED)
              source = stylesInPage(
                scriptsAfterPaint(withMarkup(source, await screenMarkup(path, language))),
                stylesheet,
              );
            const fileName = language === 'en' ? page : languagePageOf(language, page);
            if (fileName !== 'index.html') this.emitFile({ type: 'asset', fileName, source });
          }
        }
      });
    },
  };
}

const withLinks = (html: string, links: string[]) =>
  links.length === 0 ? html : html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`);

/**
 * The bundle's entry chunk, the chunk of each screen in ROUTE_MODULES, the lazy catalogues, and `filesOf`: a chunk's file with
 * the files of every chunk it imports statically (what loads with it).
 */
export function chunkGraph(bundle: Rollup.OutputBundle) {
  const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const filesOf = (file: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const imported of byFile.get(file)?.imports ?? []) filesOf(imported, seen);
    return seen;
  };
  const entry = chunks.find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('the build has no entry chunk');
  // each lazily loaded language's catalogue (lib/i18n/catalogues.ts), by its language
  const catalogues = new Map<string, Rollup.OutputChunk>();
  for (const chunk of chunks) {
    const language = /lib\/i18n\/([a-z]{2})\.ts$/.exec(chunk.facadeModuleId ?? '')?.[1];
    if (chunk.isDynamicEntry && language) catalogues.set(language, chunk);
  }
  const screens = new Map<string, Rollup.OutputChunk>();
  for (const module of Object.values(ROUTE_MODULES)) {
    const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(module));
    if (!chunk) throw new Error(`the build has no chunk for ${module}`);
    screens.set(module, chunk);
  }
  return { entry, screens, catalogues, byFile, filesOf };
}
