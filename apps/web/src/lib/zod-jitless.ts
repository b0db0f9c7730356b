/*
 * zod compiles fast object parsers with `new Function` when eval is allowed; the server's
 * Content-Security-Policy does not allow it, and zod's probe for it is reported as a violation even
 * though zod then parses without. Set before zod's chunk loads (zod reads this global when it does), so
 * zod neither probes nor compiles, and the entry does not import zod for it.
 */
declare global {
  var __zod_globalConfig: { jitless?: boolean } | undefined;
}

globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };

export {};
