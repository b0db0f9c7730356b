import { useMemo, useSyncExternalStore } from 'react';
import {
  chimeOn,
  notificationsState,
  subscribeSettings,
  toggleChime,
  toggleNotifications,
  type NotificationsState,
} from '../utils/notification-settings';

export interface AlertSettings {
  notifications: NotificationsState;
  sound: boolean;
  onToggleNotifications(): void;
  onToggleSound(): void;
}

// one string, so the snapshot compares equal while nothing changed
const snapshot = () => `${notificationsState()} ${chimeOn() ? 'on' : 'off'}`;

/** The notification and chime choices for the settings menu, and their toggles. */
export function useAlertSettings(): AlertSettings {
  const state = useSyncExternalStore(subscribeSettings, snapshot, snapshot);
  return useMemo(() => {
    const [notifications, sound] = state.split(' ') as [NotificationsState, string];
    return {
      notifications,
      sound: sound === 'on',
      onToggleNotifications: () => void toggleNotifications(),
      onToggleSound: toggleChime,
    };
  }, [state]);
}
