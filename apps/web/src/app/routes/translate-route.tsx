import { useEffect } from 'react';
import { registerServiceWorker } from '#web/lib/service-worker';
import { RequireAuth } from '../require-auth';
import { TranslatePage } from '../room/translate-page';

/**
 * /translate: the room screen, for signed-in users (guests included) only. Where the app is used, so it
 * is where the service worker is registered (from this lazily loaded screen, outside the first load).
 */
export function TranslateRoute() {
  useEffect(registerServiceWorker, []);
  return (
    <RequireAuth>
      <TranslatePage />
    </RequireAuth>
  );
}
