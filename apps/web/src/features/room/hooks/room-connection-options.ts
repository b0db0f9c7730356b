import type { ServerFrame } from '@xtalk/protocol';
import type { WebSocketFactory } from '#web/lib/socket-client';

export interface RoomConnectionHandlers {
  onFrame: (frame: ServerFrame) => void;
  onBinary: (data: ArrayBuffer) => void;
  /** A new session was obtained: the message list starts empty. */
  onNewSession: () => void;
  /** The server placed us in `roomId`; the page shows it in the address (?r=). */
  onRoom: (roomId: string) => void;
  /** The token was refused: log in again. */
  onUnauthorized: () => void;
  /** The session of the token was ended on the server (a sign-out elsewhere): signed out, no retry. */
  onSignedOut: () => void;
  /** Joining failed for good (no such room, a malformed code...); the page says so and offers a way on. */
  onJoinFailed: (error: unknown) => void;
}

export interface RoomConnectionOptions extends RoomConnectionHandlers {
  /** The room in the address (?r=), or null. */
  routeRoom: string | null;
  token: string;
  username: string;
  createSocket?: WebSocketFactory;
}
