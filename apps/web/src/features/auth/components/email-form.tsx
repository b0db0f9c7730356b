import { PASSWORD_MIN_LENGTH } from '@xtalk/protocol';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { TextField } from '#web/components/ui/text-field';
import { requestErrorText } from '#web/lib/error-text';
import { useI18n, type MessageKey } from '#web/lib/i18n';
import { useMailConfigured } from '../hooks/use-auth-config';
import { useEmailForm, type EmailMode } from '../hooks/use-email-form';
import { FormAlert } from './form-alert';

const submitLabels: Record<EmailMode, MessageKey> = {
  login: 'email.signIn',
  register: 'email.createAccount',
  forgot: 'email.sendReset',
};

/**
 * The email part of the /login and /signup cards: sign in, create an account (then the mail's link
 * confirms it), or ask for a password reset link. A refusal is worded from its code, in the page's language.
 */
export function EmailForm({ initialMode }: { initialMode: 'login' | 'register' }) {
  const { t, language } = useI18n();
  const form = useEmailForm(initialMode);
  const { mode } = form;
  const mailConfigured = useMailConfigured();
  return (
    <form
      onSubmit={(event) => void form.submit(event)}
      className="flex flex-col gap-3"
      data-testid="email-form"
      data-mode={mode}
    >
      {mode !== 'login' && !mailConfigured && <NoMailNote />}
      <TextField
        label={t('email.address')}
        type="email"
        autoComplete="email"
        required
        value={form.email}
        onChange={(event) => form.setEmail(event.target.value)}
        data-testid="email-address"
      />
      {mode !== 'forgot' && (
        <TextField
          label={t('email.password')}
          type="password"
          autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
          required
          minLength={mode === 'register' ? PASSWORD_MIN_LENGTH : undefined}
          value={form.password}
          onChange={(event) => form.setPassword(event.target.value)}
          data-testid="email-password"
        />
      )}
      {form.error && <FormAlert>{requestErrorText(language, form.error.failure)}</FormAlert>}
      {form.notice && (
        <p
          role="status"
          data-testid="email-notice"
          className="text-left text-sm text-emerald-700 dark:text-emerald-400"
        >
          {form.notice}
        </p>
      )}
      <Button type="submit" size="lg" disabled={form.busy} data-testid="email-submit">
        {form.busy && <Spinner className="size-4" />}
        {t(submitLabels[mode])}
      </Button>
      <ModeLinks
        mode={mode}
        canResend={form.canResend}
        onMode={form.setMode}
        onResend={() => void form.resend()}
      />
    </form>
  );
}

/** Creating an account or a reset link needs mail, which this server may not send. */
function NoMailNote() {
  const { t } = useI18n();
  return (
    <p
      role="note"
      data-testid="email-no-mail"
      className="rounded-xl bg-amber-50 px-3 py-2 text-left text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-200"
    >
      {t('email.noMail')}
    </p>
  );
}

/** The way to the other modes below the submit button, and the resend of the confirmation mail. */
function ModeLinks({
  mode,
  canResend,
  onMode,
  onResend,
}: {
  mode: EmailMode;
  canResend: boolean;
  onMode: (mode: EmailMode) => void;
  onResend: () => void;
}) {
  const { t } = useI18n();
  return (
    <>
      {mode === 'login' && (
        <FormLink onClick={() => onMode('forgot')} testId="email-forgot">
          {t('email.forgot')}
        </FormLink>
      )}
      {mode === 'forgot' && <FormLink onClick={() => onMode('login')}>{t('email.backToSignIn')}</FormLink>}
      {mode === 'register' && canResend && (
        <FormLink onClick={onResend} testId="email-resend">
          {t('email.resend')}
        </FormLink>
      )}
    </>
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
