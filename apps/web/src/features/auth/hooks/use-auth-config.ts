import { useEffect, useState } from 'react';
import type { AuthConfig } from '@xtalk/protocol';
import { fetchAuthConfig } from '../api/auth-api';

// One answer per page load: the configuration does not change while the app runs.
let cached: Promise<AuthConfig> | undefined;

/** The server's answer, asked once per page load (also for code outside React: the Mini App sign-in). */
export function authConfig(): Promise<AuthConfig> {
  cached ??= fetchAuthConfig().catch((error: unknown) => {
    cached = undefined; // ask again next time; meanwhile offer what every server has, Google included
    console.warn('[auth] sign-in configuration unavailable', error);
    return { google: true, mail: true, email: true, telegram: false, wallet: false };
  });
  return cached;
}

/** The server's sign-in configuration, undefined while it is asked. */
export function useAuthConfig(): AuthConfig | undefined {
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
