import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppProviders } from './providers';

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
    const { toast } = await import('../lib/toast');
    toast('made before the toaster');
    expect(await screen.findByText('made before the toaster')).toBeTruthy();
    expect(document.querySelector('[data-sonner-toaster]')).not.toBeNull();
  });
});
