import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.js';

/*
 * People a restart sent away (decision 0161). A shutdown closes every socket without a LEAVE (decision 0140),
 * and the new process starts with an empty presence: everyone coming back would be a first join and be
 * announced as joining. So at shutdown the server writes down who was in which room, and a first join of
 * one of them within the LEAVE grace is not announced. In one process the list waits in DATA_DIR and the
 * grace counts from the new process's start (a restart may take longer than the grace); with Redis, other
 * nodes take the people over at once and the grace counts from the shutdown.
 */

export interface Present {
  roomId: string;
  username: string;
}

export interface Returners {
  /** At shutdown: who was in which room. */
  remember(people: readonly Present[]): Promise<void>;
  /** Whether this first join is someone a restart sent away, back within the grace; asked once each. */
  returning(roomId: string, username: string): Promise<boolean>;
}

const keyOf = (roomId: string, username: string) => `${roomId}\u0000${username}`;

/** One process: the list is a file in DATA_DIR, read (and removed) when the next process starts. */
export function createFileReturners(path: string, graceMs: number, clock: Clock): Returners {
  const until = clock.now() + graceMs;
  const waiting = new Set<string>();
  try {
    const people = JSON.parse(readFileSync(path, 'utf8')) as Present[];
    for (const { roomId, username } of people) waiting.add(keyOf(roomId, username));
    rmSync(path, { force: true });
  } catch {
    // no list (a first start, or the last process did not shut down cleanly): nobody is waited for
  }
  return {
    async remember(people) {
      if (graceMs <= 0 || people.length === 0) return;
      writeFileSync(path, JSON.stringify(people.map(({ roomId, username }) => ({ roomId, username }))));
    },
    async returning(roomId, username) {
      if (clock.now() > until) {
        waiting.clear();
        return false;
      }
      return waiting.delete(keyOf(roomId, username));
    },
  };
}

/** Nodes sharing Redis: `xtalk:returning:{room}` maps each person to the end of their grace. */
export function createRedisReturners(redis: Redis, graceMs: number, clock: Clock): Returners {
  const key = (roomId: string) => `xtalk:returning:${roomId}`;
  return {
    async remember(people) {
      if (graceMs <= 0 || people.length === 0) return;
      const until = clock.now() + graceMs;
      const multi = redis.multi();
      for (const { roomId, username } of people) {
        multi.hset(key(roomId), username, String(until)).pexpire(key(roomId), graceMs);
      }
      await multi.exec();
    },
    async returning(roomId, username) {
      const [[, until]] = (await redis
        .multi()
        .hget(key(roomId), username)
        .hdel(key(roomId), username)
        .exec()) as [[Error | null, string | null], [Error | null, number]];
      return until !== null && Number(until) >= clock.now();
    },
  };
}
