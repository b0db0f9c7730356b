import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type ErrorCode,
  type ErrorFrame,
  type NoticeDetail,
  type HttpErrorCode,
  type UiLanguage,
} from '@xtalk/protocol';
import { ApiError } from './api-client';
import { isMessageKey, languageLabel, translate, type MessageKey } from './i18n';

/*
 * Server errors are codes (an `error` frame's `code`, an HTTP body's `code`); the words are the client's,
 * in the interface language (issue 12, item 5). The server's English `message` is only a fallback for a
 * failure that has no answer at all (network errors).
 */

export function frameErrorText(language: UiLanguage, code: ErrorCode, serverMessage = ''): string {
  return translate(language, `errors.frame.${code}` satisfies MessageKey, { message: serverMessage });
}

/**
 * A `notice` frame, worded by its kind in the interface language. A kind this client does not know, or one
 * without a param its words need, shows the server's English text under 'Server notice:'.
 */
export function noticeText(language: UiLanguage, frame: Pick<ErrorFrame, 'message' | 'notice'>): string {
  return (
    (frame.notice && wordNotice(language, frame.notice)) ?? frameErrorText(language, 'notice', frame.message)
  );
}

function wordNotice(language: UiLanguage, { kind, params = {} }: NoticeDetail): string | undefined {
  const task = String(params.task ?? '');
  const reason = String(params.reason ?? '');
  const keys: Record<string, string> = {
    engine_loading: 'notices.engine_loading',
    engine_ready: 'notices.engine_ready',
    engine_unavailable: 'notices.engine_unavailable',
    engine_failed: `notices.engine_failed.${task}`,
    backlog: 'notices.backlog',
    translation_paused: `notices.translation_paused.${reason}`,
    credits_paused: `notices.credits_paused.${reason}`,
  };
  const key = Object.hasOwn(keys, kind) ? keys[kind]! : '';
  if (!isMessageKey(key)) return undefined;
  const engineKey = `notices.engine.${task}`;
  const words: Record<string, string | number> = { ...params };
  if (isMessageKey(engineKey)) words.engine = translate(language, engineKey);
  if (typeof params.language === 'string') words.language = languageLabel(params.language, language);
  // every {placeholder} of the words must be filled, or the server's own text says it better
  const needed = [...translate(language, key).matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  if (!needed.every((name) => Object.hasOwn(words, name))) return undefined;
  return translate(language, key, words);
}

export function httpErrorText(language: UiLanguage, code: HttpErrorCode): string {
  // the password rules' numbers come from the protocol, so the words follow them
  return translate(language, `errors.http.${code}` satisfies MessageKey, {
    min: PASSWORD_MIN_LENGTH,
    max: PASSWORD_MAX_LENGTH,
  });
}

/** Any failure of a request, worded: coded HTTP errors by their code, anything else as it says. */
export function requestErrorText(language: UiLanguage, error: unknown): string {
  if (error instanceof ApiError) return httpErrorText(language, error.code);
  return translate(language, 'room.tryAgain');
}
