import type { ServerFrame } from '@xtalk/protocol';
import { useCallback, useEffect, useState } from 'react';
import { getLanguage } from '#web/lib/i18n';
import { alertText } from '#web/lib/i18n/alerts';
import type * as Alerts from '../utils/alerts';
import { NotificationLedger } from '../utils/notification-ledger';
import { chimeOn, notificationsState } from '../utils/notification-settings';
import { messageNotification, type NotifyingMessage } from '../utils/notify-rules';

let alerts: Promise<typeof Alerts> | undefined;
/** Notifications and the chime, loaded when a message first calls for one of them. */
const loadAlerts = () => (alerts ??= import('../utils/alerts'));
/** The room's notifications close; nothing to do if none was ever shown. */
const closeAll = () => void alerts?.then((loaded) => loaded.closeNotifications());

export interface MessageNotificationsOptions {
  items: readonly { kind: string; id: number | string }[];
  me: string;
  listening: string;
}

/**
 * While the page is hidden, a system notification (if turned on) and the chime (unless turned off) for
 * each message from someone else; its translation or correction replaces its notification. Back on the
 * page, or in another room, the room's notifications close. Returns what the room's frames feed it.
 */
export function useMessageNotifications({ items, me, listening }: MessageNotificationsOptions) {
  const [ledger] = useState(() => new NotificationLedger());

  const onFrame = useCallback(
    (frame: ServerFrame) => ledger.onFrame(frame, { hidden: document.hidden, me }),
    [ledger, me],
  );
  const onNewSession = useCallback(() => {
    ledger.newSession();
    closeAll();
  }, [ledger]);

  useEffect(() => {
    const onVisibility = () => {
      if (document.hidden) return;
      ledger.seen();
      closeAll();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      closeAll();
    };
  }, [ledger]);

  useEffect(() => {
    if (!ledger.pending) return;
    const language = getLanguage();
    const title = (name: string, room: string) => alertText(language, 'title', { name, room });
    const due = ledger.due(items, (message: NotifyingMessage, roomId: string) =>
      messageNotification(message, { roomId, listening, title }),
    );
    if (due.length === 0) return;
    const notify = notificationsState() === 'on';
    const chime = chimeOn() && due.some((entry) => entry.first);
    if (!notify && !chime) return;
    void loadAlerts().then((loaded) => {
      if (notify) for (const entry of due) loaded.showNotification(entry.notification);
      if (chime) loaded.playChime();
    });
  }, [ledger, items, listening]);

  return { onFrame, onNewSession };
}
