import type { Redis } from 'ioredis';
import type { Person } from '../presence-event.js';
import { startNodeHeartbeat, type NodeHeartbeat } from '../presence-nodes.js';

/**
 * Another node's heartbeat, alive for the whole test: `left` collects the LEAVEs it would announce for
 * the nodes it sweeps, and any error of its fails the test.
 */
export function sweepingNode(redis: Redis, nodeId: string, left: Array<[string, Person]>): NodeHeartbeat {
  return startNodeHeartbeat({
    redis,
    nodeId,
    ttlMs: 60_000,
    left: (roomId, person) => left.push([roomId, person]),
    warn: (error) => {
      throw error;
    },
  });
}
