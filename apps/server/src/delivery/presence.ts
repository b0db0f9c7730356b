import type { Redis } from 'ioredis';
import { readCursor, scanCursor, sortedPage } from './member-pages.js';
import type { Person } from './presence-event.js';
import type { NodeHoldings, NodeShares } from './presence-nodes.js';

/**
 * Who is in a room, counted per user so that a second tab does not announce a second JOIN and closing one
 * of two tabs does not announce a LEAVE. In-process by default, a Redis hash when nodes share rooms.
 */
export interface Presence {
  /**
   * Returns true when this is the user's first connection in the room. `displayName` is what a LEAVE says
   * should this node die with the connection open (presence-nodes.ts).
   */
  join(roomId: string, username: string, displayName?: string): Promise<boolean>;
  /** Returns true when this was the user's last connection in the room. */
  leave(roomId: string, username: string): Promise<boolean>;
  /**
   * Moves one connection's listening language in the room (decision 0137): `from` undefined, it starts
   * listening; `to` undefined, it stops. Counted per connection: two tabs in one language count twice.
   */
  listen(roomId: string, from: string | undefined, to: string | undefined): Promise<void>;
  /** Whether any connection in the room, on any node, listens in `language`. */
  listens(roomId: string, language: string): Promise<boolean>;
  /** How many people (not connections) are in the room, on every node: a hot room's count. */
  members?(roomId: string): Promise<number>;
  /**
   * Hands `write` what this node's connections hold, to write into the shared counts again when other
   * nodes swept this one while Redis was away (presence-nodes.ts); no change is under way meanwhile. Once
   * `write` resolves, the shared counts hold it all again.
   */
  writeBack?(write: (held: NodeHoldings) => Promise<void>): Promise<void>;
  /** Lists `person` under their display name from now on, on every node that counts them in the room. */
  rename?(roomId: string, person: Person): Promise<void>;
  /**
   * A page of the room's members on every node, from `cursor` (undefined: the first page); undefined for
   * a cursor this presence never gave. The page's `cursor` leads to the next one; none: the last.
   */
  page?(roomId: string, cursor: string | undefined, limit: number): Promise<MemberPage | undefined>;
}

export interface MemberPage {
  people: Person[];
  cursor?: string;
}

/** A memory presence that can list what it counts (what a node would hold in the shared counts). */
export interface MemoryPresence extends Presence {
  counted(): NodeHoldings;
}

/**
 * What a connection that takes a message's speech as one WAV (a client before sentence-by-sentence speech)
 * listens in besides its language, so the WAV is made only while such a listener is in the room.
 */
export const wholeAudioIn = (language: string) => `wav:${language}`;

/** Adds `delta` to a count in a map, removing it at zero. */
function add(counts: Map<string, number>, key: string, delta: number): number {
  const next = (counts.get(key) ?? 0) + delta;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
  return next;
}

/** `${roomId}\u0000${name}` keys with their counts, as [roomId, name, count]. */
function split(counts: Map<string, number>): Array<[string, string, number]> {
  return [...counts].map(([key, count]) => {
    const at = key.indexOf('\u0000');
    return [key.slice(0, at), key.slice(at + 1), count];
  });
}

/** A page of one node's roster, in username order. */
function rosterPage(roster: Map<string, string> | undefined, cursor: string | undefined, limit: number) {
  const at = readCursor(cursor);
  if (!at || 'scan' in at) return undefined;
  const { usernames, ...next } = sortedPage(roster?.keys() ?? [], at.after, limit);
  return {
    people: usernames.map((username) => ({ username, displayUsername: roster!.get(username)! })),
    ...next,
  };
}

