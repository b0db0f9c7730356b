import type { Authenticated } from '../accounts/index.js';
import { sameText } from '../accounts/index.js';
import type { Clock } from '../clock.js';
import type { SessionRow } from './session-ids.js';

/*
 * A room session handed from the join to its socket on this node (decision 0138).
 *
 * A client joins over HTTP (POST /xtalk) with its token, which checks the token, reads the user and creates
 * the session; then it opens its socket with the same token. The upgrade did all of that again: the token's
 * signature, and the user and the session in one statement, which was about a third of a connect's CPU
 * (mostly the hand-over to the database thread and back). The join now leaves what it checked, read and
 * wrote here, and the first upgrade of that session with that same token within `ttlMs` takes it.
 *
 * Why that is as good as checking again:
 * - The token is the same string the join verified, compared in constant time, so its signature and claims
 *   are what they were; only its expiry can have changed, and that is checked again.
 * - A socket keeps the user row it opened with for its whole life (a rename or a merge does not reach an
 *   open socket). A socket opened from a hand-off of age t is the socket that would have opened t earlier,
 *   when the join read the row.
 * - It is taken once. A reconnect, an upgrade on another node, one with another token and one after `ttlMs`
 *   check and read everything as before.
 */

export interface SessionHandoff extends Authenticated {
  session: SessionRow;
  /** The bearer token the join was made with. */
  token: string;
}

export interface SessionHandoffs {
  /** The join's checked token, its user and the session it made, for the socket it opens next. */
  hold(handoff: SessionHandoff): void;
  /**
   * The session and its checked user for an upgrade with the join's own token, while the hand-off, the
   * session and the token are all unexpired; removed when taken.
   */
  take(sessionId: string, token: string): Omit<SessionHandoff, 'token'> | undefined;
  readonly size: number;
}

/**
 * A browser opens its socket within a second of joining. A minute also covers the bench, which joins all
 * its members before it opens any socket (bench/peers/load-generator.ts).
 */
export const HANDOFF_TTL_MS = 60_000;
/** Beyond this many held at once the oldest go (their sockets read the database): bounds the memory. */
export const HANDOFF_MAX = 10_000;

export function createSessionHandoffs(
  clock: Clock,
  { ttlMs = HANDOFF_TTL_MS, max = HANDOFF_MAX }: { ttlMs?: number; max?: number } = {},
): SessionHandoffs {
  // Insertion order is expiry order (one TTL for all), so the stale ones are always at the front.
  const held = new Map<string, SessionHandoff & { until: number }>();

  function sweep(now: number) {
    for (const [id, entry] of held) {
      if (entry.until > now && held.size <= max) return;
      held.delete(id);
    }
  }

  return {
    hold(handoff) {
      const now = clock.now();
      held.delete(handoff.session.id);
      held.set(handoff.session.id, { ...handoff, until: now + ttlMs });
      sweep(now);
    },
    take(sessionId, token) {
      const entry = held.get(sessionId);
      // another token (another user's, or a newer one of the same user) leaves it for the join's own
      if (!entry || !sameText(entry.token, token)) return undefined;
      held.delete(sessionId);
      const now = clock.now();
      const fresh =
        entry.until > now &&
        entry.session.expires_at.getTime() > now &&
        entry.claims.expiresAt > Math.floor(now / 1000);
      return fresh ? { session: entry.session, user: entry.user, claims: entry.claims } : undefined;
    },
    get size() {
      return held.size;
    },
  };
}
