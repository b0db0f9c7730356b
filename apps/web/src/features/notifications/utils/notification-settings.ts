import { StorageKey, readString, writeString } from '../../../lib/storage';

/*
 * The person's choices about being alerted: system notifications (the browser's permission and the
 * preference, asked for only from the settings menu) and the chime. Kept in storage; read live, since the
 * permission can change in the browser's settings while the page is open.
 */

/** 'absent': this browser has no notifications, and the menu has no item for them. */
export type NotificationsState = 'on' | 'off' | 'blocked' | 'absent';

const supported = () => typeof globalThis.Notification === 'function';

export function notificationsState(): NotificationsState {
  if (!supported()) return 'absent';
  const permission = Notification.permission;
  if (permission === 'denied') return 'blocked';
  return permission === 'granted' && readString(StorageKey.notify) === 'on' ? 'on' : 'off';
}

/** The chime is on unless turned off (decision 0180). */
export const chimeOn = (): boolean => readString(StorageKey.chime) !== 'off';

const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};

export function subscribeSettings(listener: () => void): () => void {
  listeners.add(listener);
  // a permission changed in the browser's settings shows when the person comes back to the page
  if (listeners.size === 1) window.addEventListener('focus', changed);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('focus', changed);
  };
}

/**
 * Turns notifications off, or asks the browser for the permission and turns them on if it is given. This
 * is the only place the permission is asked for: a click in the settings menu (never on load).
 */
export async function toggleNotifications(): Promise<void> {
  if (notificationsState() === 'on') {
    writeString(StorageKey.notify, 'off');
    changed();
    return;
  }
  if (!supported()) return;
  try {
    const permission = await Notification.requestPermission();
    if (permission === 'granted') writeString(StorageKey.notify, 'on');
  } catch (error) {
    console.warn('[notifications] permission request failed', error);
  }
  changed();
}

export function toggleChime(): void {
  writeString(StorageKey.chime, chimeOn() ? 'off' : 'on');
  changed();
}