export function createMemoryPresence(): MemoryPresence {
  const counts = new Map<string, number>();
  const listening = new Map<string, number>();
  /** Each room's people (username to display name): its count and its member list. */
  const rosters = new Map<string, Map<string, string>>();
  const key = (roomId: string, username: string) => `${roomId}\u0000${username}`;
  return {
    counted: () => ({ people: split(counts), listening: split(listening) }),
    async members(roomId) {
      return rosters.get(roomId)?.size ?? 0;
    },
    async page(roomId, cursor, limit) {
      return rosterPage(rosters.get(roomId), cursor, limit);
    },
    async rename(roomId, { username, displayUsername }) {
      const roster = rosters.get(roomId);
      if (roster?.has(username)) roster.set(username, displayUsername);
    },
    async listen(roomId, from, to) {
      if (from === to) return;
      if (from !== undefined) add(listening, key(roomId, from), -1);
      if (to !== undefined) add(listening, key(roomId, to), 1);
    },
    async listens(roomId, language) {
      return (listening.get(key(roomId, language)) ?? 0) > 0;
    },
    async join(roomId, username, displayName) {
      const first = add(counts, key(roomId, username), 1) === 1;
      let roster = rosters.get(roomId);
      if (!roster) rosters.set(roomId, (roster = new Map()));
      if (first || displayName !== undefined) roster.set(username, displayName ?? username);
      return first;
    },
    async leave(roomId, username) {
      if (!counts.has(key(roomId, username))) return true;
      const last = add(counts, key(roomId, username), -1) <= 0;
      const roster = rosters.get(roomId);
      if (last && roster) {
        roster.delete(username);
        if (roster.size === 0) rosters.delete(roomId);
      }
      return last;
    },
  };
}

/**
 * Counts live in `xtalk:presence:{room}` (per user) and `xtalk:listening:{room}` (per language); each hash
 * expires a day after its last change. With `node`, each change is also written down as this node's share
 * (presence-nodes.ts), which the other nodes take back out when this one stops answering.
 */
export function createRedisPresence(redis: Redis, node?: NodeShares): Presence {
  const key = (roomId: string) => `xtalk:presence:${roomId}`;
  const listeningKey = (roomId: string) => `xtalk:listening:${roomId}`;
  return {
    async listen(roomId, from, to) {
      if (from === to) return;
      const multi = redis.multi();
      if (from !== undefined) multi.hincrby(listeningKey(roomId), from, -1);
      if (to !== undefined) multi.hincrby(listeningKey(roomId), to, 1);
      if (from !== undefined) node?.listening(multi, roomId, from, -1);
      if (to !== undefined) node?.listening(multi, roomId, to, 1);
      await multi.expire(listeningKey(roomId), 86_400).exec();
    },
    async rename(roomId, person) {
      await node?.rename(redis, roomId, person);
    },
    async listens(roomId, language) {
      return Number((await redis.hget(listeningKey(roomId), language)) ?? 0) > 0;
    },
    async members(roomId) {
      return redis.hlen(key(roomId));
    },
    async page(roomId, cursor, limit) {
      const at = readCursor(cursor);
      if (!at) return undefined;
      let page: { usernames: string[]; cursor?: string };
      if ('after' in at && at.after !== undefined)
        page = sortedPage(await redis.hkeys(key(roomId)), at.after, limit);
      else {
        const [next, entries] = await redis.hscan(key(roomId), 'scan' in at ? at.scan : '0', 'COUNT', limit);
        const usernames = entries.filter((_, index) => index % 2 === 0);
        // a small hash is scanned whole at once: it is paged in username order instead
        page =
          usernames.length > limit && next === '0'
            ? sortedPage(usernames, undefined, limit)
            : { usernames, ...(scanCursor(next) ? { cursor: scanCursor(next)! } : {}) };
      }
      const names = node ? await node.names(redis, roomId, page.usernames) : page.usernames;
      const people = page.usernames.map((username, index) => ({ username, displayUsername: names[index]! }));
      return { people, ...(page.cursor ? { cursor: page.cursor } : {}) };
    },
    async join(roomId, username, displayName) {
      const multi = redis.multi().hincrby(key(roomId), username, 1).expire(key(roomId), 86_400);
      node?.person(multi, roomId, username, 1, displayName);
      const [[, count]] = (await multi.exec()) as [[Error | null, number]];
      return count === 1;
    },
    async leave(roomId, username) {
      const multi = redis.multi().hincrby(key(roomId), username, -1);
      node?.person(multi, roomId, username, -1);
      const [[, count]] = (await multi.exec()) as [[Error | null, number]];
      if (count <= 0) await redis.hdel(key(roomId), username);
      return count <= 0;
    },
  };
}
