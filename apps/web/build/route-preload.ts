import type { Plugin } from 'vite';

/*
 * The screens loaded on demand (React.lazy in app/router.tsx) are fetched only once the entry chunk has
 * been downloaded and run: on Lighthouse's throttled mobile link that is one more round trip before
 * /guest-login's largest paint (issue 12: LCP <= 2.0 s; decision 0084). This writes a few lines into
 * index.html that, for the path being opened, ask for that screen's chunk (and the chunks it imports) as
 * `modulepreload` at once, in parallel with the entry. Other paths load nothing extra.
 */

/** Path -> the module of its lazily loaded screen (app/router.tsx). */
const ROUTE_MODULES: Record<string, string> = {
  '/guest-login': 'src/features/auth/components/guest-login.tsx',
  '/translate': 'src/app/routes/translate-route.tsx',
  '/translate/npc': 'src/app/routes/translate-route.tsx',
};

export function routePreload(): Plugin {
  return {
    name: 'xtalk-route-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const filesOf = (file: string, seen = new Set<string>()): Set<string> => {
          if (seen.has(file)) return seen;
          seen.add(file);
          for (const imported of byFile.get(file)?.imports ?? []) filesOf(imported, seen);
          return seen;
        };
        // the entry and its static imports are in index.html already
        const entry = chunks.find((chunk) => chunk.isEntry);
        const inHtml = entry ? filesOf(entry.fileName) : new Set<string>();
        const table: Record<string, string[]> = {};
        for (const [path, module] of Object.entries(ROUTE_MODULES)) {
          const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(module));
          if (!chunk) throw new Error(`route-preload: no chunk for ${module}`);
          table[path] = [...filesOf(chunk.fileName)]
            .filter((file) => !inHtml.has(file))
            .map((file) => `/${file}`);
        }
        // crossOrigin as on Vite's own modulepreload links, so the module loader reuses what was fetched
        const script = `<script>(function(){var f=${JSON.stringify(table)}[location.pathname];if(f)f.forEach(function(h){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=h;document.head.appendChild(l)})})()</script>`;
        return html.replace('</title>', `</title>\n    ${script}`);
      },
    },
  };
}
