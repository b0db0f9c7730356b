import type { UiLanguage } from '@xtalk/protocol';
import { languageLabel, translate } from '#web/lib/i18n';

/*
 * Said when the page starts without its language's words (offline, and the worker's shell did not have
 * them): the page is in English, so this notice is too, and `<html lang>` says English while it shows.
 */
export function WordsOffline({ language }: { language: UiLanguage }) {
  return (
    <p
      role="status"
      data-testid="words-offline"
      className="bg-amber-100 px-3 py-1.5 text-center text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-100"
    >
      {translate('en', 'common.wordsOffline', { language: languageLabel(language, 'en') })}
    </p>
  );
}
