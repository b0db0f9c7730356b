import { useEffect, useState } from 'react';
import { fetchAuthConfig } from '../api/auth-api';

/** What the sign-in buttons know: checking, available, or not configured on this server. */
export type GoogleSignIn = 'checking' | 'available' | 'unavailable';

// One answer per page load: the configuration does not change while the app runs.
let cached: Promise<boolean> | undefined;

function googleConfigured(): Promise<boolean> {
  cached ??= fetchAuthConfig()
    .then((config) => config.google)
    .catch((error: unknown) => {
      cached = undefined; // ask again next time; meanwhile let the button try
      console.warn('[auth] sign-in configuration unavailable', error);
      return true;
    });
  return cached;
}

export function useGoogleSignIn(): GoogleSignIn {
  const [state, setState] = useState<GoogleSignIn>('checking');
  useEffect(() => {
    let active = true;
    void googleConfigured().then((configured) => {
      if (active) setState(configured ? 'available' : 'unavailable');
    });
    return () => {
      active = false;
    };
  }, []);
  return state;
}

/** Tests only: ask the server again. */
export function forgetAuthConfig(): void {
  cached = undefined;
}
