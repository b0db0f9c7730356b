import { lazy } from 'react';
import { AuthToken } from '../features/auth/components/auth-token';
import {
  ChangePasswordPage,
  ResetPasswordPage,
  VerifyEmailPage,
} from '../features/auth/components/email-pages';
import { HomeRedirect } from '../features/auth/components/home-redirect';
import { LoginCard, SignupCard } from '../features/auth/components/login-card';
import { Logout } from '../features/auth/components/logout';
import type { RouteDefinition } from '../lib/router';
import { CheckoutPage, ErrorPage, NotFoundPage } from './routes/simple-pages';

// The two heavy screens load on demand: the bot check (ALTCHA's solver) is only needed once, and the
// room screen (QR code, audio, dialogs) is not needed to render the small pages.
const translatePage = lazy(async () => ({
  default: (await import('./routes/translate-route')).TranslateRoute,
}));
const guestLogin = lazy(async () => ({
  default: (await import('../features/auth/components/guest-login')).GuestLogin,
}));

// The route table of spec section 2. The server's SPA fallback makes every path reloadable.
export const routes: RouteDefinition[] = [
  { path: '/', element: <HomeRedirect /> },
  { path: '/translate', lazy: translatePage },
  // The chat page path may carry /npc (spec section 2, no effect shown): same screen.
  { path: '/translate/npc', lazy: translatePage },
  { path: '/guest-login', lazy: guestLogin },
  { path: '/login', element: <LoginCard /> },
  { path: '/signup', element: <SignupCard /> },
  { path: '/logout', element: <Logout /> },
  { path: '/verify-email', element: <VerifyEmailPage /> },
  { path: '/reset-password', element: <ResetPasswordPage /> },
  { path: '/account/password', element: <ChangePasswordPage /> },
  { path: '/checkout', element: <CheckoutPage /> },
  { path: '/auth/:token?', element: <AuthToken /> },
  { path: '/error', element: <ErrorPage /> },
  { path: '*', element: <NotFoundPage /> },
];
