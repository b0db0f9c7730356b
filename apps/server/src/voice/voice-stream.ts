import {
  MAX_AUDIO_CLIP_BYTES,
  MAX_AUDIO_CLIP_SECONDS,
  RECORDING_MIN_MS,
  type ErrorCode,
  type ServerFrame,
  type VoiceEndFrame,
  type VoiceStartFrame,
} from '@xtalk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { createLogSampler, type LogSampler } from '../log-sampler.js';
import type { AiProvider, TranscriptionStream, TranscriptUpdate } from '../ai/index.js';
import { splitSentences } from '../ai/index.js';
import { createOpusStreamDecoder, OggOpusStream, type OpusStreamDecoder } from '../audio/index.js';
import type { ConnectionContext } from '../realtime/connection.js';
import type { ChatService } from '../rooms/chat-service.js';
import { analyseVoice, type VoicedAnalysis, type VoicedOptions } from './voiced.js';
import { createStreamPayment, type StreamPayment } from './stream-payment.js';
import { DURATION_MARGIN_SECONDS, creditRefusal, type ClipPost } from './voice-input.js';
import type { Charge } from '../translation/ports.js';

/*
 * Streaming voice (protocol 3): `voiceStart`, binary frames of whole Ogg pages, `voiceEnd`.
 * Each piece is checked as it arrives (ogg-stream.ts: pages, CRC, order, size, 60 s); the engine starts
 * only once the audio so far holds voice (never silence to a speech model), gets every piece from then
 * on, and its growing text goes to the room as `captionPartial`, at most one every `captionIntervalMs`.
 * Every sentence the engine commits is translated at once (ClipTranslation). At `voiceEnd` the whole clip
 * takes the path a whole clip takes (voiced check, metered transcription: the engine's final text,
 * hallucination filter, post with the clipId); only the tail is left to translate.
 * A refused clip is told to the speaker (with its clipId), its caption withdrawn (empty text), and its
 * later pieces are dropped quietly until its voiceEnd.
 */

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
  postClip(
    connection: ConnectionContext,
    data: Uint8Array,
    seconds: number,
    post: ClipPost,
  ): Promise<boolean>;
  /** Rate limit shared with whole clips (false: refused). */
  takeToken(connection: ConnectionContext): boolean;
  logger: FastifyBaseLogger;
  maxClipBytes?: number;
  maxClipSeconds?: number;
  captionIntervalMs?: number;
  /** A clip with no piece for this long is dropped (the client went away mid-clip). */
  idleTimeoutMs?: number;
  voiced?: Partial<VoicedOptions>;
}

interface Clip {
  id: string;
  language: string;
  ogg: OggOpusStream;
  /** Refused or duplicate: later pieces are dropped quietly. */
  state: 'open' | 'failed' | 'duplicate' | 'ending';
  decoder: OpusStreamDecoder | undefined;
  decoding: Promise<void>;
  voicedMs: number;
  analysedMs: number;
  peakDb: number;
  engine: TranscriptionStream | undefined;
  /** Set with the engine: its transcription paid for block by block as it is heard. */
  payment: StreamPayment | undefined;
  caption: { sent: string; latest: string; at: number; timer?: NodeJS.Timeout };
  committedSentences: number;
  idle?: NodeJS.Timeout;
}

function countVoice(clip: Clip, analysis: VoicedAnalysis): void {
  clip.voicedMs += analysis.voicedMs;
  clip.analysedMs += analysis.durationMs;
  clip.peakDb = Math.max(clip.peakDb, analysis.peakDb);
}

function analysisOf(clip: Clip, minVoicedMs: number): VoicedAnalysis {
  const frames = Math.max(1, clip.analysedMs / 20);
  return {
    voiced: clip.voicedMs >= minVoicedMs,
    durationMs: clip.analysedMs,
    voicedMs: clip.voicedMs,
    voicedRatio: clip.voicedMs / 20 / frames,
    peakDb: clip.peakDb,
    floorDb: -120,
  };
}

function newClip(frame: VoiceStartFrame, maxBytes: number): Clip {
  return {
    id: frame.clipId,
    language: frame.language,
    ogg: new OggOpusStream(maxBytes),
    state: 'open',
    decoder: undefined,
    decoding: Promise.resolve(),
    voicedMs: 0,
    analysedMs: 0,
    peakDb: -120,
    engine: undefined,
    payment: undefined,
    caption: { sent: '', latest: '', at: -Infinity },
    committedSentences: 0,
  };
}

function refOf(connection: ConnectionContext, clip: Clip): ClipRef {
  return {
    clipId: clip.id,
    userId: connection.userId,
    username: connection.username(),
    language: clip.language,
  };
}

