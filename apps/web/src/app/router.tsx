import { createBrowserRouter } from 'react-router';
import { AuthToken } from '../features/auth/components/auth-token';
import { GuestLogin } from '../features/auth/components/guest-login';
import { HomeRedirect } from '../features/auth/components/home-redirect';
import { LoginCard, SignupCard } from '../features/auth/components/login-card';
import { Logout } from '../features/auth/components/logout';
import { RequireAuth } from './routes/require-auth';
import { CheckoutPage, ErrorPage, NotFoundPage } from './routes/simple-pages';
import { TranslatePage } from './routes/translate-page';

// The route table of spec section 2. The server's SPA fallback makes every path reloadable.
export const router = createBrowserRouter([
  { path: '/', element: <HomeRedirect /> },
  {
    path: '/translate',
    element: (
      <RequireAuth>
        <TranslatePage />
      </RequireAuth>
    ),
  },
  // The chat page path may carry /npc (spec section 2, no effect shown): same screen.
  {
    path: '/translate/npc',
    element: (
      <RequireAuth>
        <TranslatePage />
      </RequireAuth>
    ),
  },
  { path: '/guest-login', element: <GuestLogin /> },
  { path: '/login', element: <LoginCard /> },
  { path: '/signup', element: <SignupCard /> },
  { path: '/logout', element: <Logout /> },
  { path: '/checkout', element: <CheckoutPage /> },
  { path: '/auth/:token?', element: <AuthToken /> },
  { path: '/error', element: <ErrorPage /> },
  { path: '*', element: <NotFoundPage /> },
]);
