import type { ServerFrame } from '@xtalk/protocol';

/**
 * The person a message comes from, as their connection offers them to the message path: who they are, in
 * which room and language, and where answers meant for them alone go (a clip's captions, an engine's
 * refusal, a summary). Voice and summaries speak to an author, never to a socket.
 */
export interface Author {
  readonly roomId: string;
  readonly userId: string;
  username(): string;
  /** The name shown for the user now (follows renames). */
  displayUsername(): string;
  language(): string;
  sendFrame(frame: ServerFrame): void;
  /** The client id announced (voiceClip) for the next voice clip, taken once. */
  takeClipClientId(): string | undefined;
  /** Who a log line is about (request id, room, user); unset: the room and user alone. */
  readonly logFields?: { reqId: string; room: string; user: string };
}
