import type { PlayHandle } from './audio-queue';

/*
 * A translation the server has no voice for (`noServerVoice`, protocol 8) spoken by the browser's own
 * speech synthesis (the Web Speech API, the operating system's voices), in the translation's language.
 * It plays through the speech queue like a server sentence: one at a time, in order, silenced by mute.
 */

/** What the queue plays instead of a clip: a text for the browser to speak. */
export interface SpokenText {
  text: string;
  language: string;
}

/** Whether this browser can speak at all (without, the text is on screen and nothing is said). */
const canSpeakInBrowser = (): boolean =>
  typeof window !== 'undefined' &&
  'speechSynthesis' in window &&
  typeof window.SpeechSynthesisUtterance === 'function';

export function speakInBrowser({ text, language }: SpokenText): PlayHandle {
  if (!canSpeakInBrowser()) return { done: Promise.resolve(), stop: () => {} };
  const synthesis = window.speechSynthesis;
  const utterance = new window.SpeechSynthesisUtterance(text);
  utterance.lang = language;
  let settled = false;
  let settle: (error?: unknown) => void = () => {};
  const done = new Promise<void>((resolve, reject) => {
    settle = (error) => {
      if (settled) return;
      settled = true;
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve();
    };
  });
  utterance.onend = () => settle();
  utterance.onerror = (event) => {
    // a cancel (mute, the next message) ends it; anything else is a failure worth a toast
    if (event.error === 'canceled' || event.error === 'interrupted') settle();
    else settle(new Error(`speech synthesis: ${event.error}`));
  };
  synthesis.speak(utterance);
  return {
    done,
    stop: () => {
      settled = true;
      synthesis.cancel();
    },
  };
}
