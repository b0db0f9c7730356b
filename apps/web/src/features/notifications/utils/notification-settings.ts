import { StorageKey, readString, writeString } from '#web/lib/storage';

/*
 * The person's choices about being alerted: system notifications (the browser's permission and the
 * preference, asked for only from the settings menu) and the chime. Kept in storage; read live, since the
 * permission can change in the browser's settings while the page is open.
 */

/**
 * What the menu says: 'blocked' (the browser refuses), 'dismissed' (the browser's prompt was closed
 * without an answer, or the browser answered so without one), 'absent' (this browser has no
 * notifications). Each is said, so a toggle that stays Off is never left unexplained.
 */
export type NotificationsState = 'on' | 'off' | 'blocked' | 'dismissed' | 'absent';

const supported = () => typeof globalThis.Notification === 'function';

/** The last request was answered 'default'; forgotten at the next request, for this page's life. */
let dismissed = false;

export function notificationsState(): NotificationsState {
  if (!supported()) return 'absent';
  const permission = Notification.permission;
  if (permission === 'denied') return 'blocked';
  if (permission === 'default' && dismissed) return 'dismissed';
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
    dismissed = false;
    const permission = await Notification.requestPermission();
    if (permission === 'granted') writeString(StorageKey.notify, 'on');
    dismissed = permission === 'default';
  } catch (error) {
    console.warn('[notifications] permission request failed', error);
  }
  changed();
}

export function toggleChime(): void {
  writeString(StorageKey.chime, chimeOn() ? 'off' : 'on');
  changed();
}
