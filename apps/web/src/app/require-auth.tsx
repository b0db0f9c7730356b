import type { ReactNode } from 'react';
import { Navigate, useLocation } from '#web/lib/router';
import { useAuthSession } from '#web/lib/auth-session';
import { saveRedirectAfterLogin } from '#web/lib/storage';

/** Protected routes: without a valid session, remember path+query and go to /guest-login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useAuthSession();
  const location = useLocation();
  if (!session) {
    saveRedirectAfterLogin(location.pathname + location.search);
    return <Navigate to="/guest-login" replace />;
  }
  return children;
}
