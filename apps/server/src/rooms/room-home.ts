import { createHash } from 'node:crypto';

/*
 * A room's home among the listed endpoints (decision 0237): rendezvous hashing, each endpoint scored by
 * a hash of the room code with the endpoint's address, highest first. Every node computes the same order
 * from the same list; an endpoint added or removed moves only the rooms whose first choice it is or
 * becomes; and a room whose home is gone goes to its next choice, so the rooms of a dead node spread
 * over the others instead of falling on one.
 */

const score = (roomId: string, endpoint: string) =>
  createHash('sha256').update(roomId).update('\n').update(endpoint).digest().readUIntBE(0, 6);

/** The endpoints in the room's order: its home first, then where its members go when that is gone. */
export function roomEndpointOrder(roomId: string, endpoints: readonly string[]): string[] {
  return endpoints
    .map((endpoint) => ({ endpoint, score: score(roomId, endpoint) }))
    .sort((a, b) => b.score - a.score || (a.endpoint < b.endpoint ? -1 : 1))
    .map(({ endpoint }) => endpoint);
}
