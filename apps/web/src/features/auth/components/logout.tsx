import { useEffect } from 'react';
import { useNavigate } from '../../../lib/router';
import { CenteredCard } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { authStore } from '../../../lib/auth-session';
import { useI18n } from '../../../lib/i18n';
import { StorageKey, remove } from '../../../lib/storage';

/** /logout: forget the user and every stored token, then /login. */
export function Logout() {
  const { t } = useI18n();
  const navigate = useNavigate();
  useEffect(() => {
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
