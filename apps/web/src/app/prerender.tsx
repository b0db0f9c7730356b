import type { UiLanguage } from '@xtalk/protocol';
import { renderToStaticMarkup } from 'react-dom/server';
import { GuestLogin } from '#web/features/auth/components/guest-login';
import { loadCatalogue, setLanguage } from '#web/lib/i18n';
import { MemoryRouter } from '#web/lib/router';

/*
 * The markup the build writes into a page before its script (apps/web/build/prerender.ts): a screen's
 * first render, before any effect, in one interface language. The browser paints it as soon as the
 * stylesheet is here; the app's first render then replaces it with the same markup (main.tsx).
 */

/** The screens whose pages carry their markup, by path. */
export const PRERENDERED: Record<string, () => React.ReactElement> = {
  '/guest-login': () => <GuestLogin prerendered />,
};

/** The first render of the screen at `path` in `language`, as HTML. */
export async function screenMarkup(path: string, language: UiLanguage): Promise<string> {
  const screen = PRERENDERED[path];
  if (!screen) throw new Error(`prerender: no screen is prerendered at ${path}`);
  await loadCatalogue(language);
  setLanguage(language);
  return renderToStaticMarkup(<MemoryRouter initialEntries={[path]}>{screen()}</MemoryRouter>);
}
