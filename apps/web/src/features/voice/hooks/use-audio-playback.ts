import type { NoServerVoiceFrame, SpeechFrame, UiLanguage } from '@xtalk/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { localized, toast, words } from '#web/lib/toast';
import { translate } from '#web/lib/i18n';
import { StorageKey, readString, writeString } from '#web/lib/storage';
import { AudioQueue, htmlAudioPlayer, primeAudio, type ClipPlayer } from '../utils/audio-queue';
import { SPEECH_TOGGLE } from '../components/speech-button';
import { SpeechQueue, type SpeechPlayer } from '../utils/speech-queue';
import { speakInBrowser } from '../utils/browser-voice';
import { countReceived, recordBrowserVoice, recordSpeech } from '../utils/test-hooks';
import { WavError, validateWav } from '../utils/wav';

const AVATAR_ERROR_TOAST = 'avatar-error';

/** A clip the browser cannot play is the avatar's speech failing, said for 3 s. */
function avatarPlaybackFailed(error: unknown): void {
  console.warn('[audio] playback', error);
  toast.error(words('audio.avatarError'), { id: AVATAR_ERROR_TOAST, duration: 3000 });
}
/** A clip that is not a playable WAV, said for 5 s (the reason in the interface language when known). */
function clipRefused(error: unknown): void {
  const reason = (language: UiLanguage) =>
    error instanceof WavError ? translate(language, error.key, error.params) : (error as Error).message;
  toast.error(
    localized((language) => translate(language, 'audio.error', { message: reason(language) })),
    { duration: 5000 },
  );
}
const isOgg = (buffer: ArrayBuffer) =>
  buffer.byteLength >= 4 && String.fromCharCode(...new Uint8Array(buffer, 0, 4)) === 'OggS';

/** A click this soon after the tap that unlocked audio on the speech control is that same tap. */
const UNLOCK_CLICK_MS = 2000;

/** Until the page has been tapped (or typed in) the browser may refuse to play. */
const pageActivated = () => navigator.userActivation?.hasBeenActive ?? false;

/**
 * Until the page is first tapped or typed in (`locked`), waits for that; `unlock` gets the time of the
 * tap when it was on the speech control itself (which then asks for audio: it unlocks, it does not mute).
 * The first tap also primes the clips' element, locked or not (`usePrimedAudio`).
 */
function useFirstTap(locked: boolean, unlock: (onToggleAt: number | undefined) => void): void {
  usePrimedAudio();
  const unlockRef = useRef(unlock);
  useEffect(() => {
    unlockRef.current = unlock;
  });
  useEffect(() => {
    if (!locked) return;
    const onFirst = (event: Event) => {
      const onToggle = (event.target as Element | null)?.closest?.(`[data-testid="${SPEECH_TOGGLE}"]`);
      unlockRef.current(onToggle ? event.timeStamp : undefined);
    };
    const options = { capture: true, once: true };
    window.addEventListener('pointerdown', onFirst, options);
    window.addEventListener('keydown', onFirst, options);
    return () => {
      window.removeEventListener('pointerdown', onFirst, options);
      window.removeEventListener('keydown', onFirst, options);
    };
  }, [locked]);
}

/**
 * The clips' element plays a moment of silence inside the first tap or key in the page, whether or not
 * the page counted as activated before (a tap on the guest page already did): Safari lets an element
 * play outside a tap only once it has played inside one.
 */
function usePrimedAudio(): void {
  useEffect(() => {
    const options = { capture: true, once: true };
    const prime = () => {
      primeAudio();
      window.removeEventListener('pointerdown', prime, options);
      window.removeEventListener('keydown', prime, options);
    };
    window.addEventListener('pointerdown', prime, options);
    window.addEventListener('keydown', prime, options);
    return () => {
      window.removeEventListener('pointerdown', prime, options);
      window.removeEventListener('keydown', prime, options);
    };
  }, []);
}

/**
 * Spoken translations: a `speech` frame's sentence (the binary frame after it, Ogg/Opus) goes to the
 * speech queue, in order by message and seq; a WAV (older servers) is validated and played in turn. A
 * translation the server has no voice for (`noServerVoice`) joins the same queue, spoken by the browser.
 * Muting is remembered; until the first tap in the page, speech waits. `stop` is for the mic button
 * (starting a recording stops playback).
 */
export function useAudioPlayback(player: ClipPlayer = htmlAudioPlayer) {
  const [muted, setMutedState] = useState(() => readString(StorageKey.speech) === 'off');
  const [locked, setLocked] = useState(() => !pageActivated());
  const [speakingId, setSpeakingId] = useState<number | undefined>();
  const queueRef = useRef<AudioQueue | null>(null);
  if (queueRef.current === null) queueRef.current = new AudioQueue(player, avatarPlaybackFailed);
  const speechRef = useRef<SpeechQueue | null>(null);
  if (speechRef.current === null) {
    const speak: SpeechPlayer = (clip) => (clip instanceof Blob ? player(clip) : speakInBrowser(clip));
    speechRef.current = new SpeechQueue(speak, setSpeakingId, avatarPlaybackFailed, { muted, locked });
  }
  const pendingRef = useRef<SpeechFrame | undefined>(undefined);
  const unlockedOnToggle = useRef<number | undefined>(undefined);

  useEffect(
    () => () => {
      queueRef.current?.stop();
      speechRef.current?.stop();
    },
    [],
  );

  useFirstTap(locked, (onToggle) => {
    if (onToggle !== undefined) unlockedOnToggle.current = onToggle;
    speechRef.current?.unlock();
    setLocked(false);
  });

  /** A `speech` frame: its audio is the next binary frame. */
  const onSpeech = useCallback((frame: SpeechFrame) => {
    pendingRef.current = frame;
    recordSpeech(frame);
  }, []);

  /** A translation without a server voice: the browser speaks its text, in turn with server speech. */
  const onNoServerVoice = useCallback((frame: NoServerVoiceFrame) => {
    recordBrowserVoice(frame);
    speechRef.current?.add(
      { id: frame.id, seq: 0, last: true },
      { text: frame.text, language: frame.language },
    );
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
      clipRefused(error);
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

  return {
    enqueueWav,
    onSpeech,
    onNoServerVoice,
    corrected,
    stop,
    muted,
    locked,
    speakingId,
    toggleMute,
  };
}
