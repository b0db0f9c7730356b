import { Bell, BellOff, BellRing } from 'lucide-react';
import type { UiLanguage } from '@xtalk/protocol';
import type { MenuItem } from '#web/components/ui/menu';
import { useI18n } from '#web/lib/i18n';
import { alertText, type AlertKey } from '#web/lib/i18n/alerts';

/** Notifications and the message chime; 'absent': the browser has no notifications. */
export interface AlertMenuState {
  notifications: 'on' | 'off' | 'blocked' | 'dismissed' | 'absent';
  sound: boolean;
  onToggleNotifications(): void;
  onToggleSound(): void;
}

/** An alert item's state, at the end of its line. */
function OnOff({ on }: { on: boolean }) {
  const { language } = useI18n();
  return (
    <span
      className={
        on
          ? 'text-xs font-medium text-indigo-700 dark:text-indigo-300'
          : 'text-xs font-normal text-slate-600 dark:text-slate-400'
      }
    >
      {alertText(language, on ? 'on' : 'off')}
    </span>
  );
}

/** Why notifications are not on, when the browser is the reason: what it answered, or that it has none. */
const refusals: Partial<Record<AlertMenuState['notifications'], AlertKey>> = {
  blocked: 'notificationsBlocked',
  dismissed: 'notificationsDismissed',
  absent: 'notificationsUnsupported',
};

/** The on/off items for notifications and the message chime. */
export function alertItems(alerts: AlertMenuState, language: UiLanguage): MenuItem[] {
  const refusal = refusals[alerts.notifications];
  const notifications: MenuItem = {
    key: 'notifications',
    label: (
      <span className="flex min-w-0 flex-1 items-center justify-between gap-2">
        <span className="flex min-w-0 flex-col">
          {alertText(language, 'notifications')}
          {refusal && (
            <span
              data-testid={`notifications-${alerts.notifications}`}
              className="text-xs text-amber-700 dark:text-amber-300"
            >
              {alertText(language, refusal)}
            </span>
          )}
        </span>
        {!refusal && <OnOff on={alerts.notifications === 'on'} />}
      </span>
    ),
    icon: alerts.notifications === 'on' ? <Bell className="size-4" /> : <BellOff className="size-4" />,
    checked: alerts.notifications === 'on',
    testId: 'menu-notifications',
    onSelect: alerts.onToggleNotifications,
  };
  const sound: MenuItem = {
    key: 'sound',
    label: (
      <span className="flex min-w-0 flex-1 items-center justify-between gap-2">
        {alertText(language, 'sound')}
        <OnOff on={alerts.sound} />
      </span>
    ),
    icon: <BellRing className="size-4" />,
    checked: alerts.sound,
    testId: 'menu-sound',
    onSelect: alerts.onToggleSound,
  };
  return [notifications, sound];
}
