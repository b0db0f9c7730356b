import { useState, type FormEvent } from 'react';
import { PASSWORD_MIN_LENGTH } from '@xtalk/protocol';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { requestErrorText } from '../../../lib/error-text';
import { useI18n } from '../../../lib/i18n';
import { emailForgot, emailLogin, emailRegister, emailResend } from '../api/email-api';
import { useMailConfigured } from '../hooks/use-auth-config';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';

type Mode = 'login' | 'register' | 'forgot';

/**
 * The email part of the /login and /signup cards: sign in, create an account (then the mail's link
 * confirms it), or ask for a password reset link. A refusal is worded from its code, in the page's language.
 */
export function EmailForm({ initialMode }: { initialMode: 'login' | 'register' }) {
  const { t, language } = useI18n();
  const completeSignIn = useCompleteSignIn();
  const [mode, setMode] = useState<Mode>(initialMode);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  // the failure itself, worded at render: switching the language rewords it
  const [error, setError] = useState<{ failure: unknown } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [canResend, setCanResend] = useState(false);
  const mailConfigured = useMailConfigured();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      if (mode === 'login') {
        completeSignIn(await emailLogin(email, password));
        return;
      }
      if (mode === 'register') {
        await emailRegister(email, password);
        setNotice(t('email.checkMailVerify'));
        setCanResend(true);
      } else {
        await emailForgot(email);
        setNotice(t('email.checkMailReset'));
      }
    } catch (failure) {
      setError({ failure });
    } finally {
      setBusy(false);
    }
  }

  async function resend() {
    setError(null);
    try {
      await emailResend(email);
      setNotice(t('email.resent'));
    } catch (failure) {
      setError({ failure });
    }
  }

  const submitLabel =
    mode === 'login'
      ? t('email.signIn')
      : mode === 'register'
        ? t('email.createAccount')
        : t('email.sendReset');
  return (
    <form
      onSubmit={(event) => void submit(event)}
      className="flex flex-col gap-3"
      data-testid="email-form"
      data-mode={mode}
    >
      {mode !== 'login' && !mailConfigured && (
        <p
          role="note"
          data-testid="email-no-mail"
          className="rounded-xl bg-amber-50 px-3 py-2 text-left text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-200"
        >
          {t('email.noMail')}
        </p>
      )}
      <TextField
        label={t('email.address')}
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        data-testid="email-address"
      />
      {mode !== 'forgot' && (
        <TextField
          label={t('email.password')}
          type="password"
          autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
          required
          minLength={mode === 'register' ? PASSWORD_MIN_LENGTH : undefined}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          data-testid="email-password"
        />
      )}
      {error && (
        <p role="alert" className="text-left text-sm text-rose-600 dark:text-rose-400">
          {requestErrorText(language, error.failure)}
        </p>
      )}
      {notice && (
        <p
          role="status"
          data-testid="email-notice"
          className="text-left text-sm text-emerald-700 dark:text-emerald-400"
        >
          {notice}
        </p>
      )}
      <Button type="submit" size="lg" disabled={busy} data-testid="email-submit">
        {busy && <Spinner className="size-4" />}
        {submitLabel}
      </Button>
      {mode === 'login' && (
        <FormLink onClick={() => setMode('forgot')} testId="email-forgot">
          {t('email.forgot')}
        </FormLink>
      )}
      {mode === 'forgot' && <FormLink onClick={() => setMode('login')}>{t('email.backToSignIn')}</FormLink>}
      {mode === 'register' && canResend && (
        <FormLink onClick={() => void resend()} testId="email-resend">
          {t('email.resend')}
        </FormLink>
      )}
    </form>
  );
}

function FormLink({ onClick, testId, children }: { onClick: () => void; testId?: string; children: string }) {
  return (
    <button
      type="button"
      className="self-start text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400"
      onClick={onClick}
      data-testid={testId}
    >
      {children}
    </button>
  );
}
