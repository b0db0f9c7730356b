/*
 * Caps on open sockets, counted on this node (docs/decisions/0070-limits-on-every-door.md): per client
 * address, per user, and one per session. The address is checked before the token is verified (cheap, and
 * a refused client costs nothing); the user after. A second socket for a session replaces the first: that
 * is a reconnect whose old socket has not noticed yet that it is dead.
 */

export interface SocketCapSettings {
  perIp: number;
  perUser: number;
  /** How long a user closed for flooding is refused new sockets (ms). */
  floodCooldownMs: number;
}

export interface CappedSocket {
  /** Closes the socket because another one took over its session. */
  replace(): void;
}

export function createSocketCaps(settings: SocketCapSettings, clock: { now(): number } = Date) {
  const byIp = new Map<string, number>();
  /** Users closed for flooding, until when they are refused (a flooder's reconnect loop costs nothing). */
  const cooling = new Map<string, number>();
  /**
   * Open sessions per user: a count, not a set of session ids (memory per connection); whether a
   * session is open is bySession's to say (a session belongs to one user).
   */
  const byUser = new Map<string, number>();
  const bySession = new Map<string, CappedSocket>();
  /** Upgrades between the address check and open, so a burst of handshakes cannot overshoot. */
  const pendingByIp = new Map<string, number>();

  const count = (map: Map<string, number>, key: string, delta: number) => {
    const next = (map.get(key) ?? 0) + delta;
    if (next <= 0) map.delete(key);
    else map.set(key, next);
  };

  return {
    /** Room for one more socket from this address (counting handshakes under way); reserves it. */
    reserveIp(ip: string): boolean {
      if ((byIp.get(ip) ?? 0) + (pendingByIp.get(ip) ?? 0) >= settings.perIp) return false;
      count(pendingByIp, ip, 1);
      return true;
    },
    /** Gives back a reservation that did not become a socket. */
    releaseIp(ip: string): void {
      count(pendingByIp, ip, -1);
    },
    /**
     * Whether the user may open another socket: a session of theirs already open does not count (it is
     * about to be replaced).
     */
    userHasRoom(userId: string, sessionId: string): boolean {
      if (bySession.has(sessionId)) return true;
      return (byUser.get(userId) ?? 0) < settings.perUser;
    },
    /** The reserved handshake became a socket; a socket already open for the session is replaced. */
    open(ip: string, userId: string, sessionId: string, socket: CappedSocket): void {
      count(pendingByIp, ip, -1);
      const previous = bySession.get(sessionId);
      bySession.set(sessionId, socket);
      count(byIp, ip, 1);
      if (!previous) count(byUser, userId, 1);
      previous?.replace();
    },
    /**
     * The socket `open` counted has closed (once per socket). Its caller keeps the address and ids, not a
     * release closure per socket (memory per connection).
     */
    close(ip: string, userId: string, sessionId: string, socket: CappedSocket): void {
      count(byIp, ip, -1);
      if (bySession.get(sessionId) !== socket) return; // replaced: the session lives on in the new socket
      bySession.delete(sessionId);
      count(byUser, userId, -1);
    },
    /** Whether the user is in a flood cool-down (refused new sockets). */
    cooling(userId: string): boolean {
      const until = cooling.get(userId);
      if (until === undefined) return false;
      if (clock.now() < until) return true;
      cooling.delete(userId);
      return false;
    },
    /** The user flooded: refuse their new sockets for the cool-down. */
    penalise(userId: string): void {
      if (settings.floodCooldownMs > 0) cooling.set(userId, clock.now() + settings.floodCooldownMs);
    },
    stats: () => ({ addresses: byIp.size, users: byUser.size, sessions: bySession.size }),
  };
}
export type SocketCaps = ReturnType<typeof createSocketCaps>;

/**
 * The client's address of an upgrade request, as Fastify's `request.ip` with `trustProxy` set to the same
 * number of hops: the direct peer, or the entry that many hops back in X-Forwarded-For.
 */
export function clientAddress(
  request: { socket: { remoteAddress?: string }; headers: Record<string, string | string[] | undefined> },
  trustedHops: number,
): string {
  const direct = request.socket.remoteAddress ?? 'unknown';
  if (trustedHops <= 0) return direct;
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const chain = [direct, ...forwarded.reverse()];
  return chain[Math.min(trustedHops, chain.length - 1)]!;
}
