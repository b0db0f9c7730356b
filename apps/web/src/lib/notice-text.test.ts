import { AI_TASKS, NOTICE_KINDS, PAUSE_REASONS, UI_LANGUAGES } from '@xtalk/protocol';
import { describe, expect, it } from 'vitest';
import { noticeWords } from './i18n/notices';
import { noticeText } from './notice-text';

const japanese = /[\u3040-\u30ff\u4e00-\u9faf]/;
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('notice words', () => {
  it('give every key a Japanese string with the same placeholders', () => {
    for (const [key, english] of Object.entries(noticeWords.en)) {
      const japaneseWords = noticeWords.ja[key as keyof typeof noticeWords.en];
      expect(japanese.test(japaneseWords), key).toBe(true);
      expect(placeholders(japaneseWords), key).toEqual(placeholders(english));
    }
  });
});

describe('notices, worded by their kind', () => {
  const notice = (kind: string, params?: Record<string, string | number>) => ({
    message: 'the server says this in English',
    notice: params ? { kind, params } : { kind },
  });
  /** Every kind the server sends, with every param it gives (NOTICE_KINDS in the protocol). */
  const everyNotice = NOTICE_KINDS.flatMap((kind) => {
    if (kind === 'engine_loading') return AI_TASKS.map((task) => notice(kind, { task, percent: 42 }));
    if (kind === 'engine_ready' || kind === 'engine_unavailable')
      return AI_TASKS.map((task) => notice(kind, { task }));
    if (kind === 'engine_failed') return AI_TASKS.map((task) => notice(kind, { task, language: 'fr' }));
    if (kind === 'translation_paused')
      return PAUSE_REASONS.map((reason) => notice(kind, { name: 'QuietFox', reason }));
    if (kind === 'credits_paused') return PAUSE_REASONS.map((reason) => notice(kind, { reason }));
    return [notice(kind)];
  });

  it.each(UI_LANGUAGES)(
    'words every kind in %s, with its params, never the English of the server',
    (language) => {
      const texts = everyNotice.map((frame) => noticeText(language, frame));
      for (const [index, text] of texts.entries()) {
        const what = JSON.stringify(everyNotice[index]?.notice);
        expect(text, what).not.toMatch(/[{}]|^notices\.|the server says/);
        expect(japanese.test(text), `${language} ${what}: ${text}`).toBe(language === 'ja');
      }
      expect(new Set(texts).size).toBe(texts.length);
    },
  );

  it('fills in the engine, the percentage, the language and the name in the interface language', () => {
    expect(noticeText('ja', notice('engine_loading', { task: 'transcription', percent: 42 }))).toBe(
      '音声認識エンジンを読み込んでいます（42%）…',
    );
    expect(noticeText('en', notice('engine_failed', { task: 'translation', language: 'fr' }))).toBe(
      'Translation into French failed. The message is shown as written.',
    );
    expect(noticeText('ja', notice('engine_failed', { task: 'translation', language: 'fr' }))).toBe(
      'フランス語への翻訳に失敗しました。メッセージは原文のまま表示されます。',
    );
    expect(noticeText('ja', notice('translation_paused', { name: 'QuietFox', reason: 'no_credits' }))).toBe(
      '翻訳を一時停止しました: QuietFoxさんのクレジットがなくなりました。メッセージは翻訳されずに届きます。',
    );
  });

  it("shows the server's own text for a kind it does not know, or without a param the words need", () => {
    const fallback = 'サーバーからのお知らせ: the server says this in English';
    expect(noticeText('ja', { message: 'the server says this in English' })).toBe(fallback);
    expect(noticeText('ja', notice('from_a_newer_server', { task: 'translation' }))).toBe(fallback);
    expect(noticeText('ja', notice('engine_failed', { task: 'translation' }))).toBe(fallback);
    expect(noticeText('ja', notice('engine_failed', { task: 'painting', language: 'fr' }))).toBe(fallback);
    expect(noticeText('ja', notice('translation_paused', { reason: 'no_credits' }))).toBe(fallback);
    expect(noticeText('ja', notice('toString'))).toBe(fallback);
  });
});
