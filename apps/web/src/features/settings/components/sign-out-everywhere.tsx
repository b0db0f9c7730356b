import { LogOut } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { useI18n } from '#web/lib/i18n';
import { endAllSessions } from '#web/lib/sign-out';

/**
 * "Sign out everywhere": every session of the account ends on the server (POST /api/auth/logout-all),
 * this one too, so every device's socket is closed as signed out; then this device signs out.
 */
export function SignOutEverywhere({ token, onSignedOut }: { token: string; onSignedOut: () => void }) {
  const { t } = useI18n();
  const hintId = useId();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const signOut = async () => {
    setBusy(true);
    setFailed(false);
    try {
      await endAllSessions(token);
      onSignedOut();
    } catch {
      setFailed(true);
      setBusy(false);
    }
  };
  return (
    <div className="mt-6 flex flex-col gap-2 border-t border-slate-200 pt-4 dark:border-slate-800">
      <Button
        variant="outline"
        className="self-start"
        disabled={busy}
        aria-describedby={hintId}
        onClick={() => void signOut()}
        data-testid="profile-sign-out-everywhere"
      >
        {busy ? <Spinner className="size-4" /> : <LogOut className="size-4" aria-hidden />}
        {t('profile.signOutEverywhere')}
      </Button>
      <p id={hintId} className="text-sm text-slate-600 dark:text-slate-400">
        {t('profile.signOutEverywhereHint')}
      </p>
      {failed && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-400">
          {t('profile.signOutEverywhereFailed')}
        </p>
      )}
    </div>
  );
}
