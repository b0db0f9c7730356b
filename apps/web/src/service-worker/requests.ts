/*
 * What the service worker (sw.ts) does with each request, apart from the worker so it can be tested
 * without one. Only two kinds are its business: page loads (network first, the cached shell offline) and
 * the build's hashed files (cache first). Everything else goes to the network as if there were no worker:
 * the API and sign-in must never answer from a cache, the socket is not a fetch, and audio is large,
 * personal and fetched in ranges.
 */

/** Left to the network: the HTTP API, the socket and its fallbacks, sign-in redirects, audio. */
export const NETWORK_ONLY_PREFIXES = ['/api/', '/xtalk', '/ws', '/auth', '/audio'] as const;

/** The build's files, named by their content's hash: a name's bytes never change. */
export const HASHED_PREFIX = '/assets/';

export type Handling = 'network' | 'page' | 'asset';

/** The parts of a Request the decision reads. */
export interface RequestFacts {
  readonly method: string;
  readonly url: string;
  readonly mode: string;
  readonly destination: string;
  readonly headers: { has(name: string): boolean };
}

export function handlingOf(request: RequestFacts, origin: string): Handling {
  if (request.method !== 'GET') return 'network';
  const url = new URL(request.url);
  if (url.origin !== origin) return 'network';
  if (NETWORK_ONLY_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))) return 'network';
  // media elements fetch in ranges; a cached whole answer would be a wrong one
  if (request.headers.has('range')) return 'network';
  if (request.destination === 'audio' || request.destination === 'video') return 'network';
  if (request.mode === 'navigate') return 'page';
  return url.pathname.startsWith(HASHED_PREFIX) ? 'asset' : 'network';
}

/** Whether a fetched answer may go into the cache: a whole, same-origin success that is not audio. */
export function mayKeep(response: Pick<Response, 'status' | 'type' | 'headers'>): boolean {
  const type = response.headers.get('content-type') ?? '';
  return response.status === 200 && response.type === 'basic' && !type.startsWith('audio/');
}
