/*
 * A LEAVE waits a moment (decision 0140). A reload, a phone moving between networks or a socket the
 * client gave up (decision 0139) closes the socket and opens a new one a second or two later. Announced at once,
 * each of those shows everyone in the room '{name} has left the chat' and then '... has joined the chat'.
 * Instead, a closed connection keeps its place in the room's presence count for the grace: a new
 * connection of the same user within it is not a first one (no JOIN), and the old one's leave then is not
 * the last (no LEAVE). Someone who really left is announced the grace later. Counts and announcements are
 * otherwise unchanged, so this holds across nodes as presence does.
 */

export interface Departures {
  /** Resolves after the grace, or at once when there is none or the server is closing. */
  wait(): Promise<void>;
  /** Ends every wait now and every later one at once (shutdown: the leaves are announced before it). */
  release(): void;
}

export function createDepartures(graceMs: number): Departures {
  const waiting = new Map<ReturnType<typeof setTimeout>, () => void>();
  let released = false;
  return {
    wait() {
      if (released || graceMs <= 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(timer);
          resolve();
        }, graceMs);
        timer.unref?.();
        waiting.set(timer, resolve);
      });
    },
    release() {
      released = true;
      for (const [timer, resolve] of waiting) {
        clearTimeout(timer);
        resolve();
      }
      waiting.clear();
    },
  };
}
