import { LogIn, UserRound } from 'lucide-react';
import { Link, useLocation, useNavigate } from '../../../lib/router';
import { Button } from '../../../components/ui/button';
import { CenteredCard } from '../../../components/ui/card';
import { useAuthSession } from '../../../lib/auth-session';
import { useI18n } from '../../../lib/i18n';
import { useGoogleSignIn } from '../hooks/use-auth-config';
import { EmailForm, OrDivider } from './email-form';

export const GOOGLE_LOGIN_PATH = '/auth/google/login';
const DEFAULT_ORIGIN = '/chat/default';

function GoogleMark() {
  return (
    <svg viewBox="0 0 24 24" className="size-4" aria-hidden="true">
      <path
        fill="#4285F4"
        d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.2-2.1 3.5-5.1 3.5-8.7z"
      />
      <path
        fill="#34A853"
        d="M12 24c3.2 0 6-1.1 7.9-2.9l-3.9-3c-1.1.7-2.4 1.2-4 1.2-3.1 0-5.7-2.1-6.7-4.9h-4v3.1A12 12 0 0 0 12 24z"
      />
      <path fill="#FBBC05" d="M5.3 14.4a7.2 7.2 0 0 1 0-4.7V6.6h-4a12 12 0 0 0 0 10.8l4-3z" />
      <path
        fill="#EA4335"
        d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1C6.3 6.9 8.9 4.8 12 4.8z"
      />
    </svg>
  );
}

/** Full-page navigation: the server runs the Google sign-in and comes back to /auth/{token}. */
export function signInWithGoogle(): void {
  window.location.assign(GOOGLE_LOGIN_PATH);
}

/**
 * The Google button. When the server has no sign-in configured it says so instead of sending the person
 * to a Google error page; while the server is asked, it waits.
 */
function GoogleButton({ label }: { label: string }) {
  const { t } = useI18n();
  const availability = useGoogleSignIn();
  const unavailable = availability === 'unavailable';
  return (
    <>
      <Button
        variant="outline"
        size="lg"
        onClick={signInWithGoogle}
        disabled={availability !== 'available'}
        aria-describedby={unavailable ? 'google-unavailable' : undefined}
        data-testid="google-signin"
        data-state={availability}
      >
        <GoogleMark /> {label}
      </Button>
      {unavailable && (
        <p
          id="google-unavailable"
          role="note"
          data-testid="google-unavailable"
          className="-mt-1 rounded-xl bg-amber-50 px-3 py-2 text-left text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-200"
        >
          {t('login.googleUnavailable')}
        </p>
      )}
    </>
  );
}

/** /login (spec section 2). */
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
        <GoogleButton label={t('login.google')} />
        <OrDivider />
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

/** /signup (spec section 2). */
export function SignupCard() {
  const { t } = useI18n();
  return (
    <CenteredCard testId="signup">
      <p className="text-3xl font-black tracking-tight text-indigo-600 dark:text-indigo-400">XTalk</p>
      <h1 className="mt-3 text-xl font-semibold">{t('signup.title')}</h1>
      <div className="mt-8 flex flex-col gap-3">
        <GoogleButton label={t('signup.google')} />
        <OrDivider />
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
