import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { getLanguage, loadCatalogue } from './lib/i18n';
import { applyTheme } from './lib/theme';
import './index.css';

// Before the first paint, so neither the theme nor the page language flickers.
applyTheme();
const language = getLanguage();
document.documentElement.lang = language;

// The first render is already in the stored language: its catalogue, when it is a chunk of its own, comes
// first (decision 0188). Without it (offline) the app still starts, in English.
loadCatalogue(language)
  .catch((error: unknown) => console.warn(`[i18n] the ${language} catalogue could not be loaded`, error))
  .finally(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
