/*
 * Registers the service worker (service-worker/sw.ts, served at /sw.js), which keeps the app shell for
 * starts without a network. Only a production build has one (the dev server serves no /sw.js), and
 * browsers allow workers only on secure pages (https, or localhost). Called once the room screen is on
 * screen, and run when the page is next idle, so the worker's install (it fetches the shell) never
 * competes with the room's first frames.
 */

/** Where browsers without requestIdleCallback (Safari) register instead. */
const IDLE_FALLBACK_MS = 2000;

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !window.isSecureContext || !('serviceWorker' in navigator)) return;
  const register = () => {
    // a refusal (private windows in some browsers, storage off) leaves the app as it is without one
    navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  };
  if ('requestIdleCallback' in window) requestIdleCallback(register);
  else setTimeout(register, IDLE_FALLBACK_MS);
}
