import type { SocketClientEvents } from './socket-client-types';

/* The room client's listeners (socket-client.ts), kept per event. */

type Listeners = { [K in keyof SocketClientEvents]: Set<SocketClientEvents[K]> };

export class SocketEmitter {
  private readonly listeners: Listeners = {
    state: new Set(),
    session: new Set(),
    sessionError: new Set(),
    frame: new Set(),
    binary: new Set(),
    close: new Set(),
  };

  /** Adds `listener`; the function returned removes it. */
  on<K extends keyof SocketClientEvents>(event: K, listener: SocketClientEvents[K]): () => void {
    this.listeners[event].add(listener);
    return () => this.listeners[event].delete(listener);
  }

  emit<K extends keyof SocketClientEvents>(event: K, ...args: Parameters<SocketClientEvents[K]>): void {
    for (const listener of this.listeners[event]) (listener as (...a: typeof args) => void)(...args);
  }
}
