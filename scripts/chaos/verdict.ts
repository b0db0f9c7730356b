import type { ResumingClient } from '../../apps/server/src/testing/resuming-client.js';

/*
 * What the run promises, counted from the database (what was stored, in which order) and from each
 * client (what it was told was stored, what it received): every acknowledged message stored once, and
 * every client received every stored message once, in the room's order.
 */

export interface StoredMessage {
  clientId: string;
  seq: number;
}

export interface Verdict {
  messages: number;
  acknowledged: number;
  /** Still in an outbox when the run gave up waiting: never acknowledged. */
  unacknowledged: number;
  /** Acknowledged but not stored, or stored but never received by some client. */
  lost: number;
  /** Stored twice, or received twice by some client. */
  doubled: number;
  /** Received in another order than stored, or the room's sequence has a hole or a repeat. */
  outOfOrder: number;
}

/** Positions where `seen` (duplicates removed) differs from `stored` restricted to what was seen. */
function misordered(seen: string[], stored: string[]): number {
  const unique = [...new Set(seen)];
  const expected = stored.filter((id) => unique.includes(id));
  return expected.filter((id, index) => unique[index] !== id).length;
}

export function judge(clients: ResumingClient[], stored: StoredMessage[], said: number): Verdict {
  const storedIds = stored.map((row) => row.clientId);
  const storedSet = new Set(storedIds);
  const acknowledged = clients.flatMap((client) => [...client.acknowledged]);
  let lost = acknowledged.filter((id) => !storedSet.has(id)).length;
  let doubled = storedIds.length - storedSet.size;
  let outOfOrder = stored.filter((row, index) => row.seq !== index + 1).length;
  for (const client of clients) {
    const seen = client.received.map((frame) => frame.clientId ?? '');
    const seenSet = new Set(seen);
    lost += storedIds.filter((id) => !seenSet.has(id)).length;
    doubled += seen.length - seenSet.size + client.duplicates;
    outOfOrder += misordered(seen, storedIds) + client.gaps;
  }
  return {
    messages: said,
    acknowledged: acknowledged.length,
    unacknowledged: clients.reduce((sum, client) => sum + client.outbox.size, 0),
    lost,
    doubled,
    outOfOrder,
  };
}
