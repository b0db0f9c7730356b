import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { productWithGoogle } from './block-hooks.js';
import { newPerson } from './lib/people.js';
import { ProductServer } from './lib/product-server.js';
import { messageWith, movedRoomIdOf, roomIdOf, say, twoGuestsInRoom } from './lib/room.js';
import { signInWithGoogle } from './lib/sign-in.js';

/*
 * Signing in, the whole path in Chromium: a guest in a room signs in with "Google" (a real OpenID provider on
 * 127.0.0.1) and keeps the room, renames themselves and a second person in the room sees it, Past Rooms
 * lists the rooms (also on another device) and rejoins one, and logging out forgets the session.
 */

async function openMenuItem(page: Page, name: string) {
  await page.getByTestId('settings-menu').click();
  await page.getByRole('menuitem', { name, exact: true }).click();
}

describe('accounts: sign-in, profile, Past Rooms, logout', () => {
  const product = productWithGoogle({ sub: 'e2e-alice', name: 'Alice Example', email: 'alice@example.com' });

  it('signs in keeping the room, renames, reopens Past Rooms and rejoins, and logs out', async () => {
    // Alice and Bob are guests in one room
    const { alice, bob, roomId } = await twoGuestsInRoom(product.browser, product.server.url);
    expect(await roomIdOf(bob.page)).toBe(roomId);

    // as a guest, Past Rooms and the profile only invite her to log in
    await alice.page.getByTestId('room-id-button').click();
    await alice.page.getByText('Login to view room history.').waitFor();
    expect(await alice.page.getByTestId('past-room').count()).toBe(0);
    await alice.page.keyboard.press('Escape');
    await openMenuItem(alice.page, 'Settings');
    await alice.page.getByText('Login to customize your username and profile.').waitFor();
    expect(await alice.page.getByTestId('profile-username').isDisabled()).toBe(true);
    await alice.page.keyboard.press('Escape');

    // Login -> Sign in with Google -> the provider -> back in the same room, signed in
    const codeUrls = new Set<string>();
    alice.page.on('framenavigated', (frame) => {
      if (frame === alice.page.mainFrame() && /\/auth\/[\w-]+\?provider=ggl$/.test(frame.url())) {
        codeUrls.add(frame.url());
      }
    });
    await alice.page.getByTestId('login-button').click();
    await alice.page.waitForURL(/\/login$/);
    await signInWithGoogle(alice.page);
    await alice.page.waitForURL(new RegExp(`/translate\\?r=${roomId}$`), { timeout: 30_000 });
    await alice.page.getByTestId('connecting-overlay').waitFor({ state: 'detached', timeout: 20_000 });
    const stored = await alice.page.evaluate(() => ({
      token: localStorage.getItem('token'),
      user: JSON.parse(localStorage.getItem('user') ?? 'null') as { provider: string; name: string } | null,
    }));
    expect(stored.token).toBeTruthy();
    expect(stored.user).toMatchObject({ provider: 'ggl', name: 'Alice Example' });
    expect(await alice.page.getByTestId('login-button').count()).toBe(0);
    // the one-time code is spent: the address that carried it signs no one in again
    expect(codeUrls.size).toBe(1);
    const thief = await newPerson(product.browser, product.server.url);
    await thief.page.goto([...codeUrls][0]!);
    await thief.page.getByText(/Sign-in failed: .*already used/).waitFor();
    expect(await thief.page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await thief.context.close();

    await say(alice.page, 'Signed in now');
    await messageWith(bob.page, 'Signed in now').waitFor({ timeout: 15_000 });

    // rename in Profile Settings; Bob sees the new name on her message and a toast
    await openMenuItem(alice.page, 'Settings');
    const dialog = alice.page.getByTestId('profile-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('profile-fullname').inputValue()).toBe('Alice Example');
    await dialog.getByTestId('profile-username').fill('xtalkchan');
    await dialog.getByTestId('profile-save').click();
    await dialog
      .getByText('The username you entered is not available or reserved. Please choose a different one.')
      .waitFor();
    await dialog.getByTestId('profile-username').fill('alice_e2e');
    await dialog.getByTestId('profile-fullname').fill('Alice E. Example');
    await dialog.getByTestId('profile-save').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => messageWith(bob.page, 'Signed in now').textContent()).toContain('alice_e2e');
    await bob.page
      .getByText(/is now alice_e2e/)
      .first()
      .waitFor();
    await expect.poll(() => messageWith(alice.page, 'Signed in now').textContent()).toContain('alice_e2e');
    await expect.poll(() => messageWith(alice.page, 'Signed in now').textContent()).toContain('(You)');

    // Past Rooms from the room id: this room, "You're here"
    await alice.page.getByTestId('room-id-button').click();
    const pastRooms = alice.page.getByTestId('past-rooms');
    await pastRooms.locator(`[data-testid="past-room"][data-room-id="${roomId}"]`).waitFor();
    await pastRooms.getByText("You're here").waitFor();
    await alice.page.keyboard.press('Escape');

    // a new room, then back to the first one through Past Rooms
    alice.page.once('dialog', (confirm) => void confirm.accept());
    await openMenuItem(alice.page, 'Create A Room');
    const secondRoom = await movedRoomIdOf(alice.page, roomId);
    await alice.page.getByTestId('connecting-overlay').waitFor({ state: 'detached', timeout: 20_000 });
    await openMenuItem(alice.page, 'Past Rooms');
    await expect
      .poll(() =>
        pastRooms
          .getByTestId('past-room')
          .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-room-id'))),
      )
      .toEqual([secondRoom, roomId]);
    await pastRooms.locator(`[data-room-id="${roomId}"]`).getByTestId('rejoin-button').click();
    await alice.page.waitForURL(new RegExp(`/translate\\?r=${roomId}$`));
    await messageWith(alice.page, 'Signed in now').waitFor({ timeout: 20_000 });
    await say(alice.page, 'Back again');
    await messageWith(bob.page, 'Back again').waitFor({ timeout: 15_000 });

    // the history follows the account: another device signs in and sees the same rooms
    const laptop = await newPerson(product.browser, product.server.url);
    await laptop.page.goto('/login');
    await signInWithGoogle(laptop.page);
    await laptop.page.waitForURL(/\/translate\?r=/, { timeout: 30_000 });
    await laptop.page.getByTestId('room-id-button').click();
    await expect
      .poll(() =>
        laptop.page
          .getByTestId('past-room')
          .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-room-id'))),
      )
      .toEqual(expect.arrayContaining([roomId, secondRoom]));
    await laptop.context.close();

    // logout: the message, then /login, and nothing of the session left
    await openMenuItem(alice.page, 'Logout');
    await alice.page.getByText('Thank You! Logging Out...').waitFor();
    await alice.page.waitForURL(/\/login$/);
    const left = await alice.page.evaluate(() => ({
      token: localStorage.getItem('token'),
      user: localStorage.getItem('user'),
      sid: localStorage.getItem('sid'),
      rooms: localStorage.getItem('rooms'),
    }));
    expect(left).toEqual({ token: null, user: null, sid: null, rooms: null });
    await alice.page.goto(`/translate?r=${roomId}`);
    await alice.page.waitForURL(/\/guest-login/);

    await alice.context.close();
    await bob.context.close();
  });

  it('shows no Google button where sign-in with Google is not configured', async () => {
    const bare = await ProductServer.start();
    try {
      const { context, page } = await newPerson(product.browser, bare.url);
      for (const path of ['/login', '/signup']) {
        await page.goto(path);
        await page
          .locator('[data-testid="sign-in-providers"][data-state="ready"]')
          .waitFor({ state: 'attached' });
        expect(await page.getByTestId('google-signin').count()).toBe(0);
      }
      await context.close();
    } finally {
      await bare.dispose();
    }
  });
});
