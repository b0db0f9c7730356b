import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

// The web project of the root Vitest run (`npx vitest run --project web`).
export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    // A worker's files share one happy-dom window and one module graph, as the server's do (decision 0228,
    // decision 0239): React, the app's modules and the DOM load once per worker, not once per file. A file
    // leaves the worker as it found it: the setup unmounts and clears storage after each test, a file that
    // stubs a global or fakes timers restores them, one that reads a module-level store resets it first,
    // and one that mocks a module starts and ends with a fresh module graph.
    isolate: false,
  },
});
