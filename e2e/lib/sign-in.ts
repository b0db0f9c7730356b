import type { Page } from 'playwright-core';
import type { Mailbox } from '../../apps/server/src/testing/mailbox.js';

/* Signing in through the login card, as a person does. */

/** From the login card through the provider and back: the page ends where the redirect target says. */
export async function signInWithGoogle(page: Page): Promise<void> {
  await page.locator('[data-testid="google-signin"][data-state="available"]').click();
}

/** From a room: Login, "Google", and back in the same room, connected. */
export async function signInFromRoom(page: Page): Promise<void> {
  await page.getByTestId('login-button').click();
  await page.waitForURL(/\/login$/);
  await signInWithGoogle(page);
  await page.waitForURL(/\/translate\?r=[A-Z0-9]{7}$/, { timeout: 30_000 });
  await page.getByTestId('connecting-overlay').waitFor({ state: 'detached', timeout: 20_000 });
}

/** The page's email form, filled and sent. */
export async function sendEmailForm(page: Page, email: string, password: string): Promise<void> {
  const form = page.getByTestId('email-form');
  await form.getByTestId('email-address').fill(email);
  await form.getByTestId('email-password').fill(password);
  await form.getByTestId('email-submit').click();
}

/** The email form of /login, filled and sent; resolves in the room the sign-in leads to. */
export async function signInWithEmail(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await sendEmailForm(page, email, password);
  await page.waitForURL(/\/translate\?r=[A-Z0-9]{7}/, { timeout: 30_000 });
}

/** An email account made through the API and confirmed with the link its mail carries. */
export async function registerByEmail(
  serverUrl: string,
  mailbox: Mailbox,
  email: string,
  password: string,
): Promise<void> {
  const post = (path: string, body: object) =>
    fetch(`${serverUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const registered = await post('/api/auth/email/register', { email, password });
  if (registered.status !== 202) throw new Error(`register answered ${registered.status}`);
  const token = /token=([\w-]+)/.exec((await mailbox.next()).text)?.[1];
  const verified = await post('/api/auth/email/verify', { token });
  if (verified.status !== 200) throw new Error(`verify answered ${verified.status}`);
}
