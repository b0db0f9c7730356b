import { useState, type FormEvent } from 'react';
import { useI18n } from '#web/lib/i18n';
import { emailForgot, emailLogin, emailRegister, emailResend } from '../api/email-api';
import { useCompleteSignIn } from './use-complete-sign-in';

export type EmailMode = 'login' | 'register' | 'forgot';

/**
 * The email form's fields and its two requests: the submit of the current mode (sign in, create an
 * account, ask for a reset link) and the resend of the confirmation mail.
 */
export function useEmailForm(initialMode: 'login' | 'register') {
  const { t } = useI18n();
  const completeSignIn = useCompleteSignIn();
  const [mode, setMode] = useState<EmailMode>(initialMode);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  // the failure itself, worded at render: switching the language rewords it
  const [error, setError] = useState<{ failure: unknown } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [canResend, setCanResend] = useState(false);

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

  return {
    mode,
    setMode,
    email,
    setEmail,
    password,
    setPassword,
    busy,
    error,
    notice,
    canResend,
    submit,
    resend,
  };
}
