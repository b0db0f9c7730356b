import { Bell, BellOff, BellRing } from 'lucide-react';
import type { UiLanguage } from '@xtalk/protocol';
import type { MenuItem } from '../../../components/ui/menu';
import { useI18n } from '../../../lib/i18n';
import { alertText } from '../../../lib/i18n/alerts';

/** Notifications and the message chime; 'absent': the browser has no notifications (no item). */
export interface AlertMenuState {
  notifications: 'on' | 'off' | 'blocked' | 'absent';
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

/** The on/off items for notifications (none where the browser has none) and the message chime. */
export function alertItems(alerts: AlertMenuState, language: UiLanguage): MenuItem[] {
  const blocked = alerts.notifications === 'blocked';
  const notifications: MenuItem = {
    key: 'notifications',
    label: (
      <span className="flex min-w-0 flex-1 items-center justify-between gap-2">
        <span className="flex min-w-0 flex-col">
          {alertText(language, 'notifications')}
          {blocked && (
            <span data-testid="notifications-blocked" className="text-xs text-amber-700 dark:text-amber-300">
              {alertText(language, 'notificationsBlocked')}
            </span>
          )}
        </span>
        {!blocked && <OnOff on={alerts.notifications === 'on'} />}
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
  return alerts.notifications === 'absent' ? [sound] : [notifications, sound];
}
