import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from '#web/lib/router';
import { CenteredCard } from '#web/components/ui/card';
import { Spinner } from '#web/components/ui/spinner';
import { authStore } from '#web/lib/auth-session';
import { requestErrorText } from '#web/lib/error-text';
import { getLanguage, useI18n } from '#web/lib/i18n';
import { StorageKey, consumeRedirectAfterLogin, remove } from '#web/lib/storage';
import { exchangeToken } from '../api/auth-api';

/** /auth/{token}?provider=: exchange the token for a user, then the saved target or /translate. */
export function AuthToken() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const { token } = useParams();
  const [search] = useSearchParams();
  const provider = search.get('provider') || 'ggl';
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!token) {
      void navigate('/login', { replace: true });
      return;
    }
    let cancelled = false;
    exchangeToken(token, provider)
      .then((session) => {
        if (cancelled) return;
        authStore.set(session);
        // a guest's rooms on this device are not the account's history (the server has that)
        remove(StorageKey.rooms);
        void navigate(consumeRedirectAfterLogin() ?? '/translate', { replace: true });
      })
      .catch((failure: unknown) => {
        if (!cancelled) setError(requestErrorText(getLanguage(), failure));
      });
    return () => {
      cancelled = true;
    };
  }, [token, provider, navigate]);

  return (
    <CenteredCard className="flex flex-col items-center gap-4">
      {error ? (
        <>
          <p role="alert" className="text-rose-600 dark:text-rose-400">
            {t('auth.failed', { message: error })}
          </p>
          <Link to="/login" className="font-semibold text-indigo-600 hover:underline dark:text-indigo-400">
            {t('signup.logIn')}
          </Link>
        </>
      ) : (
        <>
          <Spinner className="size-7 text-indigo-600" />
          <p>{t('auth.signingIn')}</p>
        </>
      )}
    </CenteredCard>
  );
}
