import type { UiLanguage } from '@xtalk/protocol';
import { useI18n } from '#web/lib/i18n';
import { SegmentedSwitch } from './ui/segmented-switch';

const OPTIONS = [
  { value: 'ja', label: 'JA' },
  { value: 'en', label: 'EN' },
] as const satisfies readonly { value: UiLanguage; label: string }[];

/** The JA/EN switch: changes preferredLanguage; callers add side effects (setLanguage frame). */
export function LanguageToggle({
  disabled,
  onChange,
}: {
  disabled?: boolean;
  onChange?: (language: UiLanguage) => void;
}) {
  const { language, setLanguage, t } = useI18n();
  return (
    <SegmentedSwitch
      testId="language-switch"
      label={t('chat.languageSwitch')}
      value={language}
      options={OPTIONS}
      disabled={disabled}
      onChange={(next) => {
        setLanguage(next);
        onChange?.(next);
      }}
    />
  );
}
