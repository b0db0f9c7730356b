import { Redis } from 'ioredis';
import type { Bus } from './bus.js';

/**
 * Redis pub/sub bus. A subscriber connection cannot publish, so there are two. Several local handlers
 * of one channel share one Redis subscription.
 */
export async function createRedisBus(url: string): Promise<Bus> {
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const subscriber = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const handlers = new Map<string, Set<(payload: Buffer) => void>>();
  subscriber.on('messageBuffer', (channel: Buffer, payload: Buffer) => {
    for (const handler of handlers.get(channel.toString()) ?? []) handler(payload);
  });
  return {
    async publish(channel, payload) {
      await publisher.publish(channel, payload);
    },
    async subscribe(channel, handler) {
      let set = handlers.get(channel);
      if (!set) {
        handlers.set(channel, (set = new Set()));
        await subscriber.subscribe(channel);
      }
      set.add(handler);
      return async () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(channel) === set) {
          handlers.delete(channel);
          await subscriber.unsubscribe(channel).catch(() => undefined);
        }
      };
    },
    async close() {
      handlers.clear();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
