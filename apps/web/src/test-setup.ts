import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadCatalogue } from './lib/i18n';

// Components under test switch to Japanese synchronously, as they do in the app once its words are here.
await loadCatalogue('ja');

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  localStorage.clear();
});
