import { useEffect } from 'react';
import { useNavigate } from '#web/lib/router';
import { CenteredCard } from '#web/components/ui/card';
import { Spinner } from '#web/components/ui/spinner';
import { authStore } from '#web/lib/auth-session';
import { useI18n } from '#web/lib/i18n';
import { endSession } from '#web/lib/sign-out';
import { StorageKey, remove } from '#web/lib/storage';

/**
 * /logout: the session ends on the server (its token is refused everywhere, its sockets close), then the
 * user and every stored token are forgotten here, and on to /login. A session the server cannot end now
 * (offline, already ended) is forgotten all the same.
 */
export function Logout() {
  const { t } = useI18n();
  const navigate = useNavigate();
  useEffect(() => {
    const token = authStore.get()?.token;
    if (token) void endSession(token).catch(() => undefined);
    authStore.clear();
    // what belonged to the account goes with it: its room history mirror and balance
    remove(StorageKey.rooms);
    remove(StorageKey.bal);
    const id = setTimeout(() => void navigate('/login', { replace: true }), 800);
    return () => clearTimeout(id);
  }, [navigate]);
  return (
    <CenteredCard className="flex flex-col items-center gap-3">
      <Spinner className="size-7 text-indigo-600" />
      <p className="text-lg font-medium">{t('logout.message')}</p>
    </CenteredCard>
  );
}
