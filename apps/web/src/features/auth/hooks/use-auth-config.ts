import { useEffect, useState } from 'react';
import type { AuthConfig } from '@xtalk/protocol';
import { fetchAuthConfig } from '../api/auth-api';

/** What the sign-in buttons know: checking, available, or not configured on this server. */
export type GoogleSignIn = 'checking' | 'available' | 'unavailable';

// One answer per page load: the configuration does not change while the app runs.
let cached: Promise<AuthConfig> | undefined;

function authConfig(): Promise<AuthConfig> {
  cached ??= fetchAuthConfig().catch((error: unknown) => {
    cached = undefined; // ask again next time; meanwhile let every method try
    console.warn('[auth] sign-in configuration unavailable', error);
    return { google: true, mail: true };
  });
  return cached;
}

/** The server's sign-in configuration, undefined while it is asked. */
function useAuthConfig(): AuthConfig | undefined {
  const [config, setConfig] = useState<AuthConfig>();
  useEffect(() => {
    let active = true;
    void authConfig().then((answer) => {
      if (active) setConfig(answer);
    });
    return () => {
      active = false;
    };
  }, []);
  return config;
}

export function useGoogleSignIn(): GoogleSignIn {
  const config = useAuthConfig();
  return config === undefined ? 'checking' : config.google ? 'available' : 'unavailable';
}

/**
 * False only when the server says its account mails reach just its log (no SMTP); a server that predates
 * the field is taken to send them.
 */
export function useMailConfigured(): boolean {
  return useAuthConfig()?.mail !== false;
}

/** Tests only: ask the server again. */
export function forgetAuthConfig(): void {
  cached = undefined;
}
