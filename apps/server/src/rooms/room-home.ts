import { createHash } from 'node:crypto';

/*
 * A room's home among the listed endpoints (decision 0237): rendezvous hashing, each endpoint scored by
 * a hash of the room code with the endpoint's address, highest first. Every node computes the same order
 * from the same list; an endpoint added or removed moves only the rooms whose first choice it is or
 * becomes; and a room whose home is gone goes to its next choice, so the rooms of a dead node spread
 * over the others instead of falling on one.
 *
 * A hot room (decision 0250) outgrows its home: once `perNode` people are in it, a joiner's order starts
 * at the room's next node in that same order, one node further per `perNode` people, so the room fills
 * its nodes one after the other; past them all, each joiner starts at a node picked by its own hash.
 * The rest of the list follows in the room's order, so failover is the room's as for a small room.
 */

const score = (key: string, endpoint: string) =>
  createHash('sha256').update(key).update('\n').update(endpoint).digest().readUIntBE(0, 6);

const byScore = (key: string, endpoints: readonly string[]) =>
  endpoints
    .map((endpoint) => ({ endpoint, score: score(key, endpoint) }))
    .sort((a, b) => b.score - a.score || (a.endpoint < b.endpoint ? -1 : 1))
    .map(({ endpoint }) => endpoint);

/** The endpoints in the room's order: its home first, then where its members go when that is gone. */
export function roomEndpointOrder(roomId: string, endpoints: readonly string[]): string[] {
  return byScore(roomId, endpoints);
}

export interface Joiner {
  /** Who joins: past every node's share, the joiner's own hash picks its node. */
  userId: string;
  /** People in the room on every node as the joiner comes (presence). */
  people: number;
  /** People a node takes of one room before the room's next joiners go on to its next node. */
  perNode: number;
}

/**
 * The endpoints in a joiner's order: the room's order for a room under `perNode` people; for a hot room
 * the node whose turn it is first, then the rest in the room's order.
 */
export function joinerEndpointOrder(roomId: string, endpoints: readonly string[], joiner: Joiner): string[] {
  const order = byScore(roomId, endpoints);
  const turn = Math.floor(joiner.people / joiner.perNode);
  if (turn === 0 || order.length < 2) return order;
  const first = turn < order.length ? order[turn]! : byScore(`${roomId}\n${joiner.userId}`, endpoints)[0]!;
  return [first, ...order.filter((endpoint) => endpoint !== first)];
}