/** The room's view of a running clip: throttled captions, and its committed sentences sent to translation. */
function createClipCaptions(deps: VoiceStreamDeps, captionEvery: number) {
  function caption(connection: ConnectionContext, clip: Clip, text: string, force = false): void {
    const state = clip.caption;
    state.latest = text;
    const send = () => {
      state.timer = undefined;
      if (state.latest === state.sent) return;
      state.sent = state.latest;
      state.at = performance.now();
      void deps.broadcast(connection.roomId, {
        type: 'captionPartial',
        clipId: clip.id,
        username: connection.username(),
        displayUsername: connection.displayUsername(),
        language: clip.language,
        text: state.latest,
      });
    };
    if (force) {
      clearTimeout(state.timer);
      return send();
    }
    if (state.timer) return;
    const wait = state.at + captionEvery - performance.now();
    if (wait <= 0) send();
    else state.timer = setTimeout(send, wait);
  }

  function onUpdate(connection: ConnectionContext, clip: Clip, update: TranscriptUpdate): void {
    if (clip.state === 'failed') return;
    caption(connection, clip, update.text);
    const sentences = splitSentences(update.text.slice(0, update.committed));
    for (const sentence of sentences.slice(clip.committedSentences)) {
      deps.translation.clipSentence(connection.roomId, refOf(connection, clip), sentence.trim());
    }
    clip.committedSentences = Math.max(clip.committedSentences, sentences.length);
  }

  return { caption, onUpdate };
}

/** The engine for a clip that has voice, fed every piece so far, and its pay-as-heard payment. */
function startEngine(
  deps: VoiceStreamDeps,
  connection: ConnectionContext,
  clip: Clip,
  onUpdate: (update: TranscriptUpdate) => void,
): void {
  if (clip.engine || !deps.provider.streamingTranscription?.() || !deps.provider.startTranscription) return;
  clip.engine = deps.provider.startTranscription({ languageHint: clip.language, onUpdate });
  clip.engine.push(clip.ogg.bytes());
  const ref = refOf(connection, clip);
  clip.payment = createStreamPayment((seconds) =>
    deps.translation.payClipAudio(connection.roomId, ref, seconds),
  );
}

/** The engine hears the clip only while its author pays for it (stream-payment.ts). */
function pay(clip: Clip, refused: (why: string) => void): void {
  const payment = clip.payment;
  if (!payment) return;
  void payment.cover(clip.ogg.durationSeconds).then((ok) => {
    if (ok || clip.state !== 'open') return;
    refused(creditRefusal(payment.refusal) ?? 'its transcription could not be paid for; try again');
  });
}

/** Refuses a streamed clip: the client is told; the log (which a client can flood) is sampled per user. */
function teller(sampled: LogSampler) {
  return (connection: ConnectionContext, clipId: string) => (code: ErrorCode, message: string) => {
    const fields = { roomId: connection.roomId, clipId, code, reason: message };
    sampled.info('voice-stream', fields, 'voice stream not posted', connection.userId);
    connection.sendFrame({ type: 'error', code, message, clipId });
  };
}

