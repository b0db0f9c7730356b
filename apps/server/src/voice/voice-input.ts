import {
  MAX_AUDIO_CLIP_BYTES,
  MAX_AUDIO_CLIP_SECONDS,
  MAX_MESSAGE_LENGTH,
  languageSchema,
  type ErrorCode,
} from '@xtalk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { AiUnavailableError } from '../ai/index.js';
import { OpusDecodeError, decodeOggOpus, inspectOggOpus } from '../audio/index.js';
import type { Clock } from '../clock.js';
import { createLogSampler } from '../log-sampler.js';
import type { Author } from '../messages/index.js';
import { createTokenBucket } from '../messages/index.js';
import type { ChatService } from '../messages/index.js';
import { isInsufficientCredits } from '../translation/index.js';
import type { TranslationService } from '../translation/index.js';
import { hasWords, isKnownHallucination } from './hallucinations.js';
import { analyseVoice, type VoicedAnalysis, type VoicedOptions } from './voiced.js';
import type { MetricsReport } from '../metrics/index.js';

/*
 * Voice input: one binary WebSocket frame is one Ogg/Opus clip of at most 60 s.
 *
 *   size cap -> Ogg/Opus container check and duration (ogg.ts) -> decode to 16 kHz PCM -> voiced-audio check
 *   (voiced.ts) -> translation.transcribe (metered in audio seconds, timeout, retries) -> hallucination
 *   filter -> chat.post, the one path typed chat takes too (stored, fanned out, translated, spoken).
 *
 * Whatever is refused is answered with an error frame to the speaker alone, and the connection stays up.
 */

/** Recorders stop at 60 s; a little more covers encoder padding and the last page. */
export const DURATION_MARGIN_SECONDS = 2;
/** Clips shorter than this hold no word (the client drops under 500 ms already). */
const MIN_CLIP_SECONDS = 0.2;

export const NO_SPEECH_MESSAGE = 'No speech detected';

export interface VoiceInputDeps {
  chat: ChatService;
  translation: Pick<TranslationService, 'transcribe'>;
  logger: FastifyBaseLogger;
  clock: Clock;
  maxClipBytes?: number;
  maxClipSeconds?: number;
  voiced?: Partial<VoicedOptions>;
  /** Streamed clips (protocol 3): a binary frame that belongs to an open one goes there. */
  stream?: { piece(connection: Author, data: Uint8Array): boolean };
  /** The per-connection clip limit, shared with streamed clips. */
  limiter?: ClipLimiter;
  /** Where stored voice messages are counted (/metrics); nowhere without. */
  metrics?: Pick<MetricsReport, 'messageStored'>;
}

export type ClipLimiter = (connection: Author) => boolean;

/** Per connection: 4 clips at once, then one every 2 s (a person cannot record faster). */
export function createClipLimiter(clock: Clock): ClipLimiter {
  const buckets = new WeakMap<Author, ReturnType<typeof createTokenBucket>>();
  return (connection) => {
    let bucket = buckets.get(connection);
    if (!bucket) {
      bucket = createTokenBucket(4, 0.5, clock);
      buckets.set(connection, bucket);
    }
    return bucket.take();
  };
}

/**
 * A transcript that is one of the phrases speech models make up (hallucinations.ts) counts as no speech when
 * the clip had little voice: under 400 ms of voiced frames or under a tenth of the clip.
 */
export function isNearSilent(analysis: VoicedAnalysis): boolean {
  return analysis.voicedMs < 400 || analysis.voicedRatio < 0.1;
}

export type Tell = (code: ErrorCode, message: string, detail?: Record<string, unknown>) => void;

export interface ClipPost {
  clientId: string | undefined;
  tell: Tell;
  /** A streamed clip: its id (the message replaces its caption) and its engine's final transcript. */
  clipId?: string;
  transcript?: (signal: AbortSignal) => Promise<{ text: string; language: string }>;
  /** A streamed clip's voiced check, made piece by piece as it arrived. */
  analysis?: VoicedAnalysis;
  /** Seconds its transcription still charges (a streamed clip paid the rest while it ran). */
  chargeSeconds?: number;
}

/** The words for a refusal for want of credits (undefined for any other error). */
export function creditRefusal(error: unknown): string | undefined {
  if (!isInsufficientCredits(error)) return undefined;
  return error.guest
    ? "you have used today's allowance for guests; sign in to keep going"
    : 'you have run out of credits';
}

/** Who a voice line is about: the connection's request id, room and user. */
const logFieldsOf = (connection: Author) =>
  connection.logFields ?? { room: connection.roomId, user: connection.userId };

/**
 * Steps 2-5 for a whole clip, streamed or not: voiced check, transcription (metered), hallucination
 * filter, post. Resolves true when a message was posted.
 */
