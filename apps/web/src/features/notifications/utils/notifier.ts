import type { MessageNotification } from './notify-rules';

/*
 * The system notifications of the room this page shows, loaded on first use (the room screen pays for it
 * only once a message notifies). A notification of a message that already has one replaces it (same tag,
 * no second alert); all of them are closed when the page is seen again.
 */

const open = new Map<string, Notification>();
/** Tags of the notifications the service worker showed for this page. */
const shownByWorker = new Set<string>();
/*
 * The worker's shows still under way. Chromium's getNotifications() deletes from its records a notification
 * written but not yet on display, so the page reads them only once every show it asked for has settled.
 */
let showing: Promise<void> = Promise.resolve();

/** Fields the DOM typings lag behind on. */
type Options = NotificationOptions & { renotify?: boolean };

export function showNotification({ tag, title, body }: MessageNotification): void {
  const options: Options = { body, tag, renotify: false, icon: '/apple-touch-icon.png' };
  let notification: Notification;
  try {
    notification = new Notification(title, options);
  } catch {
    // a browser that allows them only from a service worker (Chrome on Android) refuses the constructor
    const shown = showThroughWorker(title, { ...options, data: { url: location.href } });
    showing = Promise.all([showing, shown]).then(() => undefined);
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

async function showThroughWorker(title: string, options: Options): Promise<void> {
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    if (!registration) throw new Error('no service worker');
    await registration.showNotification(title, options);
    if (options.tag) shownByWorker.add(options.tag);
  } catch (error) {
    console.warn('[notifications] not shown', error);
  }
}

export function closeNotifications(): void {
  const all = [...open.values()];
  open.clear();
  for (const notification of all) notification.close();
  void showing
    .then(async () => {
      if (shownByWorker.size === 0) return;
      const tags = new Set(shownByWorker);
      shownByWorker.clear();
      const registration = await navigator.serviceWorker?.getRegistration();
      const shown = await registration?.getNotifications();
      shown?.filter((n) => tags.has(n.tag)).forEach((n) => n.close());
    })
    .catch(() => undefined);
}
