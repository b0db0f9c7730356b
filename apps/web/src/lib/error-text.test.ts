import {
  AI_TASKS,
  ERROR_CODES,
  HTTP_ERROR_CODES,
  NOTICE_KINDS,
  PAUSE_REASONS,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  UI_LANGUAGES,
} from '@xtalk/protocol';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { frameErrorText, httpErrorText, noticeText, requestErrorText } from './error-text';

const japanese = /[\u3040-\u30ff\u4e00-\u9faf]/;

describe('server error codes, worded by the client', () => {
  it.each(UI_LANGUAGES)('words every frame error code in %s', (language) => {
    for (const code of ERROR_CODES) {
      const text = frameErrorText(language, code, 'detail');
      expect(text, code).not.toMatch(/^errors\./);
      expect(text.trim(), code).not.toBe('');
      expect(japanese.test(text), `${language} ${code}: ${text}`).toBe(language === 'ja');
    }
  });

  it.each(UI_LANGUAGES)('words every HTTP error code in %s', (language) => {
    for (const code of HTTP_ERROR_CODES) {
      const text = httpErrorText(language, code);
      expect(text, code).not.toMatch(/^errors\./);
      expect(text.trim(), code).not.toBe('');
      expect(japanese.test(text), `${language} ${code}: ${text}`).toBe(language === 'ja');
    }
  });

  it('gives different codes different words', () => {
    for (const language of UI_LANGUAGES) {
      const texts = HTTP_ERROR_CODES.filter((c) => c !== 'internal').map((c) => httpErrorText(language, c));
      expect(new Set(texts).size).toBe(texts.length);
    }
  });

  it('words a request error by its code, not by the English message of the server', () => {
    const missing = new ApiError(
      404,
      {
        statusCode: 404,
        error: 'Not Found',
        message: 'Room ZZZZZZZ does not exist.',
        code: 'room_not_found',
      },
      'Room ZZZZZZZ does not exist.',
    );
    expect(requestErrorText('ja', missing)).toBe('そのルームは存在しません。');
    expect(requestErrorText('en', missing)).toBe('That room does not exist.');
    // an older server without codes: the status decides
    expect(requestErrorText('ja', new ApiError(401, { message: 'x' }, 'x'))).toBe(
      httpErrorText('ja', 'unauthorized'),
    );
    expect(requestErrorText('en', new TypeError('Failed to fetch'))).toBe('Please try again.');
  });

  it('words the email-account refusals with the password rule of the protocol, in both languages', () => {
    expect(httpErrorText('en', 'password_too_short')).toBe(
      `Passwords need at least ${PASSWORD_MIN_LENGTH} characters.`,
    );
    expect(httpErrorText('ja', 'password_too_short')).toBe(
      `パスワードは${PASSWORD_MIN_LENGTH}文字以上にしてください。`,
    );
    expect(httpErrorText('ja', 'password_too_long')).toContain(String(PASSWORD_MAX_LENGTH));
    for (const language of UI_LANGUAGES) {
      for (const code of HTTP_ERROR_CODES) expect(httpErrorText(language, code), code).not.toMatch(/[{}]/);
    }
    const expired = new ApiError(
      400,
      { statusCode: 400, message: 'This link is invalid, expired or already used.', code: 'invalid_link' },
      'x',
    );
    expect(requestErrorText('ja', expired)).toBe(
      'このリンクは無効か、期限切れか、すでに使用されています。新しいリンクを請求してください。',
    );
  });

  it('keeps the detail of a notice (engine status) inside the worded frame', () => {
    expect(frameErrorText('ja', 'notice', 'Translation loading 40%')).toBe(
      'サーバーからのお知らせ: Translation loading 40%',
    );
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
