import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { inlineScripts } from './build/inline-scripts';
import { precompress } from './build/precompress';
import { routePreload } from './build/route-preload';
import { serviceWorker } from './build/service-worker';

// In `vite` dev the API, the socket and the Google redirect live on the server (same origin in production).
const backend = process.env.XTALK_BACKEND ?? 'http://localhost:8787';

export default defineConfig({
  plugins: [react(), tailwindcss(), routePreload(), inlineScripts(), serviceWorker(), precompress()],
  server: {
    proxy: {
      '/api': backend,
      '/xtalk_ws': { target: backend, ws: true },
      '/xtalk': backend,
      '/auth/google': backend,
    },
  },
  // The manifest lets `npm run size` find the first-load chunks (scripts/first-load-size.ts).
  build: { outDir: 'dist', sourcemap: true, manifest: true },
});
