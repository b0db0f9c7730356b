import { useCallback } from 'react';
import type { SignInResponse } from '@xtalk/protocol';
import { authStore } from '#web/lib/auth-session';
import { useNavigate } from '#web/lib/router';
import { StorageKey, consumeRedirectAfterLogin, remove } from '#web/lib/storage';

/** Keeps a new session and goes where the person was headed (their room), else to /translate. */
export function useCompleteSignIn(): (session: SignInResponse) => void {
  const navigate = useNavigate();
  return useCallback(
    (session: SignInResponse) => {
      authStore.set(session);
      // a guest's rooms on this device are not the account's history (the server has that)
      remove(StorageKey.rooms);
      void navigate(consumeRedirectAfterLogin() ?? '/translate', { replace: true });
    },
    [navigate],
  );
}
