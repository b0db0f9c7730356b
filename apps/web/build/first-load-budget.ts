/**
 * The most gzipped JavaScript every page may load before it can render (docs/decisions/0081): checked
 * after each build by `npm run size` (scripts/first-load-size.ts) and in a browser by the web app's e2e test.
 */
export const FIRST_LOAD_BUDGET_BYTES = 100_000;
