import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { getLanguage } from './lib/i18n';
import { applyTheme } from './lib/theme';
import './index.css';

// Before the first paint, so neither the theme nor the page language flickers.
applyTheme();
document.documentElement.lang = getLanguage();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
