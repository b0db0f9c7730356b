import { ApiPath, CloseCode } from '@xtalk/protocol';
import type { SocketClient } from './socket-client';

/*
 * Where the room's socket opens: the nodes' own addresses when the server lists them (PUBLIC_WS_ENDPOINTS,
 * told with every session), else the page's own origin (one node, or one address in front of several).
 * A client starts at a random one of the list, so a room's people spread over the nodes, and after a
 * connection that failed or was cut it opens the next one, round the list. The client's backoff, and
 * its resume by offset, carry on exactly as with one address: only the address changes.
 *
 * When the join also names the room's own order (roomEndpoints, decision 0237), the client goes by it
 * instead: the room's home first, so the room's members share a node. Away from the home (it was down),
 * the client looks at it again after a random while and, when it answers, moves back as a handover.
 */

/** How long after settling away from the room's home it is looked at again: at random in this range (ms). */
export const HOME_CHECK_MS = { min: 30_000, max: 90_000 } as const;

/** http(s)://host/api/health/ready of a ws(s):// origin: a node that takes work answers it. */
export function readinessUrlOf(origin: string): string {
  return `${origin.replace(/^ws/, 'http')}${ApiPath.healthReady}`;
}

/** Whether a node takes work: its readiness, which every node lets any page read. */
export async function nodeAnswers(origin: string): Promise<boolean> {
  try {
    return (await fetch(readinessUrlOf(origin), { cache: 'no-store' })).ok;
  } catch {
    return false;
  }
}

/** ws(s)://host of the page itself. */
export function pageSocketOrigin(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}`;
}

/** ws(s)://host/xtalk_ws/{sessionId}?t={token} on `origin`. */
export function socketUrlOn(origin: string, sessionId: string, token: string): string {
  return `${origin}${ApiPath.socket(sessionId)}?t=${encodeURIComponent(token)}`;
}

export class SocketEndpoints {
  private list: readonly string[] = [];
  private at = 0;
  /** Whether `list` is the room's own order (its home first). */
  private ordered = false;

  constructor(
    private readonly pageOrigin: string,
    private readonly random: () => number = Math.random,
  ) {}

  /**
   * The list a join answered with; while it stays the same, so does the place in it. With the room's own
   * order the place starts at its home, else at random.
   */
  use(list: readonly string[] | undefined = [], roomOrder?: readonly string[]): void {
    const ordered = (roomOrder?.length ?? 0) > 0;
    const next = ordered ? roomOrder! : list;
    if (next.join() === this.list.join() && ordered === this.ordered) return;
    this.list = next;
    this.ordered = ordered;
    this.at = ordered ? 0 : Math.floor(this.random() * next.length);
  }

  /** Whether the socket opens on the room's home (or no order says where that is). */
  get atHome(): boolean {
    return !this.ordered || this.at % this.list.length === 0;
  }

  /** The origin the next socket opens on. */
  get current(): string {
    return this.list[this.at % this.list.length] ?? this.pageOrigin;
  }

  /** The socket on `current` failed or was cut: the next one opens on the next address. */
  failed(): void {
    this.at += 1;
  }

  /**
   * Moves on after every close of the connection itself (1001-1015: cut, failed, the node restarting
   * or ailing); a normal close, or the application's own codes (4xxx), keep the place.
   */
  follow(client: Pick<SocketClient, 'on'>): () => void {
    return client.on('close', (code) => {
      if (code !== CloseCode.Normal && code < 4000) this.failed();
    });
  }

  /**
   * Once ready away from the room's home, looks at the home again after a random while and moves back
   * when it answers (as a handover: no banner); a home still away is looked at again later. The random
   * wait spreads a room's returns, so a node that comes back is not met by all its people at once.
   */
  returnHome(
    client: Pick<SocketClient, 'on' | 'move' | 'state'>,
    answers: (origin: string) => Promise<boolean> = nodeAnswers,
  ): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const plan = () => {
      if (timer || this.atHome) return;
      const wait = HOME_CHECK_MS.min + this.random() * (HOME_CHECK_MS.max - HOME_CHECK_MS.min);
      timer = setTimeout(() => void check(), wait);
    };
    const check = async () => {
      const home = this.list[0];
      const back = home !== undefined && (await answers(home));
      timer = undefined;
      if (this.atHome || client.state !== 'ready') return;
      if (!back) return plan();
      this.at = 0;
      client.move();
    };
    const off = client.on('state', (state) => {
      if (state === 'ready') plan();
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }
}
