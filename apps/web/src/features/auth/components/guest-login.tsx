import type { BotcheckChallenge } from '@xtalk/protocol';
import { CheckCircle2, Mic, MicOff, ShieldCheck } from 'lucide-react';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useNavigate } from '../../../lib/router';
import { toast } from '../../../lib/toast';
import { LanguageToggle } from '../../../components/language-toggle';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { authStore, useAuthSession } from '../../../lib/auth-session';
import { cn } from '../../../lib/cn';
import { requestErrorText } from '../../../lib/error-text';
import { getLanguage, useI18n } from '../../../lib/i18n';
import { consumeRedirectAfterLogin } from '../../../lib/storage';
import { fetchBotcheck, guestLogin } from '../api/auth-api';
import { useMicPermission } from '../hooks/use-mic-permission';
import { BotCheck } from './bot-check';

type CheckState = 'loading' | 'solving' | 'exchanging' | 'done' | 'failed';

function Step({
  n,
  title,
  done,
  children,
}: {
  n: number;
  title: string;
  done: boolean;
  children: ReactNode;
}) {
  return (
    <li className="flex gap-4">
      <span
        className={cn(
          'flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold',
          done
            ? 'bg-emerald-500 text-white'
            : 'bg-indigo-100 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300',
        )}
      >
        {done ? <CheckCircle2 className="size-5" aria-hidden="true" /> : n}
      </span>
      <div className="min-w-0 flex-1 pt-1 text-left">
        <h2 className="text-sm font-semibold text-slate-900 dark:text-slate-100">{title}</h2>
        <div className="mt-2">{children}</div>
      </div>
    </li>
  );
}

/**
 * /guest-login (spec section 2): bot check, JA/EN switch, microphone permission. Once the user exists and
 * the microphone was granted or denied, go to the saved redirect target (consumed once) or /translate.
 */
export function GuestLogin() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const session = useAuthSession();
  const [challenge, setChallenge] = useState<BotcheckChallenge | null>(null);
  const [check, setCheck] = useState<CheckState>(session ? 'done' : 'loading');
  const { permission, request } = useMicPermission();

  useEffect(() => {
    if (authStore.get()) return;
    let cancelled = false;
    fetchBotcheck()
      .then((data) => {
        if (cancelled) return;
        setChallenge(data);
        setCheck('solving');
      })
      .catch((error: unknown) => {
        // Spec section 8: reported to the error handler, no UI beyond the failed state.
        console.error('[guest-login] bot check load failed', error);
        if (!cancelled) setCheck('failed');
      });
    return () => {
      cancelled = true;
    };
  }, []);

  const exchange = useCallback(async (payload: string) => {
    setCheck('exchanging');
    try {
      const result = await guestLogin(payload);
      authStore.set({ token: result.token, user: result.user });
      setCheck('done');
    } catch (error) {
      console.error('[guest-login] exchange failed', error);
      toast.error(requestErrorText(getLanguage(), error));
      setCheck('failed');
    }
  }, []);
  // the exchange reports its own failure (toast, 'failed' state); the widget only hands the payload over
  const onSolved = useCallback((payload: string) => void exchange(payload), [exchange]);

  const onCheckError = useCallback((error: unknown) => {
    console.error('[guest-login] bot check failed', error);
  }, []);

  const ready = session !== undefined && check === 'done';
  const decided = permission === 'granted' || permission === 'denied';
  useEffect(() => {
    if (ready && decided) void navigate(consumeRedirectAfterLogin() ?? '/translate', { replace: true });
  }, [ready, decided, navigate]);

  const askMic = async () => {
    const result = await request();
    if (result === 'denied') toast.error(t('guest.micDenied'), { duration: 6000 });
  };

  return (
    <main className="flex min-h-dvh items-center justify-center bg-gradient-to-b from-indigo-50 to-white px-4 py-10 dark:from-slate-950 dark:to-slate-900">
      <div
        data-testid="guest-login"
        data-state={check}
        className="w-full max-w-md rounded-3xl border border-slate-200 bg-white p-7 shadow-xl shadow-indigo-100/60 sm:p-8 dark:border-slate-800 dark:bg-slate-900 dark:shadow-none"
      >
        <div className="mb-6 text-center">
          <p className="text-3xl font-black tracking-tight text-indigo-600 dark:text-indigo-400">XTalk</p>
          <h1 className="mt-2 text-xl font-semibold text-slate-900 dark:text-white">{t('guest.title')}</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('guest.subtitle')}</p>
        </div>
        <ol className="flex flex-col gap-6">
          <Step n={1} title={t('guest.step.check')} done={check === 'done'}>
            {check === 'done' ? (
              <p className="flex items-center gap-2 text-sm text-emerald-700 dark:text-emerald-400">
                <ShieldCheck className="size-4" aria-hidden="true" /> {t('guest.checked')}
              </p>
            ) : check === 'failed' ? (
              <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
                {t('guest.checkFailed')}
              </p>
            ) : (
              <div className="flex flex-col gap-2">
                {challenge && check === 'solving' && (
                  <BotCheck challenge={challenge} onSolved={onSolved} onError={onCheckError} />
                )}
                <p className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
                  <Spinner className="size-4" />{' '}
                  {check === 'exchanging' ? t('guest.creatingUser') : t('guest.checking')}
                </p>
              </div>
            )}
          </Step>
          <Step n={2} title={t('guest.step.language')} done={false}>
            <LanguageToggle />
          </Step>
          <Step n={3} title={t('guest.step.mic')} done={permission === 'granted'}>
            <Button
              data-testid="mic-permission"
              data-permission={permission}
              variant={permission === 'denied' ? 'outline' : 'primary'}
              onClick={() => void askMic()}
              disabled={permission === 'requesting'}
              className="w-full sm:w-auto"
            >
              {permission === 'denied' ? (
                <MicOff className="size-4" aria-hidden="true" />
              ) : (
                <Mic className="size-4" aria-hidden="true" />
              )}
              {permission === 'granted' ? t('guest.micGranted') : t('guest.micButton')}
            </Button>
            {permission === 'denied' && (
              <p role="alert" className="mt-2 text-sm text-amber-700 dark:text-amber-400">
                {t('guest.micDenied')}
              </p>
            )}
            {decided && !ready && check !== 'failed' && (
              <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">{t('guest.micWaiting')}</p>
            )}
          </Step>
        </ol>
      </div>
    </main>
  );
}
