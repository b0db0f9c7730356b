import {
  MAX_AUDIO_CLIP_BYTES,
  MAX_AUDIO_CLIP_SECONDS,
  RECORDING_MIN_MS,
  type VoiceEndFrame,
  type VoiceStartFrame,
} from '@xtalk/protocol';
import type { Author } from '../messages/index.js';
import { analysisOf, createClipSteps, newClip, type Clip } from './voice-clip.js';
import { DURATION_MARGIN_SECONDS } from './voice-input.js';
import type { VoiceStreamDeps } from './voice-stream-deps.js';

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

export type { ClipRef, ClipTranslation, VoiceStreamDeps } from './voice-stream-deps.js';

export function createVoiceStream(deps: VoiceStreamDeps) {
  const maxBytes = deps.maxClipBytes ?? MAX_AUDIO_CLIP_BYTES;
  const maxSeconds = (deps.maxClipSeconds ?? MAX_AUDIO_CLIP_SECONDS) + DURATION_MARGIN_SECONDS;
  const minVoicedMs = deps.voiced?.minVoicedMs ?? 200;
  const clips = new WeakMap<Author, Clip>();
  const { tellOf, drop, gate, armIdle } = createClipSteps(deps, clips, minVoicedMs);

  async function start(connection: Author, frame: VoiceStartFrame): Promise<void> {
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
  function piece(connection: Author, data: Uint8Array): boolean {
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

  async function end(connection: Author, frame: VoiceEndFrame): Promise<void> {
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
