import { useCallback, useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { getLanguage, translate, useI18n } from '../../../lib/i18n';
import { AudioQueue, htmlAudioPlayer, type ClipPlayer } from '../utils/audio-queue';
import { WavError, validateWav } from '../utils/wav';

/**
 * Browser tests cannot hear: with `localStorage['xtalk:test-hooks'] = '1'` every accepted spoken translation
 * is counted in `window.__xtalkAudioReceived`. Without the flag nothing is exposed.
 */
function countForTests(): void {
  try {
    if (localStorage.getItem('xtalk:test-hooks') !== '1') return;
    const target = window as unknown as { __xtalkAudioReceived?: number };
    target.__xtalkAudioReceived = (target.__xtalkAudioReceived ?? 0) + 1;
  } catch {
    // storage unavailable: no hooks
  }
}

const AVATAR_ERROR_TOAST = 'avatar-error';

/** Spec section 8: a clip the browser cannot play is the avatar's speech failing, said for 3 s. */
function avatarPlaybackFailed(error: unknown): void {
  console.warn('[audio] playback', error);
  toast.error(translate(getLanguage(), 'audio.avatarError'), { id: AVATAR_ERROR_TOAST, duration: 3000 });
}
const isOgg = (buffer: ArrayBuffer) =>
  buffer.byteLength >= 4 && String.fromCharCode(...new Uint8Array(buffer, 0, 4)) === 'OggS';

/**
 * Spoken translations: validate each WAV frame, queue it, play one by one. `stop` is for the mic button
 * (starting a recording stops playback, spec section 4).
 */
export function useAudioPlayback(player: ClipPlayer = htmlAudioPlayer) {
  const { t } = useI18n();
  const queueRef = useRef<AudioQueue | null>(null);
  if (queueRef.current === null) queueRef.current = new AudioQueue(player, avatarPlaybackFailed);
  const tRef = useRef(t);
  useEffect(() => {
    tRef.current = t;
  }, [t]);

  useEffect(() => () => queueRef.current?.stop(), []);

  const enqueueWav = useCallback((buffer: ArrayBuffer) => {
    // protocol 6: a spoken sentence (its `speech` frame came just before), played in turn like a clip
    if (isOgg(buffer)) {
      queueRef.current?.enqueue(new Blob([buffer], { type: 'audio/ogg' }));
      countForTests();
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
    countForTests();
  }, []);

  const stop = useCallback(() => queueRef.current?.stop(), []);

  return { enqueueWav, stop };
}
