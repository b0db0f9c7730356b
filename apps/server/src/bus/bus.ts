/**
 * Fan-out between nodes. A room's frames are published once, already serialised, on the room's channel;
 * every node subscribed to it hands them to its own connections. In-process by default, Redis pub/sub
 * when REDIS_URL is set so any node can serve any room.
 */
export interface Bus {
  publish(channel: string, payload: Buffer): Promise<void>;
  /** Returns the function that ends this subscription. */
  subscribe(channel: string, handler: (payload: Buffer) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** Whether frames flow now; a bus that cannot fail leaves it out. */
  isConnected?(): boolean;
  /** Called when the bus is back after an outage (frames published meanwhile were lost). */
  onReconnect?(listener: () => void): void;
}

export function createMemoryBus(): Bus {
  const handlers = new Map<string, Set<(payload: Buffer) => void>>();
  return {
    async publish(channel, payload) {
      for (const handler of handlers.get(channel) ?? []) handler(payload);
    },
    async subscribe(channel, handler) {
      let set = handlers.get(channel);
      if (!set) handlers.set(channel, (set = new Set()));
      set.add(handler);
      return async () => {
        set.delete(handler);
        if (set.size === 0) handlers.delete(channel);
      };
    },
    async close() {
      handlers.clear();
    },
  };
}
