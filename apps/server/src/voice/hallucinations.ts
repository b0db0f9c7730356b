/*
 * Phrases speech models produce from silence, noise or music rather than from speech: Whisper learnt them
 * from the closing credits of subtitled videos. Spoken for real they are kept; coming out of a clip that is
 * nearly silent (see `isNearSilent`) they are dropped and the speaker is told 'No speech detected'.
 */

const PHRASES = [
  // English
  'thank you for watching',
  'thanks for watching',
  'thank you for listening',
  'thank you so much for watching',
  'please subscribe',
  'subscribe to my channel',
  'like and subscribe',
  'subtitles by the amara.org community',
  'subtitles by',
  'transcribed by',
  'see you next time',
  'see you in the next video',
  'you',
  // Japanese
  'ご視聴ありがとうございました',
  'ご清聴ありがとうございました',
  'ご覧いただきありがとうございます',
  'チャンネル登録お願いします',
  'チャンネル登録よろしくお願いします',
  'おやすみなさい',
  '字幕',
  // other languages Whisper does the same in
  'sous-titrage',
  'untertitel',
  'subtítulos',
  '谢谢观看',
  '請不吝點贊',
  '시청해 주셔서 감사합니다',
].map(normalise);

function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}\s]+/gu, ' ')
    .trim();
}

/** True when `text` is nothing but one or more of the known phrases (and punctuation). */
export function isKnownHallucination(text: string): boolean {
  let rest = ` ${normalise(text)} `;
  if (rest.trim() === '') return true;
  for (let changed = true; changed;) {
    changed = false;
    for (const phrase of PHRASES) {
      const spaced = ` ${phrase} `;
      const at = rest.indexOf(spaced);
      // Japanese has no spaces: a phrase may also be glued to another one
      const glued = at < 0 && /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(phrase);
      const index = at >= 0 ? at : glued ? rest.indexOf(phrase) : -1;
      if (index < 0) continue;
      rest = `${rest.slice(0, index)} ${rest.slice(index + (at >= 0 ? spaced.length : phrase.length))}`;
      rest = ` ${rest.trim()} `;
      changed = true;
    }
  }
  return rest.trim() === '';
}

/** Whether a transcript has any words at all (not only punctuation, symbols or a lone filler). */
export function hasWords(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}
