import { useEffect, useRef, useState } from 'react';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { requestErrorText } from '#web/lib/error-text';
import { useI18n } from '#web/lib/i18n';
import { telegramSignIn } from '../api/provider-sign-in';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';
import { useProviderWords } from '../hooks/use-provider-words';

/** Telegram's Login Widget: its script, and the origin of the frame it puts its button in. */
export const TELEGRAM_WIDGET_SCRIPT = 'https://telegram.org/js/telegram-widget.js?22';
const TELEGRAM_WIDGET_ORIGIN = 'https://oauth.telegram.org';

function TelegramMark() {
  return (
    <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true">
      <circle cx="12" cy="12" r="12" fill="#229ED9" />
      <path
        fill="#fff"
        d="M5.4 11.8 16.9 7.4c.5-.2 1 .1.8.9l-2 9.3c-.1.7-.5.8-1.1.5l-3-2.2-1.4 1.4c-.2.2-.3.3-.6.3l.2-3.1 5.6-5c.2-.2 0-.3-.4-.1l-6.9 4.3-3-.9c-.6-.2-.7-.6.3-1z"
      />
    </svg>
  );
}

/** The signed user the widget's frame posts once the person confirmed in Telegram, else undefined. */
function widgetUser(data: unknown): Record<string, unknown> | undefined {
  try {
    const parsed = (typeof data === 'string' ? JSON.parse(data) : data) as {
      event?: unknown;
      auth_data?: unknown;
    };
    const user = parsed?.event === 'auth_user' ? parsed.auth_data : undefined;
    return user && typeof user === 'object' ? (user as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * "Sign in with Telegram": pressing it loads Telegram's Login Widget (never before, so Telegram hears of
 * no visit that does not use it), whose button opens Telegram's confirmation. The widget's data-onauth
 * would need eval, which the page's policy forbids: the page reads the frame's answer itself, only from
 * Telegram's origin and the widget's own frame, and the server checks its hash (decision 0183).
 */
export function TelegramSignIn({ bot, signup }: { bot: string; signup: boolean }) {
  const { t, language } = useI18n();
  const words = useProviderWords();
  const complete = useCompleteSignIn();
  const holder = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ failure: unknown } | 'unavailable' | null>(null);
  // the effect below keeps its listener for as long as the widget is shown, whatever re-renders
  const completeRef = useRef(complete);
  useEffect(() => {
    completeRef.current = complete;
  }, [complete]);

  useEffect(() => {
    const box = holder.current;
    if (!shown || !box) return;
    const script = document.createElement('script');
    script.async = true;
    script.src = TELEGRAM_WIDGET_SCRIPT;
    script.dataset.telegramLogin = bot;
    script.dataset.size = 'large';
    script.dataset.lang = language;
    script.onerror = () => setError('unavailable');
    box.appendChild(script);
    function onMessage(event: MessageEvent) {
      const frame = box?.querySelector('iframe');
      if (event.origin !== TELEGRAM_WIDGET_ORIGIN || !frame || event.source !== frame.contentWindow) return;
      const user = widgetUser(event.data);
      if (!user) return;
      setBusy(true);
      setError(null);
      telegramSignIn('tgw', { data: user }).then(
        (session) => completeRef.current(session),
        (failure: unknown) => {
          setBusy(false);
          setError({ failure });
        },
      );
    }
    window.addEventListener('message', onMessage);
    return () => {
      window.removeEventListener('message', onMessage);
      box.replaceChildren();
    };
  }, [shown, bot, language]);

  if (!shown) {
    return (
      <Button variant="outline" size="lg" onClick={() => setShown(true)} data-testid="telegram-signin">
        <TelegramMark /> {words(signup ? 'signup.telegram' : 'login.telegram')}
      </Button>
    );
  }
  return (
    <section
      aria-label={words('login.telegram')}
      data-testid="telegram-widget"
      className="flex flex-col items-center gap-2 rounded-2xl border border-slate-200 px-3 py-3 dark:border-slate-700"
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {busy ? t('auth.signingIn') : words('login.telegramContinue')}
      </p>
      <div ref={holder} className="flex min-h-10 items-center justify-center" />
      {busy && <Spinner className="size-5 text-indigo-600" />}
      {error && (
        <p role="alert" className="text-left text-sm text-rose-600 dark:text-rose-400">
          {error === 'unavailable'
            ? words('login.telegramUnavailable')
            : requestErrorText(language, error.failure)}
        </p>
      )}
    </section>
  );
}
