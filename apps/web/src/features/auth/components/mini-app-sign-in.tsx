import { useEffect, useState, type ReactNode } from 'react';
import { authConfig } from '../hooks/use-auth-config';

/**
 * Inside Telegram: signs in first (its code loads only here), then shows the page that was opened, at
 * its address without the fragment.
 */
export function MiniAppSignIn({
  initData,
  waiting,
  children,
}: {
  initData: string;
  waiting: ReactNode;
  children: ReactNode;
}) {
  const [done, setDone] = useState(false);
  useEffect(() => {
    // the fragment is Telegram's hand-over, not part of an address to keep, reload or share
    history.replaceState(history.state, '', location.pathname + location.search);
    let active = true;
    authConfig()
      .then(async ({ telegram }) => {
        // a server without Telegram sign-in leaves the page as it is
        if (telegram) await (await import('./sign-in-providers')).signInFromMiniApp(initData, telegram.bot);
      })
      .catch((error: unknown) => console.warn('[auth] Mini App sign-in unavailable', error))
      .finally(() => active && setDone(true));
    return () => {
      active = false;
    };
  }, [initData]);
  return done ? children : waiting;
}
