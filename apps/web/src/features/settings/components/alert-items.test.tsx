import { render, screen } from '@testing-library/react';
import type { UiLanguage } from '@xtalk/protocol';
import { describe, expect, it } from 'vitest';
import { alertItems, type AlertMenuState } from './alert-items';

/* The notifications item says what the browser answered whenever it is the reason they are not on. */

function notificationsItem(notifications: AlertMenuState['notifications'], language: UiLanguage = 'en') {
  const items = alertItems(
    { notifications, sound: true, onToggleNotifications: () => {}, onToggleSound: () => {} },
    language,
  );
  const item = items.find((candidate) => candidate.key === 'notifications');
  if (!item) throw new Error('no notifications item');
  render(<>{item.label}</>);
  return item;
}

describe('the notifications item', () => {
  it.each([
    ['blocked', 'en', 'Blocked in browser settings'],
    ['dismissed', 'en', 'Not allowed: the browser asked and got no answer'],
    ['absent', 'en', 'Not supported by this browser'],
    ['blocked', 'ja', 'ブラウザの設定でブロック中'],
    ['dismissed', 'ja', '許可されていません（ブラウザの確認に応答がありませんでした）'],
    ['absent', 'ja', 'このブラウザは通知に対応していません'],
  ] as const)('says %s in %s', (state, language, words) => {
    const item = notificationsItem(state, language);
    expect(screen.getByTestId(`notifications-${state}`).textContent).toBe(words);
    expect(item.checked).toBe(false);
  });

  it('says nothing more than On or Off when the browser allows them', () => {
    notificationsItem('off');
    expect(screen.queryByTestId(/^notifications-/)).toBeNull();
    expect(screen.getByText('Off')).toBeTruthy();
  });
});
