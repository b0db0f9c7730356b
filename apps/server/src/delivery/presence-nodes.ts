import type { ChainableCommander, Redis } from 'ioredis';
import type { Person } from './presence-event.js';

/*
 * Presence that heals when a node dies. Every node writes its share of the rooms' counts (people and
 * listening languages) into a hash of its own, `xtalk:node:{id}:presence`, in the same MULTI as the
 * shared counts, and keeps `xtalk:node:{id}:alive` fresh with a heartbeat (TTL `ttlMs`, renewed every
 * third of it). Each node, on its beat, looks for nodes in `xtalk:nodes` whose alive key has expired and
 * takes their shares back out of the shared counts in one script (atomic, so two nodes never subtract
 * twice). Whoever's count reaches zero then has left: the sweeping node announces the LEAVE. Someone who
 * came back on another node within the TTL still counts there, so the room sees nothing. A node that was
 * only cut off from Redis and was swept meanwhile finds itself missing from `xtalk:nodes` on its next beat
 * and writes its connections' shares again before it does anything else; whoever that brings back into a
 * room's count is announced as joining to the other nodes' members, since they heard them leave (or never
 * heard them come, if they came while Redis was away); this node's own never saw them go.
 */

export interface NodeShares {
  person(multi: ChainableCommander, roomId: string, username: string, delta: number, name?: string): void;
  listening(multi: ChainableCommander, roomId: string, language: string, delta: number): void;
  /** The display names of a room's members, from the shares of every node (the username where none says). */
  names(redis: Redis, roomId: string, usernames: string[]): Promise<string[]>;
  /** Sets a member's display name in the share of every node that counts them in the room. */
  rename(redis: Redis, roomId: string, person: Person): Promise<void>;
}

const NODES = 'xtalk:nodes';
const aliveKey = (nodeId: string) => `xtalk:node:${nodeId}:alive`;
const sharesKey = (nodeId: string) => `xtalk:node:${nodeId}:presence`;
const SEP = '\u0000';

/** Adds to one share; at zero it goes (with the person's name), so the hash holds only live shares. */
const SHARE = `
local c = redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
if c <= 0 then redis.call('HDEL', KEYS[1], ARGV[1], ARGV[3])
elseif ARGV[4] ~= '' then redis.call('HSET', KEYS[1], ARGV[3], ARGV[4]) end
return c`;

/** A new display name in every node's share that counts the person (the names a member list reads). */
const RENAME = `
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local shares = 'xtalk:node:' .. id .. ':presence'
  if redis.call('HEXISTS', shares, ARGV[1]) == 1 then redis.call('HSET', shares, ARGV[2], ARGV[3]) end
end`;

/** Takes a dead node's shares out of the shared counts; returns room, username, name of who left. */
const SWEEP = `
local entries = redis.call('HGETALL', KEYS[1])
local names = {}
for i = 1, #entries, 2 do
  if string.sub(entries[i], 1, 1) == 'n' then names[string.sub(entries[i], 2)] = entries[i + 1] end
end
local left = {}
for i = 1, #entries, 2 do
  local field, n = entries[i], tonumber(entries[i + 1])
  local kind = string.sub(field, 1, 1)
  if (kind == 'p' or kind == 'l') and n and n > 0 then
    local rest = string.sub(field, 3)
    local at = string.find(rest, '\\0', 1, true)
    local room, member = string.sub(rest, 1, at - 1), string.sub(rest, at + 1)
    local key = (kind == 'p' and 'xtalk:presence:' or 'xtalk:listening:') .. room
    if redis.call('HINCRBY', key, member, -n) <= 0 then
      redis.call('HDEL', key, member)
      if kind == 'p' then
        table.insert(left, room)
        table.insert(left, member)
        table.insert(left, names[string.sub(field, 2)] or member)
      end
    end
  end
end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
return left`;

/**
 * A node that was swept (Redis was away longer than its TTL, and another node took its shares back out)
 * writes what its connections hold again: each share is set to the node's own count, and the shared count
 * moves by the difference, so a change that reached Redis after the sweep is not counted twice. Returns
 * room, username, name of each person the room's count had lost and now holds again.
 */
const RESTORE = `
local back = {}
for i = 1, #ARGV, 3 do
  local field, want = ARGV[i], tonumber(ARGV[i + 1])
  local delta = want - (tonumber(redis.call('HGET', KEYS[1], field)) or 0)
  if delta ~= 0 then
    local rest = string.sub(field, 3)
    local at = string.find(rest, '\\0', 1, true)
    local room, member = string.sub(rest, 1, at - 1), string.sub(rest, at + 1)
    local key = (string.sub(field, 1, 1) == 'p' and 'xtalk:presence:' or 'xtalk:listening:') .. room
    local now = redis.call('HINCRBY', key, member, delta)
    if now <= 0 then redis.call('HDEL', key, member)
    elseif now - delta <= 0 and string.sub(field, 1, 1) == 'p' then
      table.insert(back, room)
      table.insert(back, member)
      table.insert(back, ARGV[i + 2] ~= '' and ARGV[i + 2] or member)
    end
    redis.call('EXPIRE', key, 86400)
    if redis.call('HINCRBY', KEYS[1], field, delta) <= 0 then redis.call('HDEL', KEYS[1], field) end
  end
  if ARGV[i + 2] ~= '' then redis.call('HSET', KEYS[1], 'n' .. string.sub(field, 2), ARGV[i + 2]) end
end
redis.call('EXPIRE', KEYS[1], 86400)
return back`;
/** Shares written per script call, so one call never holds Redis for long. */
const RESTORE_BATCH = 500;

