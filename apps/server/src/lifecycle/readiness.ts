import { ApiPath, ApiTag } from '@xtalk/protocol';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { Bus } from '../bus/index.js';
import { DRAINING_REFUSAL } from '../gateway/index.js';
import type { Db } from '../store/index.js';

/*
 * Readiness, beside /api/health's liveness (decision 0144): a load balancer or orchestrator sends work to
 * a node only while GET /api/health/ready says 200. It says 503, with the reason, while the node starts,
 * while it drains, and while its database or its Redis is down; a live but unready node is not restarted.
 */

export type NotReadyReason = 'starting' | 'draining' | 'database' | 'redis';

const EXPLAINED: Record<NotReadyReason, string> = {
  starting: 'The server is starting.',
  draining: 'The server is draining for a restart.',
  database: 'The database is unreachable.',
  redis: 'Redis is unreachable.',
};

/** A live PostgreSQL answers this in milliseconds; a probe must not hang as long as the pool would. */
const DATABASE_PROBE_MS = 2000;

export function createReadiness() {
  let phase: 'starting' | 'ready' | 'draining' = 'starting';
  return {
    get phase() {
      return phase;
    },
    get draining() {
      return phase === 'draining';
    },
    /** Listening: work may come (once; a draining node never turns ready again). */
    ready() {
      if (phase === 'starting') phase = 'ready';
    },
    drain() {
      phase = 'draining';
    },
  };
}
export type Readiness = ReturnType<typeof createReadiness>;
/** The node's readiness, and what GET /api/health/ready would answer now (the metrics read it too). */
export type ReadinessProbe = Readiness & { notReady(): Promise<NotReadyReason[]> };

async function databaseAnswers(db: Db, lost: () => boolean): Promise<boolean> {
  if (lost()) return false;
  // the embedded database is there until it is lost; PostgreSQL is asked
  if (db.kind === 'pglite') return true;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), DATABASE_PROBE_MS);
  });
  const probe = db.query('select 1').then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /api/health/ready, and the refusal of new joins while draining (503 with retry-after: the client,
 * or the proxy, goes to another node). Registered before the routes so the refusal hook covers the join.
 */
export function registerReadiness(
  app: FastifyInstance,
  deps: { db: Db; bus: Bus; redisConfigured: boolean },
): ReadinessProbe {
  const { db, bus } = deps;
  const readiness = createReadiness();
  let dbLost = false;
  void db.lost?.then(() => (dbLost = true));
  app.addHook('onListen', async () => readiness.ready());

  /** Every cause at once: an operator whose two stores are down learns both from one probe. */
  async function notReady(): Promise<NotReadyReason[]> {
    if (readiness.phase !== 'ready') return [readiness.phase];
    const reasons: NotReadyReason[] = [];
    if (!(await databaseAnswers(db, () => dbLost))) reasons.push('database');
    if (deps.redisConfigured && !(bus.isConnected?.() ?? true)) reasons.push('redis');
    return reasons;
  }

  const schema = {
    tags: [ApiTag.health],
    summary: 'Readiness: 200 only while this node takes work',
    response: {
      200: z.object({ ok: z.literal(true), status: z.literal('ready') }),
      503: z.object({
        ok: z.literal(false),
        status: z.literal('not_ready'),
        /** The first cause, what probes read. */
        reason: z.string(),
        reasons: z.array(z.string()),
        message: z.string(),
      }),
    },
  };
  app.get(ApiPath.healthReady, { schema }, async (_request, reply) => {
    // a page on another node's origin reads it too: a client away from its room's home asks whether the
    // home takes work again (decision 0237); the answer is what anyone reaching the node may read
    void reply
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin');
    const reasons = await notReady();
    const reason = reasons[0];
    if (!reason) return { ok: true, status: 'ready' };
    // `reason` (the first cause) is what probes read; `reasons` lists them all
    const message = reasons.map((each) => EXPLAINED[each]).join(' ');
    return reply
      .code(503)
      .header('retry-after', String(DRAINING_REFUSAL.retryAfterSeconds))
      .send({ ok: false, status: 'not_ready', reason, reasons, message });
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!readiness.draining || request.method !== 'POST') return;
    if (request.url.split('?', 1)[0] !== ApiPath.join) return;
    const { status, code, message, retryAfterSeconds } = DRAINING_REFUSAL;
    return reply
      .code(status)
      .header('retry-after', String(retryAfterSeconds))
      .send({ statusCode: status, code, error: 'Service Unavailable', message });
  });
  return Object.assign(readiness, { notReady });
}
