import { handlingOf, mayKeep } from './requests';

/*
 * The service worker, built to /sw.js by apps/web/build/service-worker.ts, which defines the shell below.
 * It keeps the app shell (index.html, the entry and the screens a first visit loads) in a cache named for
 * the build, so the app opens without a network and shows its own "Connecting..." rather than the
 * browser's error page. A new deploy brings a new worker, which takes over at once and deletes the caches
 * of older builds.
 */

/** The build's shell: its version (a hash of what is in it) and the files to keep, as absolute paths. */
declare const __XTALK_SHELL__: { version: string; files: string[] };

// The worker's own types are not in the web app's DOM library: the few parts used here.
interface ExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(answer: Promise<Response>): void;
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: Notification;
}
interface WindowClient {
  readonly url: string;
  focus(): Promise<WindowClient>;
}
interface WorkerScope {
  readonly location: Location;
  readonly clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
}

const worker = self as unknown as WorkerScope;
const shell = __XTALK_SHELL__;
const CACHE_PREFIX = 'xtalk-shell-';
const cacheName = `${CACHE_PREFIX}${shell.version}`;
/** What a page load gets offline: the client router draws the screen from the address. */
const SHELL_PAGE = '/index.html';

worker.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(cacheName);
      // past the HTTP cache: an index.html kept there may be an older build's
      await cache.addAll([SHELL_PAGE, ...shell.files].map((url) => new Request(url, { cache: 'reload' })));
      await worker.skipWaiting();
    })(),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const stale = (await caches.keys()).filter(
        (name) => name.startsWith(CACHE_PREFIX) && name !== cacheName,
      );
      await Promise.all(stale.map((name) => caches.delete(name)));
      await worker.clients.claim();
    })(),
  );
});

worker.addEventListener('fetch', (event) => {
  const handling = handlingOf(event.request, worker.location.origin);
  // anything else is not answered here, so the browser fetches it as without a worker
  if (handling === 'page') event.respondWith(page(event.request));
  if (handling === 'asset') event.respondWith(asset(event));
});

/*
 * A message notification the page had this worker show (Chrome on Android allows no other kind): a tap
 * closes it and brings back the room's page, or opens the room when no page is left.
 */
worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const room = (event.notification.data as { url?: string } | null)?.url ?? '/';
  event.waitUntil(
    (async () => {
      const pages = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const page = pages.find((client) => client.url === room) ?? pages[0];
      if (page) await page.focus();
      else await worker.clients.openWindow(room);
    })(),
  );
});

/** Network first: the server's page when it answers, the cached shell when it cannot be reached. */
async function page(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (unreachable) {
    const shell = await caches.match(SHELL_PAGE, { cacheName });
    if (shell) return shell;
    throw unreachable;
  }
}

/** Cache first: a hashed file never changes; one fetched now is kept for the next offline start. */
async function asset(event: FetchEvent): Promise<Response> {
  const cached = await caches.match(event.request, { cacheName, ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(event.request);
  if (mayKeep(response)) {
    const copy = response.clone();
    event.waitUntil(caches.open(cacheName).then((cache) => cache.put(event.request, copy)));
  }
  return response;
}
