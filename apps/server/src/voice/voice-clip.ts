import type { ErrorCode, VoiceStartFrame } from '@xtalk/protocol';
import { createLogSampler, type LogSampler } from '../log-sampler.js';
import type { TranscriptionStream, TranscriptUpdate } from '../ai/index.js';
import { splitSentences } from '../ai/index.js';
import { createOpusStreamDecoder, OggOpusStream, type OpusStreamDecoder } from '../audio/index.js';
import type { Author } from '../messages/index.js';
import { analyseVoice, type VoicedAnalysis } from './voiced.js';
import { createStreamPayment, type StreamPayment } from './stream-payment.js';
import { creditRefusal } from './voice-input.js';
import type { ClipRef, VoiceStreamDeps } from './voice-stream-deps.js';

// One streamed clip (voice-stream.ts): its state, and the steps its pieces go through.

export interface Clip {
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

export function analysisOf(clip: Clip, minVoicedMs: number): VoicedAnalysis {
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

export function newClip(frame: VoiceStartFrame, maxBytes: number): Clip {
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

function refOf(connection: Author, clip: Clip): ClipRef {
  return {
    clipId: clip.id,
    userId: connection.userId,
    username: connection.username(),
    language: clip.language,
  };
}

/** The room's view of a running clip: throttled captions, and its committed sentences sent to translation. */
function createClipCaptions(deps: VoiceStreamDeps, captionEvery: number) {
  function caption(connection: Author, clip: Clip, text: string, force = false): void {
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

  function onUpdate(connection: Author, clip: Clip, update: TranscriptUpdate): void {
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
  connection: Author,
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
  return (connection: Author, clipId: string) => (code: ErrorCode, message: string) => {
    const fields = { roomId: connection.roomId, clipId, code, reason: message };
    sampled.info('voice-stream', fields, 'voice stream not posted', connection.userId);
    connection.sendFrame({ type: 'error', code, message, clipId });
  };
}

/** What is done to a running clip as its pieces come: checked, fed to the engine, captioned or dropped. */
export function createClipSteps(deps: VoiceStreamDeps, clips: WeakMap<Author, Clip>, minVoicedMs: number) {
  const { caption, onUpdate } = createClipCaptions(deps, deps.captionIntervalMs ?? 250);
  const tellOf = teller(createLogSampler(deps.logger));

  function drop(connection: Author, clip: Clip): void {
    clip.state = 'failed';
    clearTimeout(clip.idle);
    clip.engine?.abort();
    clip.decoder?.free();
    deps.translation.dropClip(connection.roomId, clip.id);
    if (clip.caption.sent) caption(connection, clip, '', true);
  }

  /** An open clip refused on the way (not by a piece of its own): told, dropped and forgotten. */
  function dropOpen(connection: Author, clip: Clip, code: ErrorCode, message: string): void {
    tellOf(connection, clip.id)(code, message);
    drop(connection, clip);
    if (clips.get(connection) === clip) clips.delete(connection);
  }

  /**
   * Every piece is decoded and its voiced time counted as it arrives, so the voiced check is done when the
   * speaker stops (not redone on the whole clip then); the engine starts once there is voice.
   */
  function gate(connection: Author, clip: Clip, piece: Uint8Array): void {
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
  function armIdle(connection: Author, clip: Clip): void {
    clearTimeout(clip.idle);
    clip.idle = setTimeout(() => {
      if (clip.state === 'open')
        dropOpen(connection, clip, 'audio_rejected', 'Voice clip dropped: its pieces stopped arriving.');
    }, deps.idleTimeoutMs ?? 15_000);
    clip.idle.unref?.();
  }

  return { tellOf, drop, gate, armIdle };
}
