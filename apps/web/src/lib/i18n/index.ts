import { DEFAULT_LANGUAGE, UI_LANGUAGES, type UiLanguage } from '@xtalk/protocol';
import { useSyncExternalStore } from 'react';
import { StorageKey, readString, writeString } from '../storage';
import { catalogueOf, loadCatalogue } from './catalogues';
import { en, type MessageKey } from './en';

export type { MessageKey } from './en';
export { loadCatalogue } from './catalogues';

export type Params = Record<string, string | number>;

/**
 * Translate a key into a language, filling {placeholders}. Pure, so non-React code and tests use it too.
 * A language whose catalogue is not loaded yet reads as English (the interface language only changes
 * once it is: setLanguage).
 */
export function translate(language: UiLanguage, key: MessageKey, params?: Params): string {
  return fill(catalogueOf(language)?.[key] ?? en[key], params);
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** A template's {placeholders} filled from `params`; one without a value is left as it is. */
export function fill(template: string, params?: Params): string {
  if (!params) return template;
  return template.replace(PLACEHOLDER, (match, name: string) =>
    name in params ? String(params[name]) : match,
  );
}

/** The names of a template's {placeholders}, in order. */
export const placeholdersOf = (template: string): string[] =>
  [...template.matchAll(PLACEHOLDER)].map((match) => match[1]!);

/** A language's own name in the interface language ('French', 'フランス語'); the code if unknown. */
export function languageLabel(code: string, interfaceLanguage: UiLanguage): string {
  try {
    return new Intl.DisplayNames([interfaceLanguage], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function isUiLanguage(value: unknown): value is UiLanguage {
  return typeof value === 'string' && (UI_LANGUAGES as readonly string[]).includes(value);
}

// preferredLanguage (storage key `lang`, default en): one store for interface language and chat language.
let current: UiLanguage | undefined;
const listeners = new Set<() => void>();

export function getLanguage(): UiLanguage {
  if (current === undefined) {
    const stored = readString(StorageKey.lang);
    current = isUiLanguage(stored) ? stored : (DEFAULT_LANGUAGE as UiLanguage);
  }
  return current;
}

// The language last asked for: a switch back while a catalogue is on its way wins over it.
let wanted: UiLanguage | undefined;

/**
 * Switch the interface language. Once its catalogue is here, at once; otherwise it is fetched first and the
 * whole interface changes when it arrives, so no screen mixes languages. A catalogue that cannot be fetched
 * (offline) leaves the language as it was.
 */
export function setLanguage(language: UiLanguage): void {
  wanted = language;
  if (catalogueOf(language)) return applyLanguage(language);
  loadCatalogue(language).then(
    () => {
      if (wanted === language) applyLanguage(language);
    },
    (error: unknown) => console.warn(`[i18n] the ${language} catalogue could not be loaded`, error),
  );
}

/** How long the browser keeps the language cookie: a year, renewed at every start. */
const LANGUAGE_COOKIE_SECONDS = 365 * 24 * 60 * 60;

/**
 * The language in a cookie as well as in storage: the server reads it to send the page that preloads that
 * language's words (decision 0241), so a returning reader's first render waits for no further request.
 */
export function rememberLanguage(language: UiLanguage): void {
  if (typeof document === 'undefined') return;
  const secure = location.protocol === 'https:' ? '; secure' : '';
  document.cookie = `lang=${language}; path=/; max-age=${LANGUAGE_COOKIE_SECONDS}; samesite=lax${secure}`;
}

function applyLanguage(language: UiLanguage): void {
  current = language;
  writeString(StorageKey.lang, language);
  rememberLanguage(language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export interface I18n {
  language: UiLanguage;
  t: (key: MessageKey, params?: Params) => string;
  setLanguage: (language: UiLanguage) => void;
}

export function useI18n(): I18n {
  const language = useSyncExternalStore(subscribe, getLanguage, getLanguage);
  return {
    language,
    t: (key, params) => translate(language, key, params),
    setLanguage,
  };
}