export function createVoiceStream(deps: VoiceStreamDeps) {
  const maxBytes = deps.maxClipBytes ?? MAX_AUDIO_CLIP_BYTES;
  const maxSeconds = (deps.maxClipSeconds ?? MAX_AUDIO_CLIP_SECONDS) + DURATION_MARGIN_SECONDS;
  const captionEvery = deps.captionIntervalMs ?? 250;
  const minVoicedMs = deps.voiced?.minVoicedMs ?? 200;
  const clips = new WeakMap<ConnectionContext, Clip>();
  const { caption, onUpdate } = createClipCaptions(deps, captionEvery);

  const tellOf = teller(createLogSampler(deps.logger));

  function drop(connection: ConnectionContext, clip: Clip): void {
    clip.state = 'failed';
    clearTimeout(clip.idle);
    clip.engine?.abort();
    clip.decoder?.free();
    deps.translation.dropClip(connection.roomId, clip.id);
    if (clip.caption.sent) caption(connection, clip, '', true);
  }

  /** An open clip refused on the way (not by a piece of its own): told, dropped and forgotten. */
  function dropOpen(connection: ConnectionContext, clip: Clip, code: ErrorCode, message: string): void {
    tellOf(connection, clip.id)(code, message);
    drop(connection, clip);
    if (clips.get(connection) === clip) clips.delete(connection);
  }

  /**
   * Every piece is decoded and its voiced time counted as it arrives, so the voiced check is done when the
   * speaker stops (not redone on the whole clip then); the engine starts once there is voice.
   */
  function gate(connection: ConnectionContext, clip: Clip, piece: Uint8Array): void {
    clip.engine?.push(piece);
    clip.decoder ??= createOpusStreamDecoder();
    const decoder = clip.decoder;
    clip.decoding = clip.decoding.then(async () => {
      if (clip.state === 'failed') return;
      const samples = await decoder.push(piece).catch(() => new Float32Array(0));
      countVoice(clip, analyseVoice(samples, deps.voiced));
      if (clip.voicedMs >= minVoicedMs)
        startEngine(deps, connection, clip, (update) => onUpdate(connection, clip, update));
      pay(clip, (why) =>
        dropOpen(connection, clip, 'transcription_failed', `Voice message not transcribed: ${why}.`),
      );
    });
  }

  /** The voiced check of the whole clip, from its pieces' checks. */
  function armIdle(connection: ConnectionContext, clip: Clip): void {
    clearTimeout(clip.idle);
    clip.idle = setTimeout(() => {
      if (clip.state === 'open')
        dropOpen(connection, clip, 'audio_rejected', 'Voice clip dropped: its pieces stopped arriving.');
    }, deps.idleTimeoutMs ?? 15_000);
    clip.idle.unref?.();
  }

  async function start(connection: ConnectionContext, frame: VoiceStartFrame): Promise<void> {
    const tell = tellOf(connection, frame.clipId);
    if (frame.room !== connection.roomId)
      return tell('wrong_room', 'voiceStart names another room than yours.');
    const previous = clips.get(connection);
    if (previous?.state === 'open') {
      tellOf(connection, previous.id)(
        'audio_rejected',
        'Voice clip dropped: a new clip started before it ended.',
      );
      drop(connection, previous);
    }
    const clip = newClip(frame, maxBytes);
    clips.set(connection, clip);
    const stored = await deps.chat.findByClientId(connection.userId, frame.clipId);
    if (stored?.roomId === connection.roomId) {
      clip.state = 'duplicate'; // a resend of a posted clip: answered with the stored message at voiceEnd
      return;
    }
    if (!deps.takeToken(connection)) {
      clip.state = 'failed';
      return tell('rate_limited', 'You are sending voice clips too fast; wait a moment.');
    }
    armIdle(connection, clip);
  }

  /** A binary frame: true when it belonged to a streamed clip (else it is a whole clip). */
  function piece(connection: ConnectionContext, data: Uint8Array): boolean {
    const clip = clips.get(connection);
    if (!clip || clip.state === 'ending') return false;
    if (clip.state !== 'open') return true;
    const tell = tellOf(connection, clip.id);
    const result = clip.ogg.push(data);
    if (!result.ok) {
      tell('audio_rejected', `Voice clip rejected: ${result.reason}.`);
      drop(connection, clip);
      return true;
    }
    if (result.durationSeconds > maxSeconds) {
      tell(
        'audio_rejected',
        `Voice clip too long (over ${maxSeconds - DURATION_MARGIN_SECONDS} s; at most ${maxSeconds - DURATION_MARGIN_SECONDS} s).`,
      );
      drop(connection, clip);
      return true;
    }
    armIdle(connection, clip);
    gate(connection, clip, data);
    return true;
  }

  async function end(connection: ConnectionContext, frame: VoiceEndFrame): Promise<void> {
    const clip = clips.get(connection);
    const tell = tellOf(connection, frame.clipId);
    if (!clip || clip.id !== frame.clipId) return tell('audio_rejected', 'No such voice clip is open.');
    clips.delete(connection);
    clearTimeout(clip.idle);
    if (clip.state === 'duplicate') {
      const stored = await deps.chat.findByClientId(connection.userId, clip.id);
      if (stored) connection.sendFrame(stored.message);
      return;
    }
    if (clip.state !== 'open') return;
    clip.state = 'ending';
    const seconds = clip.ogg.durationSeconds;
    if (clip.ogg.byteLength === 0 || seconds * 1000 < RECORDING_MIN_MS) {
      tell(
        'audio_rejected',
        `Voice clip too short (${seconds.toFixed(1)} s; at least ${RECORDING_MIN_MS / 1000} s).`,
      );
      return drop(connection, clip);
    }
    await clip.decoding;
    clip.decoder?.free();
    const engine = clip.engine;
    const posted = await deps.postClip(connection, clip.ogg.bytes(), seconds, {
      clientId: clip.id,
      clipId: clip.id,
      tell,
      analysis: analysisOf(clip, minVoicedMs),
      ...(engine ? { transcript: (signal: AbortSignal) => engine.finish(signal) } : {}),
      // what the blocks paid while it ran leave only the rest to charge (the total is a whole clip's)
      ...(clip.payment ? { chargeSeconds: await clip.payment.settle(seconds) } : {}),
    });
    clearTimeout(clip.caption.timer);
    if (!posted) drop(connection, clip);
  }

  return { start, piece, end };
}
export type VoiceStream = ReturnType<typeof createVoiceStream>;
