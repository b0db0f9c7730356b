import type { Bus } from './bus.js';
import { redisOptions } from './redis-outage.js';

/**
 * Redis pub/sub bus. A subscriber connection cannot publish, so there are two. Several local handlers
 * of one channel share one Redis subscription.
 *
 * Neither connection queues commands while Redis is away, nor waits long for an answer (redis-outage.ts):
 * a publish fails at once (the hub then reads the room log instead of waiting), and every channel is
 * subscribed again when the subscriber is back, after which `onReconnect` listeners read from the log whatever was published meanwhile.
 */
export async function createRedisBus(url: string, commandTimeoutMs: number): Promise<Bus> {
  // loaded only with REDIS_URL: one node runs without it (decision 0116)
  const { Redis } = await import('ioredis');
  const options = redisOptions(commandTimeoutMs);
  const publisher = new Redis(url, options);
  // The 'ready' listener below takes the channels back, and answers a failure; ioredis's own
  // resubscribe does not, so a link that drops again meanwhile would reject it unhandled and end the node.
  const subscriber = new Redis(url, { ...options, autoResubscribe: false });
  // errors while Redis is away are expected; the connections retry by themselves
  publisher.on('error', () => undefined);
  subscriber.on('error', () => undefined);
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const handlers = new Map<string, Set<(payload: Buffer) => void>>();
  const reconnectListeners = new Set<() => void>();
  subscriber.on('messageBuffer', (channel: Buffer, payload: Buffer) => {
    for (const handler of handlers.get(channel.toString()) ?? []) handler(payload);
  });
  let closing = false;
  subscriber.on('ready', () => {
    if (closing) return;
    const channels = [...handlers.keys()];
    void (channels.length > 0 ? subscriber.subscribe(...channels) : Promise.resolve())
      .catch(() => undefined)
      .then(() => {
        for (const listener of reconnectListeners) listener();
      });
  });
  return {
    async publish(channel, payload) {
      return publisher.publish(channel, payload);
    },
    async subscribe(channel, handler) {
      let set = handlers.get(channel);
      if (!set) {
        handlers.set(channel, (set = new Set()));
        // While Redis is away this fails; the channel is subscribed again when the subscriber is back.
        await subscriber.subscribe(channel).catch((error: unknown) => {
          if (subscriber.status === 'ready') throw error;
        });
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
    isConnected: () => publisher.status === 'ready' && subscriber.status === 'ready',
    onReconnect(listener) {
      reconnectListeners.add(listener);
    },
    async close() {
      closing = true;
      handlers.clear();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
