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
  },
});
