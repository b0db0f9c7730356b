import type { BotcheckChallenge } from '@xtalk/protocol';
import { useCallback, useEffect, useState } from 'react';
import { authStore } from '#web/lib/auth-session';
import { requestErrorText } from '#web/lib/error-text';
import { fetchBotcheck, guestLogin } from '../api/auth-api';

export type CheckState = 'loading' | 'solving' | 'exchanging' | 'done' | 'failed';

/**
 * The guest's bot check: load a challenge (none when a session exists), then exchange the solved
 * payload for a guest user and keep its session.
 */
export function useGuestCheck(signedIn: boolean) {
  const [challenge, setChallenge] = useState<BotcheckChallenge | null>(null);
  const [check, setCheck] = useState<CheckState>(signedIn ? 'done' : 'loading');

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
        // Reported to the error handler, no UI beyond the failed state.
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
      setCheck('failed');
      // the toaster loads only now: it is no part of this page's load, which paints its words first
      const { localized, toast } = await import('#web/lib/toast');
      toast.error(localized((language) => requestErrorText(language, error)));
    }
  }, []);
  // the exchange reports its own failure (toast, 'failed' state); the widget only hands the payload over
  const onSolved = useCallback((payload: string) => void exchange(payload), [exchange]);

  const onCheckError = useCallback((error: unknown) => {
    console.error('[guest-login] bot check failed', error);
  }, []);

  return { challenge, check, onSolved, onCheckError };
}
