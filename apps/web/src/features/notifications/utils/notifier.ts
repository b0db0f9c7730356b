import type { MessageNotification } from './notify-rules';

/*
 * The system notifications of the room this page shows, loaded on first use (the room screen pays for it
 * only once a message notifies). A notification of a message that already has one replaces it (same tag,
 * no second alert); all of them are closed when the page is seen again.
 */

const open = new Map<string, Notification>();

/** Fields the DOM typings lag behind on. */
type Options = NotificationOptions & { renotify?: boolean };

export function showNotification({ tag, title, body }: MessageNotification): void {
  const options: Options = { body, tag, renotify: false, icon: '/apple-touch-icon.png' };
  let notification: Notification;
  try {
    notification = new Notification(title, options);
  } catch (error) {
    // a browser that allows them only from a service worker (Chrome on Android) refuses the constructor
    console.warn('[notifications] not shown', error);
    return;
  }
  notification.onclick = () => {
    window.focus();
    notification.close();
  };
  notification.onclose = () => {
    if (open.get(tag) === notification) open.delete(tag);
  };
  open.set(tag, notification);
}

export function closeNotifications(): void {
  const all = [...open.values()];
  open.clear();
  for (const notification of all) notification.close();
}
