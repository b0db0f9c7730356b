import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../bus/index.js';
import type { Db } from '../../store/index.js';
import type { TokenClaims } from './tokens.js';

/*
 * Sign-in sessions that just ended, told to every node so that each closes the sockets opened with them
 * (docs/decisions/0195-sessions-that-end.md). A request's token is checked against the database anyway
 * (users-repo findSignedIn), so HTTP needs no message; an open socket was checked once, when it opened,
 * and hears of its end here: at once on the node that ended it, over the bus on the others. A message
 * the bus lost while it was away is made up for when it is back: the listeners are told to check the
 * sessions of their sockets again (`endedAmong`).
 */

/**
 * Which sessions of one player ended: `only` that one (null: the player's tokens made before sessions
 * were stored), else all of them but `keep` (the caller's, which goes on).
 */
export interface EndedSessions {
  userId: string;
  only?: string | null;
  keep?: string;
}

/** Whether a token with these claims belongs to a session that `ended` names. */
export function endsSession(
  ended: EndedSessions,
  claims: Pick<TokenClaims, 'userId' | 'sessionId'>,
): boolean {
  if (claims.userId !== ended.userId) return false;
  if (ended.only !== undefined) return (claims.sessionId ?? null) === ended.only;
  return claims.sessionId === undefined || claims.sessionId !== ended.keep;
}

const CHANNEL = 'xtalk:sessions-ended';

type Listener = (ended: EndedSessions) => void;

function parse(payload: Buffer): (EndedSessions & { node: string }) | undefined {
  try {
    const value = JSON.parse(payload.toString('utf8')) as Partial<EndedSessions & { node: string }>;
    if (typeof value.userId !== 'string' || typeof value.node !== 'string') return undefined;
    return value as EndedSessions & { node: string };
  } catch {
    return undefined;
  }
}

/** A socket's sign-in session as the gateway knows it. */
export type OpenSession = Pick<TokenClaims, 'userId' | 'sessionId'>;

/** Which of `open` have ended: their sessions' rows are gone, or their player's row-less tokens ended. */
async function endedAmong(db: Db, open: readonly OpenSession[]): Promise<EndedSessions[]> {
  const ids = [...new Set(open.flatMap((session) => (session.sessionId ? [session.sessionId] : [])))];
  const rowless = [...new Set(open.filter((session) => !session.sessionId).map((session) => session.userId))];
  const [live, ended] = await Promise.all([
    db.query<{ id: string }>('select id from sign_in_sessions where id = any($1::text[])', [ids]),
    db.query<{ id: string }>(
      'select id from users where id = any($1::text[]) and sessions_ended_at is not null',
      [rowless],
    ),
  ]);
  const liveIds = new Set(live.rows.map((row) => row.id));
  const gone = open.filter((session) => session.sessionId && !liveIds.has(session.sessionId));
  return [
    ...gone.map((session) => ({ userId: session.userId, only: session.sessionId! })),
    ...ended.rows.map((row) => ({ userId: row.id, only: null })),
  ];
}

/** The ends of sessions, heard by this node's listeners (the gateway) wherever they happened. */
export async function createSessionEnds(bus: Bus, db: Db, logger: FastifyBaseLogger) {
  const node = randomUUID();
  const listeners = new Set<Listener>();
  const missedListeners = new Set<() => void>();
  bus.onReconnect?.(() => {
    for (const listener of missedListeners) listener();
  });
  const tell = (ended: EndedSessions) => {
    for (const listener of listeners) listener(ended);
  };
  // this node's own announcements were told here at once; the bus brings it those of the others
  await bus.subscribe(CHANNEL, (payload) => {
    const ended = parse(payload);
    if (ended && ended.node !== node) tell({ userId: ended.userId, only: ended.only, keep: ended.keep });
  });
  return {
    /** Tells this node's listeners now and the other nodes over the bus; never throws. */
    async announce(ended: EndedSessions): Promise<void> {
      tell(ended);
      try {
        await bus.publish(CHANNEL, Buffer.from(JSON.stringify({ ...ended, node })));
      } catch (error) {
        // the other nodes' sockets of these sessions stay open until their next check; their tokens are
        // refused at the next request all the same
        logger.warn({ err: error }, 'could not tell the other nodes of ended sessions');
      }
    },
    onEnded(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The bus is back after an outage: ends told meanwhile may be lost; check `endedAmong` again. */
    onMissed(listener: () => void): () => void {
      missedListeners.add(listener);
      return () => missedListeners.delete(listener);
    },
    endedAmong: (open: readonly OpenSession[]) => endedAmong(db, open),
  };
}
export type SessionEnds = Awaited<ReturnType<typeof createSessionEnds>>;
