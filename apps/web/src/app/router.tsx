import { AuthToken } from '#web/features/auth/components/auth-token';
import { HomeRedirect } from '#web/features/auth/components/home-redirect';
import { Logout } from '#web/features/auth/components/logout';
import { lazyScreen, type RouteDefinition } from '#web/lib/router';
import { ErrorPage, NotFoundPage } from './routes/simple-pages';

// The two heavy screens load on demand: the bot check (ALTCHA's solver) is only needed once, and the
// room screen (QR code, audio, dialogs) is not needed to render the small pages.
const translatePage = lazyScreen(async () => (await import('./routes/translate-route')).TranslateRoute);
// Pages a person reaches from a mail or a payment, not on a first visit: loaded when opened.
const emailPages = () => import('#web/features/auth/components/email-pages');
const verifyEmailPage = lazyScreen(async () => (await emailPages()).VerifyEmailPage);
const resetPasswordPage = lazyScreen(async () => (await emailPages()).ResetPasswordPage);
const changePasswordPage = lazyScreen(async () => (await emailPages()).ChangePasswordPage);
const checkoutPage = lazyScreen(async () => (await import('./routes/checkout-page')).CheckoutPage);
// Sign-in and sign-up (the email form with them) are reached from the guest page, rarely opened first:
// loaded when opened, and preloaded by their own pages when they are (apps/web/build/route-preload.ts).
const loginCard = () => import('#web/features/auth/components/login-card');
const loginPage = lazyScreen(async () => (await loginCard()).LoginCard);
const signupPage = lazyScreen(async () => (await loginCard()).SignupCard);
const guestLogin = lazyScreen(
  async () => (await import('#web/features/auth/components/guest-login')).GuestLogin,
);

// The route table (docs/product.md#screens). The server's SPA fallback makes every path reloadable.
export const routes: RouteDefinition[] = [
  { path: '/', element: <HomeRedirect /> },
  { path: '/translate', lazy: translatePage },
  // The chat page path may carry /npc, which changes nothing shown: same screen.
  { path: '/translate/npc', lazy: translatePage },
  { path: '/guest-login', lazy: guestLogin },
  { path: '/login', lazy: loginPage },
  { path: '/signup', lazy: signupPage },
  { path: '/logout', element: <Logout /> },
  { path: '/verify-email', lazy: verifyEmailPage },
  { path: '/reset-password', lazy: resetPasswordPage },
  { path: '/account/password', lazy: changePasswordPage },
  { path: '/checkout', lazy: checkoutPage },
  { path: '/auth/:token?', element: <AuthToken /> },
  { path: '/error', element: <ErrorPage /> },
  { path: '*', element: <NotFoundPage /> },
];
