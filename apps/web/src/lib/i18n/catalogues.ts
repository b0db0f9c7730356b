import type { UiLanguage } from '@xtalk/protocol';
import { en, type MessageKey } from './en';

export type Catalogue = Record<MessageKey, string>;

/*
 * Every interface word of a language is one catalogue. English is part of the entry chunk: it is the
 * language of everyone who has not picked one and the fallback of `translate`, so it never waits. Each
 * other language is a chunk of its own, fetched only by the people who use it: before the first render
 * when it is the stored language (main.tsx), or on a switch to it (decision 0188).
 */
const loaders: Record<Exclude<UiLanguage, 'en'>, () => Promise<Catalogue>> = {
  ja: async () => (await import('./ja')).ja,
};

const loaded: Partial<Record<UiLanguage, Catalogue>> = { en };
const loading = new Map<UiLanguage, Promise<void>>();

/** A language's words when they are here (English always is). */
export const catalogueOf = (language: UiLanguage): Catalogue | undefined => loaded[language];

/**
 * Fetches a language's words once; every caller waits for the same request. A failed fetch (offline) is
 * forgotten, so the next call tries again.
 */
export function loadCatalogue(language: UiLanguage): Promise<void> {
  if (language === 'en' || loaded[language]) return Promise.resolve();
  let pending = loading.get(language);
  if (!pending) {
    pending = loaders[language]()
      .then((catalogue) => {
        loaded[language] = catalogue;
      })
      .finally(() => loading.delete(language));
    loading.set(language, pending);
  }
  return pending;
}
