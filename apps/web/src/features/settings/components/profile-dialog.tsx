import { FULL_NAME_MAX_LENGTH, USERNAME_MAX_LENGTH, type User } from '@xtalk/protocol';
import { LogIn } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { useI18n } from '../../../lib/i18n';
import { checkUsernameField, saveErrorOf, updateProfile, type FieldError } from '../api/profile-api';

export interface ProfileDialogProps {
  open: boolean;
  onClose: () => void;
  token: string;
  user: User;
  /** The saved user (new username and full name); the page tells the room. */
  onSaved: (user: User) => void;
  onLogin: () => void;
}

const inputClass =
  'h-11 w-full rounded-xl border border-slate-300 bg-white px-3 text-base text-slate-900 outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500 read-only:bg-slate-50 read-only:text-slate-600 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100 dark:read-only:bg-slate-900 dark:read-only:text-slate-400 dark:disabled:bg-slate-900';

/**
 * Profile Settings (設定 in Japanese; spec section 2, Dialogs): read-only user ID, Username, Full Name,
 * Cancel and Save. Guests see it disabled under a Login prompt (spec section 6).
 */
export function ProfileDialog(props: ProfileDialogProps) {
  const { t } = useI18n();
  if (!props.open) return null;
  return (
    <Dialog
      open
      onClose={props.onClose}
      title={t('profile.title')}
      closeLabel={t('common.close')}
      testId="profile-dialog"
    >
      {/* remounted on each open: the form starts from the saved profile */}
      <ProfileForm {...props} />
    </Dialog>
  );
}

function ProfileForm({ onClose, token, user, onSaved, onLogin }: ProfileDialogProps) {
  const { t } = useI18n();
  const ids = { id: useId(), username: useId(), fullName: useId(), error: useId() };
  const isGuest = user.provider === 'guest';
  const [username, setUsername] = useState(isGuest ? user.displayUsername : user.username);
  const [fullName, setFullName] = useState(user.name);
  const [error, setError] = useState<FieldError | undefined>();
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isGuest || saving) return;
    const problem = checkUsernameField(username, user.username);
    setError(problem);
    if (problem) return;
    setSaving(true);
    try {
      const saved = await updateProfile(token, { name: username.trim(), fullName });
      onSaved(saved);
      onClose();
    } catch (failure) {
      const refused = saveErrorOf(failure, username);
      if (refused.field) setError(refused.field);
      else window.alert(refused.message || t('profile.error.generic'));
    } finally {
      setSaving(false);
    }
  };

  const labelClass = 'mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300';
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <div className="relative">
        <fieldset
          disabled={isGuest}
          aria-hidden={isGuest || undefined}
          className={cn(
            'flex flex-col gap-4',
            isGuest && 'pointer-events-none opacity-40 blur-[1.5px] select-none',
          )}
        >
          <div>
            <label htmlFor={ids.id} className={labelClass}>
              {t('profile.userId')}
            </label>
            <input
              id={ids.id}
              readOnly
              value={user.userId}
              data-testid="profile-user-id"
              className={cn(inputClass, 'font-mono text-sm')}
            />
          </div>
          <div>
            <label htmlFor={ids.username} className={labelClass}>
              {t('profile.username')}
            </label>
            <input
              id={ids.username}
              value={username}
              onChange={(event) => {
                setUsername(event.target.value);
                setError(undefined);
              }}
              maxLength={USERNAME_MAX_LENGTH}
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? ids.error : undefined}
              disabled={isGuest}
              data-testid="profile-username"
              className={cn(
                inputClass,
                error && 'border-rose-500 focus:border-rose-500 focus:ring-rose-500/30',
              )}
            />
            {error ? (
              <p
                id={ids.error}
                role="alert"
                data-testid="profile-error"
                className="mt-1.5 text-sm text-rose-600 dark:text-rose-400"
              >
                {t(error.key, error.params)}
              </p>
            ) : (
              <p className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
                {t('profile.usernameHint', { max: USERNAME_MAX_LENGTH })}
              </p>
            )}
          </div>
          <div>
            <label htmlFor={ids.fullName} className={labelClass}>
              {t('profile.fullName')}
            </label>
            <input
              id={ids.fullName}
              value={fullName}
              onChange={(event) => setFullName(event.target.value)}
              maxLength={FULL_NAME_MAX_LENGTH}
              autoComplete="name"
              disabled={isGuest}
              data-testid="profile-fullname"
              className={inputClass}
            />
          </div>
        </fieldset>
        {isGuest && (
          <div
            data-testid="profile-login-prompt"
            className="absolute inset-0 flex flex-col items-center justify-center gap-3 p-4 text-center"
          >
            <p className="max-w-xs rounded-2xl bg-white/90 px-4 py-2 font-medium text-slate-900 shadow-sm dark:bg-slate-800/90 dark:text-white">
              {t('profile.guestPrompt')}
            </p>
            <Button onClick={onLogin} data-testid="profile-login">
              <LogIn className="size-4" aria-hidden="true" />
              {t('room.login')}
            </Button>
          </div>
        )}
      </div>
      <div className="mt-6 flex items-center justify-end gap-2">
        {!isGuest && (
          <a
            href="/account/password"
            className="mr-auto text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400"
          >
            {t('email.changeTitle')}
          </a>
        )}
        <Button variant="secondary" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" disabled={isGuest || saving} data-testid="profile-save">
          {saving && <Spinner className="size-4" />}
          {t('profile.save')}
        </Button>
      </div>
    </form>
  );
}
