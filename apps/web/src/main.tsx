import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { routes } from './app/router';
import { WordsOffline } from './components/words-offline';
import { getLanguage, loadCatalogue, rememberLanguage } from './lib/i18n';
import { loadScreenOf } from './lib/router';
import { applyTheme } from './lib/theme';
import './index.css';

// Before the first render, so the theme does not flicker.
applyTheme();
const language = getLanguage();
rememberLanguage(language);

// The first render is already in the stored language: its catalogue, when it is a chunk of its own, comes
// first (decision 0188), preloaded by the page the server sent for it (decision 0241). Without it (offline)
// the app still starts, in English, says so, and `<html lang>` says English.
const words = loadCatalogue(language).then(
  () => false,
  (error: unknown) => {
    console.warn(`[i18n] the ${language} catalogue could not be loaded`, error);
    return true;
  },
);
// A page the build wrote with its screen's markup (apps/web/build/prerender.ts) is painted before this
// script runs: the first render is that screen, its code preloaded by the page, so the markup is replaced
// by the same markup rather than by 'Loading...'. A screen whose code fails to load renders its error then.
const root = document.getElementById('root')!;
const screen = root.firstElementChild
  ? loadScreenOf(routes, location.pathname).catch(() => undefined)
  : undefined;
void Promise.all([words, screen]).then(([wordsMissing]) => start(wordsMissing));

function start(wordsMissing: boolean) {
  // `<html lang>` changes with the words it describes: a page painted with its markup before this script
  // keeps its own language until the render that replaces that markup
  document.documentElement.lang = wordsMissing ? 'en' : language;
  createRoot(root).render(
    <StrictMode>
      {wordsMissing && <WordsOffline language={language} />}
      <App />
    </StrictMode>,
  );
}
