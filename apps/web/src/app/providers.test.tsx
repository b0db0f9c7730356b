import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setLanguage, translate } from '#web/lib/i18n';
import { AppProviders } from './providers';

/** Where docs/product.md, the product's description, says toasts appear: 'top' or 'bottom' centre. */
function documentedPlacement(): string | undefined {
  const product = readFileSync(resolve(__dirname, '../../../../docs/product.md'), 'utf8');
  return /\*\*Toasts\*\* appear at the (top|bottom) centre/.exec(product)?.[1];
}

describe('the toaster', () => {
  it('is mounted once a module that toasts has loaded, and shows the toasts made before', async () => {
    render(
      <AppProviders>
        <p>page</p>
      </AppProviders>,
    );
    screen.getByText('page');
    expect(document.querySelector('[data-sonner-toaster]')).toBeNull();

    // what a screen that toasts does: load lib/toast with itself, and toast before the toaster is there
    const { toast } = await import('#web/lib/toast');
    toast('made before the toaster');
    expect(await screen.findByText('made before the toaster')).toBeTruthy();
    expect(document.querySelector('[data-sonner-toaster]')).not.toBeNull();
  });

  it('shows toasts where docs/product.md says', async () => {
    render(
      <AppProviders>
        <p>page</p>
      </AppProviders>,
    );
    const { toast } = await import('#web/lib/toast');
    toast('placed');
    await screen.findByText('placed');
    const toaster = document.querySelector<HTMLElement>('[data-sonner-toaster]')!;
    expect(toaster.dataset.xPosition).toBe('center');
    expect(toaster.dataset.yPosition).toBe(documentedPlacement());
  });

  it('shows a toast made before a language switch in the new language', async () => {
    render(
      <AppProviders>
        <p>page</p>
      </AppProviders>,
    );
    const { localized, toast, words } = await import('#web/lib/toast');
    toast(words('chat.renamed', { old: 'Aki', name: 'Bo' }));
    toast.error(localized((language) => translate(language, 'room.alreadyIn')));
    expect(await screen.findByText('Aki is now Bo')).toBeTruthy();
    expect(await screen.findByText('Already in this room.')).toBeTruthy();

    act(() => setLanguage('ja'));
    expect(await screen.findByText('AkiさんはBoさんになりました')).toBeTruthy();
    expect(screen.getByText('すでにこのルームにいます。')).toBeTruthy();
    expect(screen.queryByText('Already in this room.')).toBeNull();
    expect(screen.queryByText('Aki is now Bo')).toBeNull();
    act(() => setLanguage('en'));
    toast.dismiss();
  });
});
