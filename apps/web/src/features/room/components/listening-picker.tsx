import { useId } from 'react';
import { languageLabel, useI18n } from '#web/lib/i18n';

export interface ListeningPickerProps {
  /** The languages the server translates into (READY's `languages`). */
  languages: readonly string[];
  value: string;
  onChange: (language: string) => void;
  disabled?: boolean | undefined;
}

/**
 * The language this person listens in, when the server translates into more than EN/JA: a native
 * select (keyboard and screen readers know it), labelled in the interface language.
 */
export function ListeningPicker({ languages, value, onChange, disabled }: ListeningPickerProps) {
  const { t, language } = useI18n();
  const id = useId();
  return (
    <div className="flex shrink-0 items-center">
      <label htmlFor={id} className="sr-only">
        {t('chat.listening')}
      </label>
      <select
        id={id}
        data-testid="listening-language"
        value={value}
        disabled={disabled}
        title={t('chat.listening')}
        onChange={(event) => onChange(event.target.value)}
        className="h-9 max-w-[8.5rem] cursor-pointer rounded-full border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none disabled:opacity-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        {languages.map((code) => (
          <option key={code} value={code} lang={code}>
            {languageLabel(code, language)}
          </option>
        ))}
      </select>
    </div>
  );
}
