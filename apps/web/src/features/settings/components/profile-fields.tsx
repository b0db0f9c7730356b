import { FULL_NAME_MAX_LENGTH, USERNAME_MAX_LENGTH, type User } from '@xtalk/protocol';
import { useId, type ReactNode } from 'react';
import { cn } from '#web/lib/cn';
import { useI18n } from '#web/lib/i18n';
import type { FieldError } from '../api/profile-api';

const inputClass =
  'h-11 w-full rounded-xl border border-slate-300 bg-white px-3 text-base text-slate-900 outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500 read-only:bg-slate-50 read-only:text-slate-600 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100 dark:read-only:bg-slate-900 dark:read-only:text-slate-400 dark:disabled:bg-slate-900';

/**
 * The profile's fields: the read-only user ID, the username with its hint or error, the full name. A
 * guest sees them disabled and blurred under the login prompt.
 */
export function ProfileFields({
  user,
  isGuest,
  username,
  onUsername,
  fullName,
  onFullName,
  error,
}: {
  user: User;
  isGuest: boolean;
  username: string;
  onUsername: (value: string) => void;
  fullName: string;
  onFullName: (value: string) => void;
  error: FieldError | undefined;
}) {
  const { t } = useI18n();
  const ids = { id: useId(), username: useId(), fullName: useId(), error: useId() };
  return (
    <fieldset
      disabled={isGuest}
      aria-hidden={isGuest || undefined}
      className={cn(
        'flex flex-col gap-4',
        isGuest && 'pointer-events-none opacity-40 blur-[1.5px] select-none',
      )}
    >
      <Field id={ids.id} label={t('profile.userId')}>
        <input
          id={ids.id}
          readOnly
          value={user.userId}
          data-testid="profile-user-id"
          className={cn(inputClass, 'font-mono text-sm')}
        />
      </Field>
      <Field id={ids.username} label={t('profile.username')}>
        <input
          id={ids.username}
          value={username}
          onChange={(event) => onUsername(event.target.value)}
          maxLength={USERNAME_MAX_LENGTH}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? ids.error : undefined}
          disabled={isGuest}
          data-testid="profile-username"
          className={cn(inputClass, error && 'border-rose-500 focus:border-rose-500 focus:ring-rose-500/30')}
        />
        <UsernameNote error={error} errorId={ids.error} />
      </Field>
      <Field id={ids.fullName} label={t('profile.fullName')}>
        <input
          id={ids.fullName}
          value={fullName}
          onChange={(event) => onFullName(event.target.value)}
          maxLength={FULL_NAME_MAX_LENGTH}
          autoComplete="name"
          disabled={isGuest}
          data-testid="profile-fullname"
          className={inputClass}
        />
      </Field>
    </fieldset>
  );
}

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      {children}
    </div>
  );
}

/** Under the username: what is wrong with it, else what a username may be. */
function UsernameNote({ error, errorId }: { error: FieldError | undefined; errorId: string }) {
  const { t } = useI18n();
  if (!error) {
    return (
      <p className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
        {t('profile.usernameHint', { max: USERNAME_MAX_LENGTH })}
      </p>
    );
  }
  return (
    <p
      id={errorId}
      role="alert"
      data-testid="profile-error"
      className="mt-1.5 text-sm text-rose-600 dark:text-rose-400"
    >
      {t(error.key, error.params)}
    </p>
  );
}
