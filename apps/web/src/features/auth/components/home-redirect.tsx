import { useEffect } from 'react';
import { useNavigate } from '#web/lib/router';
import { ApiError } from '#web/lib/api-client';
import { authStore } from '#web/lib/auth-session';
import { CenteredCard } from '#web/components/ui/card';
import { Spinner } from '#web/components/ui/spinner';
import { useI18n } from '#web/lib/i18n';
import { fetchMe } from '../api/auth-api';

/** `/`: 'Logging in..', then /translate for a signed-in user (confirmed by the server), else /guest-login. */
export function HomeRedirect() {
  const { t } = useI18n();
  const navigate = useNavigate();
  useEffect(() => {
    const session = authStore.get();
    if (!session) {
      void navigate('/guest-login', { replace: true });
      return;
    }
    let cancelled = false;
    fetchMe(session.token)
      .then((user) => {
        if (!cancelled) authStore.set({ token: session.token, user });
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 401) authStore.clear();
        // Unreachable server: keep the stored session; the room screen reconnects when it is back.
        else console.warn('[home] could not confirm the session', error);
      })
      .finally(() => {
        if (!cancelled) void navigate(authStore.get() ? '/translate' : '/guest-login', { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [navigate]);
  return (
    <CenteredCard className="flex flex-col items-center gap-3">
      <Spinner className="size-7 text-indigo-600" />
      <p className="text-slate-700 dark:text-slate-200">{t('home.loggingIn')}</p>
    </CenteredCard>
  );
}
