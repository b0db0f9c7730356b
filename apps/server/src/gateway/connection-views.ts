import type { ServerFrame } from '@xtalk/protocol';
import type { Author } from '../messages/index.js';
import type { Joiner } from './connection-ports.js';
import type { HubMember, UserMember } from '../delivery/index.js';

// How the rest of the server sees a connection. Small classes over the connection, their methods on the
// prototype, so an idle connection costs a handful of objects (docs/decisions/0087-connection-memory.md).

/** What the views read of a connection: who and where it is, its outputs and its clip's client id. */
export interface ViewedConnection extends Pick<
  Joiner,
  'roomId' | 'user' | 'displayName' | 'language' | 'protocolVersion' | 'pending' | 'sendFrame' | 'sendLogged'
> {
  readonly logFields: Author['logFields'];
  clipClientId: string | undefined;
  deliverAudio(wav: Buffer): void;
  deliverSpeech(json: Buffer, ogg: Buffer): void;
  /** Takes the user's saved profile, renamed on another of their connections. */
  followRename(): void;
}

/** How the room hub and the user channel see a connection: one small object for both views. */
export class MemberView implements HubMember, UserMember {
  constructor(private readonly connection: ViewedConnection) {}
  get roomId() {
    return this.connection.roomId;
  }
  get userId() {
    return this.connection.user.id;
  }
  username() {
    return this.connection.user.username;
  }
  language() {
    return this.connection.language;
  }
  protocolVersion() {
    return this.connection.protocolVersion;
  }
  deliverText(json: Buffer, offset?: number) {
    const connection = this.connection;
    if (connection.pending) connection.pending.push({ json, offset });
    else connection.sendLogged(json, offset);
  }
  deliverAudio(wav: Buffer) {
    this.connection.deliverAudio(wav);
  }
  deliverSpeech(json: Buffer, ogg: Buffer) {
    this.connection.deliverSpeech(json, ogg);
  }
  renamed() {
    this.connection.followRename();
  }
}

/** What voice input sees of a connection; made on first use (most connections never send voice). */
export class VoiceContext implements Author {
  constructor(private readonly connection: ViewedConnection) {}
  get roomId() {
    return this.connection.roomId;
  }
  get userId() {
    return this.connection.user.id;
  }
  get logFields() {
    return this.connection.logFields;
  }
  username() {
    return this.connection.user.username;
  }
  displayUsername() {
    return this.connection.displayName;
  }
  language() {
    return this.connection.language;
  }
  sendFrame(frame: ServerFrame) {
    this.connection.sendFrame(frame);
  }
  takeClipClientId() {
    const clientId = this.connection.clipClientId;
    this.connection.clipClientId = undefined;
    return clientId;
  }
}
