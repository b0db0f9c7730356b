import { useEffect } from 'react';
import { LanguageToggle } from '#web/components/language-toggle';
import { useAuthSession } from '#web/lib/auth-session';
import { useI18n } from '#web/lib/i18n';
import { useNavigate } from '#web/lib/router';
import { consumeRedirectAfterLogin } from '#web/lib/storage';
import { useGuestCheck } from '../hooks/use-guest-check';
import { useMicPermission } from '../hooks/use-mic-permission';
import { CheckStatus, MicStatus, Step } from './guest-steps';

/**
 * /guest-login: bot check, JA/EN switch, microphone permission. Once the user exists and
 * the microphone was granted or denied, go to the saved redirect target (consumed once) or /translate.
 * `prerendered`: the markup the build puts in the page before its script (app/prerender.tsx), whose
 * steps are inert, offering nothing to focus, a tap or a screen reader before the app can answer it; the
 * app's first render, the same without that attribute, replaces it.
 */
export function GuestLogin({ prerendered = false }: { prerendered?: boolean }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const session = useAuthSession();
  const { challenge, check, onSolved, onCheckError } = useGuestCheck(Boolean(session));
  const { permission, request } = useMicPermission();

  const ready = session !== undefined && check === 'done';
  const decided = permission === 'granted' || permission === 'denied';
  useEffect(() => {
    if (ready && decided) void navigate(consumeRedirectAfterLogin() ?? '/translate', { replace: true });
  }, [ready, decided, navigate]);

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
        <ol className="flex flex-col gap-6" inert={prerendered || undefined}>
          <Step n={1} title={t('guest.step.check')} done={check === 'done'}>
            <CheckStatus check={check} challenge={challenge} onSolved={onSolved} onError={onCheckError} />
          </Step>
          <Step n={2} title={t('guest.step.language')} done={false}>
            <LanguageToggle />
          </Step>
          <Step n={3} title={t('guest.step.mic')} done={permission === 'granted'}>
            <MicStatus
              permission={permission}
              request={request}
              waiting={decided && !ready && check !== 'failed'}
            />
          </Step>
        </ol>
      </div>
    </main>
  );
}
