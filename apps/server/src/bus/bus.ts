/**
 * Fan-out between nodes. A room's frames are published once, already serialised, on the room's channel;
 * every node subscribed to it hands them to its own connections. In-process by default, Redis pub/sub
 * when REDIS_URL is set so any node can serve any room.
 */
export interface Bus {
  /**
   * Resolves with how many subscriptions (one per node) the payload reached, where the bus can tell: a
   * room's node learns from it that no other node holds the room (delivery/room-reach.ts).
   */
  publish(channel: string, payload: Buffer): Promise<number | void>;
  /** Returns the function that ends this subscription. */
  subscribe(channel: string, handler: (payload: Buffer) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** Whether frames flow now; a bus that cannot fail leaves it out. */
  isConnected?(): boolean;
  /** Called when the bus is back after an outage (frames published meanwhile were lost). */
  onReconnect?(listener: () => void): void;
}

export function createMemoryBus(): Bus {
  // a channel's one handler, or a Set once it has several: most channels (a user's) have one, and a Set
  // per channel would cost memory on every connection
  type Handler = (payload: Buffer) => void;
  const handlers = new Map<string, Handler | Set<Handler>>();
  return {
    async publish(channel, payload) {
      const subscribed = handlers.get(channel);
      if (typeof subscribed === 'function') {
        subscribed(payload);
        return 1;
      }
      for (const handler of subscribed ?? []) handler(payload);
      return subscribed?.size ?? 0;
    },
    async subscribe(channel, handler) {
      const subscribed = handlers.get(channel);
      if (!subscribed) handlers.set(channel, handler);
      else if (subscribed instanceof Set) subscribed.add(handler);
      else if (subscribed !== handler) handlers.set(channel, new Set([subscribed, handler]));
      return async () => {
        const now = handlers.get(channel);
        if (now === handler) handlers.delete(channel);
        else if (now instanceof Set && now.delete(handler) && now.size === 0) handlers.delete(channel);
      };
    },
    async close() {
      handlers.clear();
    },
  };
}
