import { useState, type FormEvent } from 'react';
import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';
import { useI18n } from '#web/lib/i18n';
import { checkRoomCode, roomCodeInput } from '../utils/room-code';

export interface JoinRoomDialogProps {
  open: boolean;
  currentRoom: string | null;
  onClose: () => void;
  onJoin: (code: string) => void;
}

/** Join Room: a 7-character code, Cancel and Join Room (docs/product.md#dialogs). */
export function JoinRoomDialog({ open, currentRoom, onClose, onJoin }: JoinRoomDialogProps) {
  const { t } = useI18n();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setValue('');
    setError(null);
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const check = checkRoomCode(value, currentRoom);
    if (!check.ok) {
      setError(t(check.error));
      return;
    }
    setValue('');
    setError(null);
    onJoin(check.code);
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      title={t('join.title')}
      description={t('join.description')}
      closeLabel={t('common.close')}
      testId="join-room-dialog"
    >
      <form onSubmit={submit} noValidate>
        <input
          data-testid="join-room-input"
          aria-label={t('join.title')}
          inputMode="text"
          value={value}
          // No maxLength attribute: the browser would cut a pasted ' 2jfkash' or a full share link before
          // it is cleaned; roomCodeInput cleans it, then keeps 7 characters.
          onChange={(event) => {
            setValue(roomCodeInput(event.target.value));
            setError(null);
          }}
          placeholder={t('join.placeholder')}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-invalid={error !== null}
          aria-describedby={error ? 'join-room-error' : undefined}
          className="w-full rounded-2xl border border-slate-300 bg-white px-4 py-3 text-center font-mono text-2xl tracking-[0.4em] uppercase placeholder:text-slate-300 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-200 focus:outline-none dark:border-slate-700 dark:bg-slate-950 dark:placeholder:text-slate-700 dark:focus:ring-indigo-900"
        />
        {error && (
          <p id="join-room-error" role="alert" className="mt-2 text-sm text-rose-600 dark:text-rose-400">
            {error}
          </p>
        )}
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="ghost" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" data-testid="join-room-submit">
            {t('join.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
