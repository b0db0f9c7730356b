import type { Page } from 'playwright-core';

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
