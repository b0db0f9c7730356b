import type { RedisOutage } from '../bus/index.js';
import { createPresenceGate } from './presence-gate.js';
import type { NodeHoldings } from './presence-nodes.js';
import { createMemoryPresence, type Presence } from './presence.js';

const USER = 'presence';

/** What a node counts, each person with the name a LEAVE would say. */
function named(counted: NodeHoldings, nameOf: (roomId: string, username: string) => string | undefined) {
  const people = counted.people.map(([roomId, username, count]): NodeHoldings['people'][number] => [
    roomId,
    username,
    count,
    nameOf(roomId, username),
  ]);
  return { people, listening: counted.listening };
}

/** A count's key: a room and a person's or a language's name. */
const key = (roomId: string, name: string) => `${roomId}\u0000${name}`;

/** Counts per `key`, now exactly `entries`. */
function refill(counts: Map<string, number>, entries: Array<[string, string, number, string?]>) {
  counts.clear();
  for (const [roomId, name, count] of entries) counts.set(key(roomId, name), count);
}

/**
 * Presence shared in Redis, kept in this node's memory as well so that it goes on while Redis is away
 * (decision 0147): then a join or a listener counts here only, and answers come from this node's
 * connections. Only what this node added to the shared counts is taken back from them, so a connection
 * counted here alone never lowers another node's count; a take-back that fails leaves its count behind as
 * a dead node's would (speech made for no one, never the other way round). Should the other nodes sweep
 * this one meanwhile, everything it counts is written to the shared counts again (`writeBack`), with
 * no change under way meanwhile (presence-gate.ts).
 */
export function withMemoryFallback(shared: Presence, outage: RedisOutage): Presence {
  const local = createMemoryPresence();
  const gate = createPresenceGate();
  /** What this node holds in the shared counts, per room and user and per room and language. */
  const sharedJoins = new Map<string, number>();
  const sharedListens = new Map<string, number>();
  /** The display name of each person with a connection here, per room and user (what a LEAVE says). */
  const names = new Map<string, string>();
  const add = (counts: Map<string, number>, name: string, delta: number) => {
    const next = (counts.get(name) ?? 0) + delta;
    if (next <= 0) counts.delete(name);
    else counts.set(name, next);
  };

  /** The shared answer, or undefined while Redis is away. */
  async function ask<T>(work: () => Promise<T>): Promise<T | undefined> {
    if (!outage.usable(USER)) return undefined;
    try {
      return await work();
    } catch (error) {
      outage.failed(USER, error);
      return undefined;
    }
  }

  return {
    join: (roomId, username, displayName) =>
      gate.change(async () => {
        const firstHere = await local.join(roomId, username, displayName);
        if (displayName !== undefined) names.set(key(roomId, username), displayName);
        const first = await ask(() => shared.join(roomId, username, displayName));
        if (first === undefined) return firstHere;
        add(sharedJoins, key(roomId, username), 1);
        return firstHere && first;
      }),
    leave: (roomId, username) =>
      gate.change(async () => {
        const lastHere = await local.leave(roomId, username);
        if (lastHere) names.delete(key(roomId, username));
        if (!sharedJoins.has(key(roomId, username))) return lastHere;
        const last = await ask(() => shared.leave(roomId, username));
        if (last === undefined) return lastHere;
        add(sharedJoins, key(roomId, username), -1);
        return lastHere && last;
      }),
    listen: (roomId, from, to) =>
      gate.change(async () => {
        if (from === to) return;
        await local.listen(roomId, from, to);
        const sharedFrom = from !== undefined && sharedListens.has(key(roomId, from)) ? from : undefined;
        if (sharedFrom === undefined && to === undefined) return;
        const moved = await ask(() => shared.listen(roomId, sharedFrom, to).then(() => true));
        if (!moved) return;
        if (sharedFrom !== undefined) add(sharedListens, key(roomId, sharedFrom), -1);
        if (to !== undefined) add(sharedListens, key(roomId, to), 1);
      }),
    rename: (roomId, person) =>
      gate.change(async () => {
        await local.rename!(roomId, person);
        const at = key(roomId, person.username);
        if (names.has(at)) names.set(at, person.displayUsername);
        // other nodes may count the person too: their shares take the name whatever this one holds
        await ask(() => shared.rename?.(roomId, person) ?? Promise.resolve());
      }),
    writeBack: (write) =>
      gate.exclusive(async () => {
        // everything this node counts goes into the shared counts again, local-only connections too
        const counted = local.counted();
        await write(named(counted, (roomId, username) => names.get(key(roomId, username))));
        refill(sharedJoins, counted.people);
        refill(sharedListens, counted.listening);
      }),
    async page(roomId, cursor, limit) {
      // while Redis is away, the members this node can see are its own
      const answer =
        shared.page && (await ask(async () => ({ page: await shared.page!(roomId, cursor, limit) })));
      return answer ? answer.page : local.page!(roomId, cursor, limit);
    },
    async members(roomId) {
      // while Redis is away, the count this node can see is its own
      return (
        (await ask(() => shared.members?.(roomId) ?? Promise.resolve(undefined))) ?? local.members!(roomId)
      );
    },
    async listens(roomId, language) {
      // a listener on this node is known without asking anyone
      if (await local.listens(roomId, language)) return true;
      return (await ask(() => shared.listens(roomId, language))) ?? false;
    },
  };
}
