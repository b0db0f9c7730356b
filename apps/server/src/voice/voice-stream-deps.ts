import type { ServerFrame } from '@xtalk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { AiProvider } from '../ai/index.js';
import type { Author } from '../messages/index.js';
import type { ChatService } from '../messages/index.js';
import type { Charge } from '../translation/index.js';
import type { VoicedOptions } from './voiced.js';
import type { ClipPost } from './voice-input.js';

/* What a voice stream is given: the parts it calls, and the clip it names to the translation side. */

/** The translation side of a running clip (translation/service.ts implements it). */
export interface ClipTranslation {
  /** A committed sentence: translate it now into the room's other languages, chunks tagged with clipId. */
  clipSentence(roomId: string, clip: ClipRef, sentence: string): void;
  /** The clip ended without a message: forget what was translated for it. */
  dropClip(roomId: string, clipId: string): void;
  /** Pay for seconds of the clip's transcription as the engine hears them (stream-payment.ts). */
  payClipAudio(roomId: string, clip: ClipRef, seconds: number): Promise<Charge | void>;
}

export interface ClipRef {
  clipId: string;
  userId: string;
  username: string;
  language: string;
}

export interface VoiceStreamDeps {
  chat: Pick<ChatService, 'findByClientId'>;
  provider: Pick<AiProvider, 'streamingTranscription' | 'startTranscription'>;
  translation: ClipTranslation;
  broadcast(roomId: string, frame: ServerFrame): Promise<void>;
  postClip(connection: Author, data: Uint8Array, seconds: number, post: ClipPost): Promise<boolean>;
  /** Rate limit shared with whole clips (false: refused). */
  takeToken(connection: Author): boolean;
  logger: FastifyBaseLogger;
  maxClipBytes?: number;
  maxClipSeconds?: number;
  captionIntervalMs?: number;
  /** A clip with no piece for this long is dropped (the client went away mid-clip). */
  idleTimeoutMs?: number;
  voiced?: Partial<VoicedOptions>;
}