/** What a node's connections hold: [room, username, connections, display name] and [room, language, connections]. */
export interface NodeHoldings {
  people: Array<[string, string, number, string?]>;
  listening: Array<[string, string, number]>;
}

export function nodeShares(nodeId: string): NodeShares {
  const key = sharesKey(nodeId);
  return {
    person(multi, roomId, username, delta, name) {
      const at = `${SEP}${roomId}${SEP}${username}`;
      multi.eval(SHARE, 1, key, `p${at}`, delta, `n${at}`, name ?? '');
    },
    listening(multi, roomId, language, delta) {
      multi.eval(SHARE, 1, key, `l${SEP}${roomId}${SEP}${language}`, delta, '', '');
    },
    async names(redis, roomId, usernames) {
      if (usernames.length === 0) return [];
      const nodes = await redis.smembers(NODES);
      const fields = usernames.map((username) => `n${SEP}${roomId}${SEP}${username}`);
      const pipeline = redis.pipeline();
      for (const id of nodes) pipeline.hmget(sharesKey(id), ...fields);
      const replies = ((await pipeline.exec()) ?? []).map(
        ([, names]) => (names ?? []) as Array<string | null>,
      );
      return usernames.map((username, at) => replies.find((names) => names[at])?.[at] ?? username);
    },
    async rename(redis, roomId, { username, displayUsername }) {
      const at = `${SEP}${roomId}${SEP}${username}`;
      await redis.eval(RENAME, 1, NODES, `p${at}`, `n${at}`, displayUsername);
    },
  };
}

export interface NodeHeartbeat {
  /** One beat and sweep now (tests); the timer runs them on its own. */
  beat(): Promise<void>;
  /** Stops beating and withdraws this node (its connections have left by then). */
  stop(): Promise<void>;
}

export function startNodeHeartbeat(options: {
  redis: Redis;
  nodeId: string;
  ttlMs: number;
  /** Someone of a dead node's rooms whose last connection was there. */
  left: (roomId: string, person: Person) => void;
  /** Someone this node brought back into a room's count after it was swept (for the other nodes). */
  joined?: (roomId: string, person: Person) => void;
  warn: (error: unknown) => void;
  /** Hands over what this node's connections hold, to write again when the node finds it was swept. */
  writeBack?: (write: (held: NodeHoldings) => Promise<void>) => Promise<void>;
}): NodeHeartbeat {
  const { redis, nodeId, ttlMs } = options;
  let unwritten = false;

  async function write(held: NodeHoldings): Promise<string[]> {
    const args: string[] = [];
    for (const [roomId, username, count, name] of held.people)
      args.push(`p${SEP}${roomId}${SEP}${username}`, String(count), name ?? '');
    for (const [roomId, language, count] of held.listening)
      args.push(`l${SEP}${roomId}${SEP}${language}`, String(count), '');
    const back: string[] = [];
    for (let at = 0; at < args.length; at += RESTORE_BATCH * 3) {
      const batch = args.slice(at, at + RESTORE_BATCH * 3);
      back.push(...((await redis.eval(RESTORE, 1, sharesKey(nodeId), ...batch)) as string[]));
    }
    return back;
  }

  async function restore() {
    let back: string[] = [];
    await options.writeBack?.(async (held) => {
      back = await write(held);
    });
    for (let at = 0; at + 2 < back.length; at += 3)
      options.joined?.(back[at]!, { username: back[at + 1]!, displayUsername: back[at + 2]! });
  }

  async function beat() {
    const replies = await redis
      .multi()
      .set(aliveKey(nodeId), '1', 'PX', ttlMs)
      .sadd(NODES, nodeId)
      .expire(sharesKey(nodeId), 86_400)
      .exec();
    // not in the set of nodes: first beat, or swept while Redis was away (a sweep removes it with its shares);
    // a write-back that failed half way is tried again on the next beat
    if (replies?.[1]?.[1] === 1) unwritten = true;
    if (unwritten) {
      await restore();
      unwritten = false;
    }
    const others = (await redis.smembers(NODES)).filter((id) => id !== nodeId);
    if (others.length === 0) return;
    const pipeline = redis.pipeline();
    for (const id of others) pipeline.exists(aliveKey(id));
    const alive = (await pipeline.exec()) ?? [];
    for (const [i, id] of others.entries()) {
      if (alive[i]?.[1] !== 0) continue;
      const left = (await redis.eval(SWEEP, 2, sharesKey(id), NODES, id)) as string[];
      for (let at = 0; at + 2 < left.length; at += 3)
        options.left(left[at]!, { username: left[at + 1]!, displayUsername: left[at + 2]! });
    }
  }
  const run = () => void beat().catch(options.warn);
  const timer = setInterval(run, Math.max(250, ttlMs / 3));
  timer.unref?.();
  run();
  return {
    beat,
    async stop() {
      clearInterval(timer);
      await redis
        .multi()
        .del(aliveKey(nodeId))
        .srem(NODES, nodeId)
        .del(sharesKey(nodeId))
        .exec()
        .catch(options.warn);
    },
  };
}
