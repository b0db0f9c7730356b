import type { ErrorFrame, NoticeDetail, UiLanguage } from '@xtalk/protocol';
import { frameErrorText } from './error-text';
import { fill, languageLabel, placeholdersOf } from './i18n';
import { isNoticeKey, noticeWords } from './i18n/notices';

/**
 * A `notice` frame, worded by its kind in the interface language (docs/decisions/0126). A kind this
 * client does not know, or one without a param its words need, shows the server's English text under
 * 'Server notice:'.
 */
export function noticeText(language: UiLanguage, frame: Pick<ErrorFrame, 'message' | 'notice'>): string {
  return (
    (frame.notice && wordNotice(language, frame.notice)) ?? frameErrorText(language, 'notice', frame.message)
  );
}

/**
 * Why the engine failed, when the notice names it (docs/decisions/0187): the words that lead the failure's
 * toast. Undefined for a notice without a known cause.
 */
export function causeText(language: UiLanguage, notice: NoticeDetail | undefined): string | undefined {
  const cause = notice?.params?.cause;
  const key = `engine_cause.${String(cause)}`;
  if (cause === undefined || !isNoticeKey(key)) return undefined;
  const words = noticeWords[language][key];
  const values = notice?.params ?? {};
  if (!placeholdersOf(words).every((name) => Object.hasOwn(values, name))) return undefined;
  return fill(words, values);
}

function wordNotice(language: UiLanguage, { kind, params = {} }: NoticeDetail): string | undefined {
  const task = String(params.task ?? '');
  const reason = String(params.reason ?? '');
  const keys: Record<string, string> = {
    engine_loading: 'engine_loading',
    engine_ready: 'engine_ready',
    engine_unavailable: 'engine_unavailable',
    engine_failed: `engine_failed.${task}`,
    backlog: 'backlog',
    translation_paused: `translation_paused.${reason}`,
    credits_paused: `credits_paused.${reason}`,
  };
  const key = Object.hasOwn(keys, kind) ? keys[kind]! : '';
  if (!isNoticeKey(key)) return undefined;
  const words = noticeWords[language];
  const engineKey = `engine.${task}`;
  const values: Record<string, string | number> = { ...params };
  if (isNoticeKey(engineKey)) values.engine = words[engineKey];
  if (typeof params.language === 'string') values.language = languageLabel(params.language, language);
  // every {placeholder} of the words must be filled, or the server's own text says it better
  if (!placeholdersOf(words[key]).every((name) => Object.hasOwn(values, name))) return undefined;
  return fill(words[key], values);
}
