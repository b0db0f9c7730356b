import type { UiLanguage } from '@xtalk/protocol';
import type { ReactNode } from 'react';
import { translate, useI18n, type MessageKey, type Params } from './i18n';

/*
 * A toast's words are worded while it is on screen, not when it is made: a toast keeps how to say itself
 * (a key and its params, or a function of the language), so a language switch while it shows rewords it
 * with the rest of the interface.
 */

function InLanguage({ text }: { text: (language: UiLanguage) => string }) {
  return text(useI18n().language);
}

/** Words for a toast, said in the interface language of the moment they are shown. */
export const localized = (text: (language: UiLanguage) => string): ReactNode => <InLanguage text={text} />;

/** A catalogue key (and its params) for a toast, worded as `localized` does. */
export const words = (key: MessageKey, params?: Params): ReactNode =>
  localized((language) => translate(language, key, params));
