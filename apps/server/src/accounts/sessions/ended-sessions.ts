import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../bus/bus.js';
import type { TokenClaims } from './tokens.js';

/*
 * Sign-in sessions that just ended, told to every node so that each closes the sockets opened with them
 * (docs/decisions/0195-sessions-that-end.md). A request's token is checked against the database anyway
 * (users-repo findSignedIn), so HTTP needs no message; an open socket was checked once, when it opened,
 * and hears of its end here: at once on the node that ended it, over the bus on the others.
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

/** The ends of sessions, heard by this node's listeners (the gateway) wherever they happened. */
export async function createSessionEnds(bus: Bus, logger: FastifyBaseLogger) {
  const node = randomUUID();
  const listeners = new Set<Listener>();
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
  };
}
export type SessionEnds = Awaited<ReturnType<typeof createSessionEnds>>;
