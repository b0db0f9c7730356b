import { CircleAlert, Compass } from 'lucide-react';
import { Link, useSearchParams } from '#web/lib/router';
import { CenteredCard } from '#web/components/ui/card';
import { isHttpErrorCode } from '@xtalk/protocol';
import { httpErrorText } from '#web/lib/error-text';
import { useI18n } from '#web/lib/i18n';

const homeLink =
  'mt-6 inline-flex items-center justify-center rounded-full bg-indigo-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-indigo-500';

/** /error?code=&message=: a known code in the page's language, else the message as given. */
export function ErrorPage() {
  const { t, language } = useI18n();
  const [search] = useSearchParams();
  const code = search.get('code');
  return (
    <CenteredCard testId="error-page">
      <CircleAlert className="mx-auto size-10 text-rose-500" aria-hidden="true" />
      <h1 className="mt-3 text-xl font-semibold">{t('error.title')}</h1>
      <p role="alert" className="mt-2 text-slate-600 dark:text-slate-300">
        {isHttpErrorCode(code) ? httpErrorText(language, code) : search.get('message') || t('error.unknown')}
      </p>
      <Link to="/" className={homeLink}>
        {t('common.goHome')}
      </Link>
    </CenteredCard>
  );
}

/** Any unknown path. */
export function NotFoundPage() {
  const { t } = useI18n();
  return (
    <CenteredCard testId="not-found">
      <Compass className="mx-auto size-10 text-indigo-500" aria-hidden="true" />
      <h1 className="mt-3 text-xl font-semibold">{t('notFound.title')}</h1>
      <Link to="/" className={homeLink}>
        {t('common.goHome')}
      </Link>
    </CenteredCard>
  );
}