export function createClipPoster(deps: VoiceInputDeps) {
  /** Decode and check a whole clip; a reason when it does not decode. */
  async function analyse(data: Uint8Array): Promise<VoicedAnalysis | string> {
    try {
      return analyseVoice(await decodeOggOpus(data), deps.voiced);
    } catch (error) {
      if (error instanceof OpusDecodeError) return error.message;
      throw error;
    }
  }

  return async function postClip(
    connection: Author,
    data: Uint8Array,
    durationSeconds: number,
    { clientId, tell, clipId, transcript: streamed, analysis: checked, chargeSeconds }: ClipPost,
  ): Promise<boolean> {
    const log = deps.logger.child(logFieldsOf(connection));
    const refuse = (...args: Parameters<Tell>) => {
      tell(...args);
      return false;
    };
    // 2. is anyone speaking? (never send silence or noise to a speech model)
    const analysis = checked ?? (await analyse(data));
    if (typeof analysis === 'string') return refuse('audio_rejected', `Voice clip rejected: ${analysis}.`);
    if (!analysis.voiced) return refuse('no_speech', NO_SPEECH_MESSAGE, { analysis });

    // 3. speech to text, metered in audio seconds like every other engine call
    const speakerLanguage = connection.language();
    let transcript: { text: string; language: string };
    try {
      transcript = await deps.translation.transcribe({
        roomId: connection.roomId,
        author: { userId: connection.userId, username: connection.username() },
        audio: data,
        mimeType: 'audio/ogg',
        languageHint: speakerLanguage,
        audioSeconds: chargeSeconds ?? durationSeconds,
        ...(streamed ? { engine: streamed } : {}),
      });
    } catch (error) {
      const why = creditRefusal(error);
      if (why) return refuse('transcription_failed', `Voice message not transcribed: ${why}.`);
      if (error instanceof AiUnavailableError) {
        return refuse('transcription_failed', `Voice message not transcribed: ${error.message}.`);
      }
      log.error({ err: error }, 'voice: transcription failed');
      return refuse(
        'transcription_failed',
        'Voice message not transcribed: speech recognition failed. Try again.',
      );
    }

    // 4. what came back: nothing, or a phrase the model invents on near-silence
    const text = transcript.text.trim().slice(0, MAX_MESSAGE_LENGTH);
    if (!hasWords(text)) return refuse('no_speech', NO_SPEECH_MESSAGE, { analysis });
    if (isKnownHallucination(text) && isNearSilent(analysis)) {
      return refuse('no_speech', NO_SPEECH_MESSAGE, { analysis, dropped: text });
    }

    // 5. a message like any typed one
    const detected = languageSchema.safeParse(transcript.language);
    const stored = await deps.chat.post({
      roomId: connection.roomId,
      userId: connection.userId,
      username: connection.username(),
      displayUsername: connection.displayUsername(),
      language: detected.success ? detected.data : speakerLanguage,
      text,
      clientId,
      clipId,
    });
    if (stored.duplicate && stored.roomId === connection.roomId) connection.sendFrame(stored.message);
    if (!stored.duplicate) deps.metrics?.messageStored('voice');
    log.debug(
      { seconds: durationSeconds, voicedMs: analysis.voicedMs, language: transcript.language },
      'voice: transcript posted',
    );
    return true;
  };
}

export function createVoiceInput(deps: VoiceInputDeps) {
  const postClip = createClipPoster(deps);
  const sampled = createLogSampler(deps.logger, deps.clock);
  const maxBytes = deps.maxClipBytes ?? MAX_AUDIO_CLIP_BYTES;
  const maxSeconds = (deps.maxClipSeconds ?? MAX_AUDIO_CLIP_SECONDS) + DURATION_MARGIN_SECONDS;
  const takeToken = deps.limiter ?? createClipLimiter(deps.clock);

  return async function onAudio(connection: Author, data: Buffer): Promise<void> {
    if (deps.stream?.piece(connection, data)) return;
    // announced by a voiceClip frame just before the clip; a resend of a stored clip is answered at once
    const clientId = connection.takeClipClientId();
    if (clientId) {
      const stored = await deps.chat.findByClientId(connection.userId, clientId);
      if (stored?.roomId === connection.roomId) return connection.sendFrame(stored.message);
    }
    const tell = (code: ErrorCode, message: string, detail?: Record<string, unknown>) => {
      const fields = { ...logFieldsOf(connection), code, reason: message };
      sampled.info(
        'voice-clip',
        { ...fields, bytes: data.length, ...detail },
        'voice clip not posted',
        connection.userId,
      );
      connection.sendFrame({ type: 'error', code, message });
    };

    // 1. the bytes, before anything reads them
    if (data.length > maxBytes) {
      return tell(
        'audio_rejected',
        `Voice clip too large (${Math.ceil(data.length / 1024)} KiB; at most ${Math.floor(maxBytes / 1024)} KiB).`,
      );
    }
    const container = inspectOggOpus(data);
    if (!container.ok) return tell('audio_rejected', `Voice clip rejected: ${container.reason}.`);
    if (container.durationSeconds > maxSeconds) {
      return tell(
        'audio_rejected',
        `Voice clip too long (${container.durationSeconds.toFixed(1)} s; at most ${maxSeconds - DURATION_MARGIN_SECONDS} s).`,
      );
    }
    if (container.durationSeconds < MIN_CLIP_SECONDS) return tell('no_speech', NO_SPEECH_MESSAGE);
    if (!takeToken(connection)) {
      return tell('rate_limited', 'You are sending voice clips too fast; wait a moment.');
    }

    await postClip(connection, data, container.durationSeconds, { clientId, tell });
  };
}
