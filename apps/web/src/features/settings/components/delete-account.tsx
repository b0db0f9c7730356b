import { useEffect, useId, useState } from 'react';
import { ApiError } from '#web/lib/api-client';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { TextField } from '#web/components/ui/text-field';
import { useI18n } from '#web/lib/i18n';
import { requestErrorText } from '#web/lib/error-text';
import { deleteAccount, unspentPaidCredits } from '../api/own-data-api';

/** The words that confirm a deletion; either is taken, whatever the interface language. */
const CONFIRM_WORDS = ['DELETE', '削除'];

/**
 * Deleting the account: what goes and what stays, the bought credits that are lost, the confirming word
 * typed, and (when the server asks for a fresh sign-in) the password. After it the app signs out.
 */
export function DeleteAccount({
  token,
  onCancel,
  onDeleted,
}: {
  token: string;
  onCancel: () => void;
  onDeleted: () => void;
}) {
  const { t, language } = useI18n();
  const warningId = useId();
  const [paid, setPaid] = useState<number | undefined>();
  const [typed, setTyped] = useState('');
  const [password, setPassword] = useState('');
  const [askPassword, setAskPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    unspentPaidCredits(token).then(
      (credits) => live && setPaid(credits),
      () => live && setPaid(undefined),
    );
    return () => {
      live = false;
    };
  }, [token]);

  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await deleteAccount(token, askPassword ? password : undefined);
      onDeleted();
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === 'fresh_sign_in_required') setAskPassword(true);
      setError(requestErrorText(language, failure));
      setBusy(false);
    }
  };
  const confirmed = CONFIRM_WORDS.includes(typed.trim());
  return (
    <div
      className="mt-2 flex flex-col gap-3 rounded-xl border border-rose-300 p-3 dark:border-rose-800"
      data-testid="delete-account"
    >
      <p id={warningId} className="text-sm text-slate-700 dark:text-slate-300">
        {t('ownData.deleteWarning')}
        {paid !== undefined && paid > 0 && (
          <strong className="mt-1 block text-rose-700 dark:text-rose-400" data-testid="delete-paid-credits">
            {t('ownData.deletePaidCredits', { credits: paid })}
          </strong>
        )}
      </p>
      <TextField
        label={t('ownData.deleteConfirmLabel')}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        aria-describedby={warningId}
        data-testid="delete-confirm-word"
      />
      {askPassword && (
        <TextField
          label={t('ownData.deletePassword')}
          type="password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          autoComplete="current-password"
          data-testid="delete-password"
        />
      )}
      {error && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-400">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="danger"
          disabled={!confirmed || busy || (askPassword && password === '')}
          onClick={() => void confirm()}
          data-testid="delete-account-confirm"
        >
          {busy && <Spinner className="size-4" />}
          {t('ownData.deleteConfirm')}
        </Button>
      </div>
    </div>
  );
}
