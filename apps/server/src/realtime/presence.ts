import type { Redis } from 'ioredis';

/**
 * Who is in a room, counted per user so that a second tab does not announce a second JOIN and closing one
 * of two tabs does not announce a LEAVE. In-process by default, a Redis hash when nodes share rooms.
 */
export interface Presence {
  /** Returns true when this is the user's first connection in the room. */
  join(roomId: string, username: string): Promise<boolean>;
  /** Returns true when this was the user's last connection in the room. */
  leave(roomId: string, username: string): Promise<boolean>;
}

export function createMemoryPresence(): Presence {
  const counts = new Map<string, number>();
  const key = (roomId: string, username: string) => `${roomId}\u0000${username}`;
  return {
    async join(roomId, username) {
      const next = (counts.get(key(roomId, username)) ?? 0) + 1;
      counts.set(key(roomId, username), next);
      return next === 1;
    },
    async leave(roomId, username) {
      const next = (counts.get(key(roomId, username)) ?? 0) - 1;
      if (next <= 0) counts.delete(key(roomId, username));
      else counts.set(key(roomId, username), next);
      return next <= 0;
    },
  };
}

/** Counts live in `xtalk:presence:{room}`; the hash expires a day after its last change. */
export function createRedisPresence(redis: Redis): Presence {
  const key = (roomId: string) => `xtalk:presence:${roomId}`;
  return {
    async join(roomId, username) {
      const [[, count]] = (await redis
        .multi()
        .hincrby(key(roomId), username, 1)
        .expire(key(roomId), 86_400)
        .exec()) as [[Error | null, number]];
      return count === 1;
    },
    async leave(roomId, username) {
      const count = await redis.hincrby(key(roomId), username, -1);
      if (count <= 0) await redis.hdel(key(roomId), username);
      return count <= 0;
    },
  };
}
