import type { BotcheckChallenge } from '@xtalk/protocol';
import { useEffect, useRef, useState } from 'react';

declare global {
  interface Window {
    turnstile?: {
      render: (
        element: HTMLElement,
        options: { sitekey: string; callback: (token: string) => void; 'error-callback'?: () => void },
      ) => string;
      remove?: (id: string) => void;
    };
  }
}

export interface BotCheckProps {
  challenge: BotcheckChallenge;
  onSolved: (payload: string) => void;
  onError: (error: unknown) => void;
}

/** The guest bot check: ALTCHA proof of work solving itself on load, or Cloudflare Turnstile. */
export function BotCheck(props: BotCheckProps) {
  return props.challenge.provider === 'altcha' ? (
    <AltchaCheck challenge={props.challenge.challenge} onSolved={props.onSolved} onError={props.onError} />
  ) : (
    <TurnstileCheck siteKey={props.challenge.siteKey} onSolved={props.onSolved} onError={props.onError} />
  );
}

function AltchaCheck({
  challenge,
  onSolved,
  onError,
}: {
  challenge: Record<string, unknown>;
  onSolved: (payload: string) => void;
  onError: (error: unknown) => void;
}) {
  const widget = useRef<HTMLElement>(null);
  const callbacks = useRef({ onSolved, onError });
  useEffect(() => {
    callbacks.current = { onSolved, onError };
  });
  // The widget (and its solver) loads after the page has painted: it is most of this screen's script,
  // and the page's text should not wait for it (Lighthouse LCP).
  const [loaded, setLoaded] = useState(() => customElements.get('altcha-widget') !== undefined);
  useEffect(() => {
    if (loaded) return;
    import('altcha').then(
      () => setLoaded(true),
      (error: unknown) => callbacks.current.onError(error),
    );
  }, [loaded]);

  useEffect(() => {
    const element = widget.current;
    if (!loaded || !element) return;
    let done = false;
    const solved = (payload: unknown) => {
      if (done || typeof payload !== 'string' || !payload) return;
      done = true;
      callbacks.current.onSolved(payload);
    };
    const onVerified = (event: Event) => solved((event as CustomEvent<{ payload?: string }>).detail?.payload);
    const onState = (event: Event) => {
      const detail = (event as CustomEvent<{ state?: string; payload?: string }>).detail;
      if (detail?.state === 'verified') solved(detail.payload);
      if (detail?.state === 'error') callbacks.current.onError(new Error('Bot check failed.'));
    };
    element.addEventListener('verified', onVerified);
    element.addEventListener('statechange', onState);
    return () => {
      element.removeEventListener('verified', onVerified);
      element.removeEventListener('statechange', onState);
    };
  }, [loaded]);

  // A challenge string starting with '{' is read by the widget as the challenge itself (no extra fetch);
  // auto="onload" makes it solve without a click.
  if (!loaded)
    return (
      <div className="h-[70px] w-full max-w-[260px] animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" />
    );
  return (
    <altcha-widget
      ref={widget}
      challenge={JSON.stringify(challenge)}
      auto="onload"
      name="botcheck"
      configuration={JSON.stringify({ hideFooter: false, minDuration: 300 })}
    />
  );
}

const TURNSTILE_SRC = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

function loadTurnstile(): Promise<void> {
  if (window.turnstile) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = TURNSTILE_SRC;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error('Turnstile failed to load.'));
    document.head.appendChild(script);
  });
}

function TurnstileCheck({
  siteKey,
  onSolved,
  onError,
}: {
  siteKey: string;
  onSolved: (payload: string) => void;
  onError: (error: unknown) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onSolved, onError });
  useEffect(() => {
    callbacks.current = { onSolved, onError };
  });
  useEffect(() => {
    let widgetId: string | undefined;
    let cancelled = false;
    loadTurnstile()
      .then(() => {
        if (cancelled || !host.current || !window.turnstile) return;
        widgetId = window.turnstile.render(host.current, {
          sitekey: siteKey,
          callback: (token) => callbacks.current.onSolved(token),
          'error-callback': () => callbacks.current.onError(new Error('Turnstile error.')),
        });
      })
      .catch((error: unknown) => callbacks.current.onError(error));
    return () => {
      cancelled = true;
      if (widgetId) window.turnstile?.remove?.(widgetId);
    };
  }, [siteKey]);
  return <div ref={host} />;
}
