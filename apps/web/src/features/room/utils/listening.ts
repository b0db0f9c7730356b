import { UI_LANGUAGES } from '@xtalk/protocol';
import { getLanguage } from '#web/lib/i18n';
import { StorageKey, readString, writeString } from '#web/lib/storage';

/*
 * The language a person listens in (translations shown first, speech heard). With the server's usual
 * `en,ja` it is the interface language; when the server translates into more (READY's `languages`), the
 * person may pick any of them, and that pick is kept across visits. The interface itself stays EN/JA.
 */

/** The languages the server last said it translates into (READY); empty until then. */
let offered: readonly string[] = [];

export function setOfferedLanguages(languages: readonly string[] | undefined): void {
  offered = languages ?? [];
}

export function offeredLanguages(): readonly string[] {
  return offered;
}

/** Whether the server offers languages beyond the interface's two, so a listening language is picked. */
export function hasMoreLanguages(languages: readonly string[] = offered): boolean {
  return languages.some((language) => !(UI_LANGUAGES as readonly string[]).includes(language));
}

/**
 * The language to listen in: the person's pick when the server offers it (a pick the server does not
 * know would be refused at join), else the interface language.
 */
export function listeningLanguage(interfaceLanguage: string = getLanguage()): string {
  const pick = readString(StorageKey.listen);
  if (pick && hasMoreLanguages() && offered.includes(pick)) return pick;
  return interfaceLanguage;
}

export function pickListeningLanguage(language: string): void {
  writeString(StorageKey.listen, language);
}
