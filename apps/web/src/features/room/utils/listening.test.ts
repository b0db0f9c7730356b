import { afterEach, describe, expect, it } from 'vitest';
import { StorageKey, remove } from '#web/lib/storage';
import { hasMoreLanguages, listeningLanguage, pickListeningLanguage, setOfferedLanguages } from './listening';

describe('the listening language', () => {
  afterEach(() => {
    remove(StorageKey.listen);
    setOfferedLanguages(undefined);
  });

  it('is the interface language while the server offers only EN/JA', () => {
    setOfferedLanguages(['en', 'ja']);
    pickListeningLanguage('fr');
    expect(hasMoreLanguages()).toBe(false);
    expect(listeningLanguage('ja')).toBe('ja');
  });

  it('is the pick when the server offers it, and never a language the server does not know', () => {
    pickListeningLanguage('fr');
    expect(listeningLanguage('en')).toBe('en'); // READY has not said yet: a pick could be refused at join
    setOfferedLanguages(['en', 'ja', 'fr']);
    expect(listeningLanguage('en')).toBe('fr');
    setOfferedLanguages(['en', 'ja', 'de']);
    expect(listeningLanguage('ja')).toBe('ja');
  });
});
