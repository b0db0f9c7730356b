import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { WordsOffline } from './components/words-offline';
import { getLanguage, loadCatalogue, rememberLanguage } from './lib/i18n';
import { applyTheme } from './lib/theme';
import './index.css';

// Before the first paint, so neither the theme nor the page language flickers.
applyTheme();
const language = getLanguage();
document.documentElement.lang = language;
rememberLanguage(language);

// The first render is already in the stored language: its catalogue, when it is a chunk of its own, comes
// first (decision 0188), preloaded by the page the server sent for it (decision 0241). Without it (offline)
// the app still starts, in English, says so, and `<html lang>` says English.
loadCatalogue(language).then(
  () => start(false),
  (error: unknown) => {
    console.warn(`[i18n] the ${language} catalogue could not be loaded`, error);
    document.documentElement.lang = 'en';
    start(true);
  },
);

function start(wordsMissing: boolean) {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      {wordsMissing && <WordsOffline language={language} />}
      <App />
    </StrictMode>,
  );
}
