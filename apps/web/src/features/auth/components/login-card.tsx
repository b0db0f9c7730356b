import { LogIn, UserRound } from 'lucide-react';
import { Suspense, lazy } from 'react';
import { Link, useLocation, useNavigate } from '#web/lib/router';
import { Button } from '#web/components/ui/button';
import { CenteredCard } from '#web/components/ui/card';
import { useAuthSession } from '#web/lib/auth-session';
import { useI18n } from '#web/lib/i18n';
import { useAuthConfig } from '../hooks/use-auth-config';
import { EmailForm } from './email-form';

const DEFAULT_ORIGIN = '/chat/default';

// Google, Telegram and wallets load with their own code once the server said which it offers, so none
// of them weighs on the first load; a provider that is not there is not shown at all.
const SignInProviders = lazy(async () => ({
  default: (await import('./sign-in-providers')).SignInProviders,
}));

/** The providers above the email form; `data-state` says when the server answered and they are shown. */
function Providers({ signup }: { signup: boolean }) {
  const config = useAuthConfig();
  const pending = (state: string) => <div data-testid="sign-in-providers" data-state={state} hidden />;
  if (!config) return pending('checking');
  // nothing to offer: the providers' code is not loaded at all (a wallet needs an injected provider)
  const wallet = config.wallet && typeof window !== 'undefined' && 'ethereum' in window;
  if (!config.google && !config.telegram && !wallet) return pending('ready');
  return (
    <Suspense fallback={pending('loading')}>
      <SignInProviders config={config} signup={signup} />
    </Suspense>
  );
}

/** /login. */
export function LoginCard() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const location = useLocation();
  const session = useAuthSession();
  const from = (location.state as { from?: string } | null)?.from ?? DEFAULT_ORIGIN;
  const isGuest = session?.user.provider === 'guest';
  return (
    <CenteredCard testId="login">
      <p className="text-3xl font-black tracking-tight text-indigo-600 dark:text-indigo-400">XTalk</p>
      <h1 className="mt-3 text-xl font-semibold">{t('login.title')}</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('login.subtitle')}</p>
      <div className="mt-8 flex flex-col gap-3">
        <Providers signup={false} />
        <EmailForm initialMode="login" />
        <Button variant="secondary" size="lg" onClick={() => void navigate('/')}>
          <UserRound className="size-4" aria-hidden="true" />
          {isGuest ? t('login.continueGuest') : t('login.guest')}
        </Button>
      </div>
      <p className="mt-6 text-sm text-slate-600 dark:text-slate-400">
        {t('login.noAccount')}{' '}
        <Link
          to="/signup"
          state={{ from }}
          className="font-semibold text-indigo-600 hover:underline dark:text-indigo-400"
        >
          {t('login.signUp')}
        </Link>
      </p>
    </CenteredCard>
  );
}

/** /signup. */
export function SignupCard() {
  const { t } = useI18n();
  return (
    <CenteredCard testId="signup">
      <p className="text-3xl font-black tracking-tight text-indigo-600 dark:text-indigo-400">XTalk</p>
      <h1 className="mt-3 text-xl font-semibold">{t('signup.title')}</h1>
      <div className="mt-8 flex flex-col gap-3">
        <Providers signup />
        <EmailForm initialMode="register" />
      </div>
      <p className="mt-6 text-sm text-slate-600 dark:text-slate-400">
        {t('signup.haveAccount')}{' '}
        <Link
          to="/login"
          className="inline-flex items-center gap-1 font-semibold text-indigo-600 hover:underline dark:text-indigo-400"
        >
          <LogIn className="size-3.5" aria-hidden="true" />
          {t('signup.logIn')}
        </Link>
      </p>
    </CenteredCard>
  );
}
