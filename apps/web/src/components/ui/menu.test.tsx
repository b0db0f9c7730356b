import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Menu } from './menu';

const items = [{ key: 'one', label: 'One', testId: 'item-one', onSelect: () => {} }];
const menu = (
  <Menu
    trigger={
      <button type="button" data-testid="trigger">
        Open
      </button>
    }
    items={items}
    label="Things"
  />
);
const isLight = () => screen.getByTestId('trigger').hasAttribute('data-light-trigger');

describe('Menu', () => {
  it('leaves Radix’s menu unloaded while nobody comes near its trigger', async () => {
    // Every timer the first render set (a swap 'after the first paint' would run there) has run, every
    // dynamic import started so far has settled, and React has done all its pending work.
    vi.useFakeTimers();
    try {
      render(menu);
      // a few rounds: a timer can start an import whose module then renders and sets more
      for (let round = 0; round < 3; round++) {
        await act(async () => {
          await vi.runAllTimersAsync();
          await vi.dynamicImportSettled();
        });
      }
    } finally {
      vi.useRealTimers();
    }
    expect(isLight()).toBe(true);
    expect(screen.getByTestId('trigger').getAttribute('aria-expanded')).toBe('false');
  });

  it('swaps in Radix’s menu, closed, when the pointer comes over its trigger', async () => {
    render(menu);
    fireEvent.pointerEnter(screen.getByTestId('trigger'));
    // the menu's module loads on this first use: on a busy machine that can take a while
    await waitFor(() => expect(isLight()).toBe(false), { timeout: 10_000 });
    expect(screen.getByTestId('trigger').getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByTestId('item-one')).toBeNull();
  });

  it('keeps the focus on the trigger when the focus reaching it swaps in Radix’s menu', async () => {
    render(menu);
    act(() => screen.getByTestId('trigger').focus());
    await waitFor(() => expect(isLight()).toBe(false), { timeout: 10_000 });
    expect(document.activeElement).toBe(screen.getByTestId('trigger'));
    // Radix's key handling is there: Enter opens the menu
    fireEvent.keyDown(screen.getByTestId('trigger'), { key: 'Enter' });
    expect((await screen.findByTestId('item-one')).textContent).toBe('One');
  });

  it('opens at once on a press of the light trigger, as Radix’s trigger would', async () => {
    render(menu);
    expect(isLight()).toBe(true);
    fireEvent.pointerDown(screen.getByTestId('trigger'), { button: 0 });
    expect((await screen.findByTestId('item-one', {}, { timeout: 10_000 })).textContent).toBe('One');
    expect(screen.getByTestId('trigger').getAttribute('aria-expanded')).toBe('true');
  });

  it('keeps an on/off item checked or not, and open after choosing it', async () => {
    const chosen: string[] = [];
    const toggle = [
      { key: 'bell', label: 'Bell', testId: 'item-bell', checked: true, onSelect: () => chosen.push('bell') },
    ];
    render(
      <Menu
        trigger={
          <button type="button" data-testid="trigger">
            Open
          </button>
        }
        items={toggle}
        label="Things"
      />,
    );
    fireEvent.pointerDown(screen.getByTestId('trigger'), { button: 0 });
    const item = await screen.findByTestId('item-bell', {}, { timeout: 10_000 });
    expect(item.getAttribute('role')).toBe('menuitemcheckbox');
    expect(item.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(item);
    expect(chosen).toEqual(['bell']);
    expect(screen.getByTestId('trigger').getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByTestId('item-bell')).toBeTruthy();
  });
});
