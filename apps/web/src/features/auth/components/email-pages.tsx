import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from '#web/lib/router';
import { PASSWORD_MIN_LENGTH } from '@xtalk/protocol';
import { Button } from '#web/components/ui/button';
import { CenteredCard } from '#web/components/ui/card';
import { Spinner } from '#web/components/ui/spinner';
import { TextField } from '#web/components/ui/text-field';
import { useAuthSession } from '#web/lib/auth-session';
import { requestErrorText } from '#web/lib/error-text';
import { useI18n } from '#web/lib/i18n';
import { changePassword, emailReset, emailVerify } from '../api/email-api';

/* The pages the account mails open (/verify-email, /reset-password) and the change-password form. */

const linkClass = 'font-semibold text-indigo-600 hover:underline dark:text-indigo-400';

function Result({ ok, children }: { ok: boolean; children: ReactNode }) {
  return (
    <p
      role={ok ? 'status' : 'alert'}
      data-testid={ok ? 'email-page-ok' : 'email-page-error'}
      className={ok ? 'text-emerald-700 dark:text-emerald-400' : 'text-rose-600 dark:text-rose-400'}
    >
      {children}
    </p>
  );
}

/** /verify-email?token=: confirms the address once, then offers to sign in. */
export function VerifyEmailPage() {
  const { t, language } = useI18n();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  // a failure is kept as it came and worded at render, in the current language
  const [state, setState] = useState<{ ok: boolean; failure?: unknown } | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // the token works once: React's development double effect must not spend it twice
    if (started.current) return;
    started.current = true;
    emailVerify(token).then(
      () => setState({ ok: true }),
      (failure: unknown) => setState({ ok: false, failure }),
    );
  }, [token]);

  return (
    <CenteredCard testId="verify-email" className="flex flex-col items-center gap-4">
      <h1 className="text-xl font-semibold">{t('email.verifyTitle')}</h1>
      {!state && <Spinner className="size-7 text-indigo-600" />}
      {state && (
        <Result ok={state.ok}>
          {state.ok ? t('email.verified') : requestErrorText(language, state.failure)}
        </Result>
      )}
      {state && (
        <Link to="/login" className={linkClass} data-testid="verify-to-login">
          {t('signup.logIn')}
        </Link>
      )}
    </CenteredCard>
  );
}

function PasswordForm({
  current,
  onSubmit,
  submitLabel,
}: {
  current: boolean;
  onSubmit: (password: string, newPassword: string) => Promise<void>;
  submitLabel: string;
}) {
  const { t, language } = useI18n();
  const [password, setPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; failure?: unknown } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setResult(null);
    try {
      await onSubmit(password, newPassword);
      setResult({ ok: true });
      setPassword('');
      setNewPassword('');
    } catch (failure) {
      setResult({ ok: false, failure });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={(event) => void submit(event)}
      className="mt-6 flex flex-col gap-3"
      data-testid="password-form"
    >
      {current && (
        <TextField
          label={t('email.currentPassword')}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          data-testid="current-password"
        />
      )}
      <TextField
        label={t('email.newPassword')}
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        value={newPassword}
        onChange={(event) => setNewPassword(event.target.value)}
        data-testid="new-password"
      />
      {result && (
        <Result ok={result.ok}>
          {result.ok ? t('email.passwordChanged') : requestErrorText(language, result.failure)}
        </Result>
      )}
      <Button type="submit" size="lg" disabled={busy} data-testid="password-submit">
        {busy && <Spinner className="size-4" />}
        {submitLabel}
      </Button>
    </form>
  );
}

/** /reset-password?token=: choose a new password with the mailed link. */
export function ResetPasswordPage() {
  const { t } = useI18n();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  return (
    <CenteredCard testId="reset-password">
      <h1 className="text-xl font-semibold">{t('email.resetTitle')}</h1>
      <PasswordForm
        current={false}
        submitLabel={t('email.setPassword')}
        onSubmit={(_password, newPassword) => emailReset(token, newPassword)}
      />
      <p className="mt-6 text-sm">
        <Link to="/login" className={linkClass}>
          {t('signup.logIn')}
        </Link>
      </p>
    </CenteredCard>
  );
}

/** /account/password: a signed-in player with an email sign-in changes their password. */
export function ChangePasswordPage() {
  const { t } = useI18n();
  const session = useAuthSession();
  const signedIn = session && session.user.provider !== 'guest';
  return (
    <CenteredCard testId="change-password">
      <h1 className="text-xl font-semibold">{t('email.changeTitle')}</h1>
      {signedIn ? (
        <PasswordForm
          current
          submitLabel={t('email.changeSubmit')}
          onSubmit={(password, newPassword) => changePassword(session.token, password, newPassword)}
        />
      ) : (
        <p className="mt-4 text-slate-600 dark:text-slate-400">{t('email.changeNeedsLogin')}</p>
      )}
      <p className="mt-6 flex justify-center gap-4 text-sm">
        {signedIn ? (
          <Link to="/translate" className={linkClass}>
            {t('email.backToChat')}
          </Link>
        ) : (
          <Link to="/login" className={linkClass}>
            {t('signup.logIn')}
          </Link>
        )}
      </p>
    </CenteredCard>
  );
}
