import type { SpeechFrame } from '@xtalk/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/toast';
import { getLanguage, translate, useI18n } from '../../../lib/i18n';
import { StorageKey, readString, writeString } from '../../../lib/storage';
import { AudioQueue, htmlAudioPlayer, type ClipPlayer } from '../utils/audio-queue';
import { SPEECH_TOGGLE } from '../components/speech-button';
import { SpeechQueue } from '../utils/speech-queue';
import { countReceived, recordSpeech } from '../utils/test-hooks';
import { WavError, validateWav } from '../utils/wav';

const AVATAR_ERROR_TOAST = 'avatar-error';

/** A clip the browser cannot play is the avatar's speech failing, said for 3 s. */
function avatarPlaybackFailed(error: unknown): void {
  console.warn('[audio] playback', error);
  toast.error(translate(getLanguage(), 'audio.avatarError'), { id: AVATAR_ERROR_TOAST, duration: 3000 });
}
const isOgg = (buffer: ArrayBuffer) =>
  buffer.byteLength >= 4 && String.fromCharCode(...new Uint8Array(buffer, 0, 4)) === 'OggS';

/** A click this soon after the tap that unlocked audio on the speech control is that same tap. */
const UNLOCK_CLICK_MS = 2000;

/** Until the page has been tapped (or typed in) the browser may refuse to play. */
const pageActivated = () => navigator.userActivation?.hasBeenActive ?? false;

/**
 * Spoken translations: a `speech` frame's sentence (the binary frame after it, Ogg/Opus) goes to the
 * speech queue, in order by message and seq; a WAV (older servers) is validated and played in turn.
 * Muting is remembered; until the first tap in the page, speech waits. `stop` is for the mic button
 * (starting a recording stops playback).
 */
export function useAudioPlayback(player: ClipPlayer = htmlAudioPlayer) {
  const { t } = useI18n();
  const [muted, setMutedState] = useState(() => readString(StorageKey.speech) === 'off');
  const [locked, setLocked] = useState(() => !pageActivated());
  const [speakingId, setSpeakingId] = useState<number | undefined>();
  const queueRef = useRef<AudioQueue | null>(null);
  if (queueRef.current === null) queueRef.current = new AudioQueue(player, avatarPlaybackFailed);
  const speechRef = useRef<SpeechQueue | null>(null);
  if (speechRef.current === null) {
    speechRef.current = new SpeechQueue(player, setSpeakingId, avatarPlaybackFailed, { muted, locked });
  }
  const pendingRef = useRef<SpeechFrame | undefined>(undefined);
  const unlockedOnToggle = useRef<number | undefined>(undefined);
  const tRef = useRef(t);
  useEffect(() => {
    tRef.current = t;
  }, [t]);

  useEffect(
    () => () => {
      queueRef.current?.stop();
      speechRef.current?.stop();
    },
    [],
  );

  useEffect(() => {
    if (!locked) return;
    const unlock = (event: Event) => {
      // a first tap on the speech control itself asks for audio: it unlocks, it does not mute
      const onToggle = (event.target as Element | null)?.closest?.(`[data-testid="${SPEECH_TOGGLE}"]`);
      if (onToggle) unlockedOnToggle.current = event.timeStamp;
      speechRef.current?.unlock();
      setLocked(false);
    };
    const options = { capture: true, once: true };
    window.addEventListener('pointerdown', unlock, options);
    window.addEventListener('keydown', unlock, options);
    return () => {
      window.removeEventListener('pointerdown', unlock, options);
      window.removeEventListener('keydown', unlock, options);
    };
  }, [locked]);

  /** A `speech` frame: its audio is the next binary frame. */
  const onSpeech = useCallback((frame: SpeechFrame) => {
    pendingRef.current = frame;
    recordSpeech(frame);
  }, []);

  const enqueueWav = useCallback((buffer: ArrayBuffer) => {
    const speech = pendingRef.current;
    pendingRef.current = undefined;
    if (speechRef.current?.muted) return;
    if (speech && isOgg(buffer)) {
      speechRef.current?.add(speech, new Blob([buffer], { type: 'audio/ogg' }));
      countReceived();
      return;
    }
    try {
      validateWav(buffer);
    } catch (error) {
      const message =
        error instanceof WavError ? tRef.current(error.key, error.params) : (error as Error).message;
      toast.error(tRef.current('audio.error', { message }), { duration: 5000 });
      return;
    }
    queueRef.current?.enqueue(new Blob([buffer], { type: 'audio/wav' }));
    countReceived();
  }, []);

  /** The message was corrected: what is left of its old speech is not played. */
  const corrected = useCallback((id: number) => speechRef.current?.corrected(id), []);

  const toggleMute = useCallback((event?: { timeStamp: number }) => {
    const unlockedAt = unlockedOnToggle.current;
    unlockedOnToggle.current = undefined;
    if (unlockedAt !== undefined && event && event.timeStamp - unlockedAt < UNLOCK_CLICK_MS) return;
    const next = !speechRef.current?.muted;
    speechRef.current?.setMuted(next);
    if (next) queueRef.current?.stop();
    writeString(StorageKey.speech, next ? 'off' : 'on');
    setMutedState(next);
  }, []);

  const stop = useCallback(() => {
    queueRef.current?.stop();
    speechRef.current?.stop();
  }, []);

  return { enqueueWav, onSpeech, corrected, stop, muted, locked, speakingId, toggleMute };
}
