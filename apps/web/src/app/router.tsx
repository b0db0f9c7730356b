import { createBrowserRouter } from 'react-router';
import { AuthToken } from '../features/auth/components/auth-token';
import {
  ChangePasswordPage,
  ResetPasswordPage,
  VerifyEmailPage,
} from '../features/auth/components/email-pages';
import { HomeRedirect } from '../features/auth/components/home-redirect';
import { LoginCard, SignupCard } from '../features/auth/components/login-card';
import { Logout } from '../features/auth/components/logout';
import { RequireAuth } from './routes/require-auth';
import { CheckoutPage, ErrorPage, NotFoundPage } from './routes/simple-pages';

// The two heavy screens load on demand: the bot check (ALTCHA's solver) is only needed once, and the
// room screen (QR code, audio) is not needed to render the small pages.
const translateRoute = {
  lazy: async () => {
    const { TranslatePage } = await import('./routes/translate-page');
    return {
      Component: () => (
        <RequireAuth>
          <TranslatePage />
        </RequireAuth>
      ),
    };
  },
};

// The route table of spec section 2. The server's SPA fallback makes every path reloadable.
export const router = createBrowserRouter([
  { path: '/', element: <HomeRedirect /> },
  { path: '/translate', ...translateRoute },
  // The chat page path may carry /npc (spec section 2, no effect shown): same screen.
  { path: '/translate/npc', ...translateRoute },
  {
    path: '/guest-login',
    lazy: async () => ({ Component: (await import('../features/auth/components/guest-login')).GuestLogin }),
  },
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
]);
