import { afterEach, describe, expect, it } from 'vitest';
import { chimeOn, notificationsState, toggleChime, toggleNotifications } from './notification-settings';

/** The browser's Notification as far as the settings read it: a permission and a prompt that answers `answer`. */
function browserNotifications(permission: NotificationPermission, answer: NotificationPermission) {
  const asked: number[] = [];
  let current = permission;
  const fake = Object.defineProperties(function Notification() {}, {
    permission: { get: () => current },
    requestPermission: {
      value: () => {
        asked.push(1);
        current = answer;
        return Promise.resolve(answer);
      },
    },
  });
  Object.defineProperty(globalThis, 'Notification', { configurable: true, writable: true, value: fake });
  return asked;
}

afterEach(() => {
  delete (globalThis as { Notification?: unknown }).Notification;
});

describe('notification settings', () => {
  it('are absent where the browser has no notifications', () => {
    delete (globalThis as { Notification?: unknown }).Notification;
    expect(notificationsState()).toBe('absent');
  });

  it('are off until turned on, which asks the browser then', async () => {
    const asked = browserNotifications('default', 'granted');
    expect(notificationsState()).toBe('off');
    expect(asked).toHaveLength(0);
    await toggleNotifications();
    expect(asked).toHaveLength(1);
    expect(notificationsState()).toBe('on');
    await toggleNotifications();
    expect(notificationsState()).toBe('off');
  });

  it('say blocked when the browser refuses', async () => {
    browserNotifications('default', 'denied');
    await toggleNotifications();
    expect(notificationsState()).toBe('blocked');
  });

  it('say dismissed when the browser answers without a yes or a no, until asked again', async () => {
    browserNotifications('default', 'default');
    expect(notificationsState()).toBe('off');
    await toggleNotifications();
    expect(notificationsState()).toBe('dismissed');
    browserNotifications('default', 'granted');
    await toggleNotifications();
    expect(notificationsState()).toBe('on');
  });

  it('say blocked when the permission is taken back in the browser', async () => {
    browserNotifications('default', 'granted');
    await toggleNotifications();
    expect(notificationsState()).toBe('on');
    browserNotifications('denied', 'denied');
    expect(notificationsState()).toBe('blocked');
  });

  it('keep the chime on unless turned off', () => {
    expect(chimeOn()).toBe(true);
    toggleChime();
    expect(chimeOn()).toBe(false);
    toggleChime();
    expect(chimeOn()).toBe(true);
  });
});
