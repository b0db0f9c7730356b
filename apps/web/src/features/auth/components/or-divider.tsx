import { useI18n } from '#web/lib/i18n';

/** "or" between the other sign-ins and the email form. */
export function OrDivider() {
  const { t } = useI18n();
  return (
    <div
      className="flex items-center gap-3 text-xs text-slate-500 uppercase dark:text-slate-400"
      aria-hidden="true"
    >
      <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
      {t('email.or')}
      <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
    </div>
  );
}
