import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '#web/lib/i18n';
import type { ChatMessage } from '../utils/chat-items';
import { LANDSCAPE_QUERY, LandscapeView } from './landscape-view';

const hello: ChatMessage = {
  kind: 'message',
  id: 1,
  username: 'u1',
  displayUsername: 'BraveOtter',
  message: 'Hello',
  language: 'en',
  timestamp: 1,
  translations: { ja: 'こんにちは' },
  partial: {},
  isTutorial: false,
};

/** A matchMedia whose answer for the landscape query the test flips, telling listeners. */
function fakeMatchMedia(initial: boolean) {
  let matches = initial;
  const listeners = new Set<() => void>();
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return query === LANDSCAPE_QUERY && matches;
    },
    media: query,
    addEventListener: (_: string, fn: () => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
  }));
  return (next: boolean) => {
    matches = next;
    for (const fn of listeners) fn();
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('LandscapeView', () => {
  it('appears only while a touch device is held sideways, with the translation above the original', () => {
    setLanguage('en');
    const rotate = fakeMatchMedia(false);
    render(<LandscapeView items={[hello]} myUsername="someone-else" />);
    expect(screen.queryByTestId('landscape-view')).toBeNull();

    act(() => rotate(true));
    expect(screen.getByTestId('landscape-primary').textContent).toBe('こんにちは');
    expect(screen.getByTestId('landscape-original').textContent).toBe('Hello');

    act(() => rotate(false));
    expect(screen.queryByTestId('landscape-view')).toBeNull();
  });

  it('says how to start when the room is empty', () => {
    setLanguage('en');
    fakeMatchMedia(true);
    render(<LandscapeView items={[]} myUsername="u1" />);
    expect(screen.getByTestId('landscape-view').textContent).toContain('Start chatting by tapping the mic!');
  });
});
