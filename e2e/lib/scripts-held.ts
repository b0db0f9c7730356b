import type { Page, Route } from 'playwright-core';

/**
 * Opens `path` with the app's scripts held back, so what the document alone paints can be looked at;
 * `release` lets them load. Inline scripts in the page still run: they are part of the document.
 */
export async function withScriptsHeld(page: Page, path: string) {
  const held: Route[] = [];
  let released = false;
  await page.route('**/assets/*.js', (route) => (released ? route.continue() : void held.push(route)));
  await page.goto(path, { waitUntil: 'commit' });
  return async () => {
    released = true;
    await Promise.all(held.map((route) => route.continue()));
  };
}
