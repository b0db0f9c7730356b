import { ApiPath, CloseCode } from '@xtalk/protocol';
import type { SocketClient } from './socket-client';

/*
 * Where the room's socket opens: the nodes' own addresses when the server lists them (PUBLIC_WS_ENDPOINTS,
 * told with every session), else the page's own origin (one node, or one address in front of several).
 * A client starts at a random one of the list, so a room's people spread over the nodes, and after a
 * connection that failed or was cut it opens the next one, round the list. The client's backoff, and
 * its resume by offset, carry on exactly as with one address: only the address changes.
 */

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

  constructor(
    private readonly pageOrigin: string,
    private readonly random: () => number = Math.random,
  ) {}

  /** The list a join answered with; while it stays the same, so does the place in it. */
  use(list: readonly string[] | undefined = []): void {
    if (list.join() === this.list.join()) return;
    this.list = list;
    this.at = Math.floor(this.random() * list.length);
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
}
