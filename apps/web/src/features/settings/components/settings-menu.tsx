import {
  Bell,
  BellOff,
  BellRing,
  DoorOpen,
  ExternalLink,
  BookA,
  History,
  Info,
  LogIn,
  LogOut,
  Mic,
  Maximize,
  Monitor,
  Moon,
  Plus,
  Settings,
  Sparkles,
  Sun,
  UserRoundCog,
} from 'lucide-react';
import type { UiLanguage } from '@xtalk/protocol';
import type { ReactNode } from 'react';
import { HeaderButton } from '../../../components/ui/header-button';
import { Menu, type MenuItem } from '../../../components/ui/menu';
import { CREATOR_URL, POWERED_BY } from '../../../lib/links';
import { useI18n } from '../../../lib/i18n';
import { alertText } from '../../../lib/i18n/alerts';
import { setTheme, useTheme } from '../../../lib/theme';

/** Notifications and the message chime; 'absent': the browser has no notifications (no item). */
export interface AlertMenuState {
  notifications: 'on' | 'off' | 'blocked' | 'absent';
  sound: boolean;
  onToggleNotifications(): void;
  onToggleSound(): void;
}

export interface SettingsMenuProps {
  isGuest: boolean;
  onCreateRoom: () => void;
  onJoinRoom: () => void;
  /** Opens the microphone picker. */
  onMicrophone: () => void;
  onPastRooms: () => void;
  onProfile: () => void;
  onLogin: () => void;
  onLogout: () => void;
  /** The room's glossary dialog. */
  onGlossary: () => void;
  /** "Catch me up": a summary of what was missed. */
  onCatchUp: () => void;
  alerts: AlertMenuState;
}

async function toggleFullscreen(): Promise<void> {
  try {
    if (document.fullscreenElement) await document.exitFullscreen();
    else await document.documentElement.requestFullscreen();
  } catch (error) {
    console.warn('[settings] fullscreen refused', error);
  }
}

/** The on/off items for notifications (none where the browser has none) and the message chime. */
function alertItems(
  alerts: AlertMenuState,
  language: UiLanguage,
  state: (on: boolean) => ReactNode,
): MenuItem[] {
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
        {!blocked && state(alerts.notifications === 'on')}
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
        {state(alerts.sound)}
      </span>
    ),
    icon: <BellRing className="size-4" />,
    checked: alerts.sound,
    testId: 'menu-sound',
    onSelect: alerts.onToggleSound,
  };
  return alerts.notifications === 'absent' ? [sound] : [notifications, sound];
}

/** The settings menu of the room header (spec section 2, Room screen). */
export function SettingsMenu({
  isGuest,
  onCreateRoom,
  onJoinRoom,
  onMicrophone,
  onPastRooms,
  onProfile,
  onLogin,
  onLogout,
  onGlossary,
  onCatchUp,
  alerts,
}: SettingsMenuProps) {
  const { t, language } = useI18n();
  const state = (on: boolean) => (
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
  const theme = useTheme();
  const items: MenuItem[] = [
    {
      key: 'create',
      label: t('menu.createRoom'),
      icon: <Plus className="size-4" />,
      onSelect: () => {
        if (window.confirm(t('menu.createConfirm'))) onCreateRoom();
      },
    },
    { key: 'join', label: t('menu.joinRoom'), icon: <DoorOpen className="size-4" />, onSelect: onJoinRoom },
    { key: 'past', label: t('menu.pastRooms'), icon: <History className="size-4" />, onSelect: onPastRooms },
    {
      key: 'catch-up',
      label: t('catchUp.action'),
      icon: <Sparkles className="size-4" />,
      testId: 'menu-catch-up',
      onSelect: onCatchUp,
      separatorBefore: true,
    },
    {
      key: 'glossary',
      label: t('glossary.open'),
      icon: <BookA className="size-4" />,
      testId: 'menu-glossary',
      onSelect: onGlossary,
    },
    {
      key: 'fullscreen',
      label: t('menu.fullscreen'),
      icon: <Maximize className="size-4" />,
      onSelect: () => void toggleFullscreen(),
      separatorBefore: true,
    },
    {
      key: 'light',
      label: t('menu.light'),
      icon: <Sun className="size-4" />,
      active: theme === 'light',
      onSelect: () => setTheme('light'),
      separatorBefore: true,
    },
    {
      key: 'dark',
      label: t('menu.dark'),
      icon: <Moon className="size-4" />,
      active: theme === 'dark',
      onSelect: () => setTheme('dark'),
    },
    // Spec section 2: "System Mode (actually sets dark)". Kept as specified; the stored default `system`
    // (no choice made yet) still follows the operating system.
    {
      key: 'system',
      label: t('menu.system'),
      icon: <Monitor className="size-4" />,
      onSelect: () => setTheme('dark'),
    },
    {
      key: 'profile',
      label: t('menu.settings'),
      icon: <UserRoundCog className="size-4" />,
      onSelect: onProfile,
      separatorBefore: true,
    },
    {
      key: 'microphone',
      label: t('menu.microphone'),
      icon: <Mic className="size-4" />,
      onSelect: onMicrophone,
    },
    ...alertItems(alerts, language, state),
    isGuest
      ? {
          key: 'login',
          label: t('menu.login'),
          icon: <LogIn className="size-4" />,
          onSelect: onLogin,
          separatorBefore: true,
        }
      : {
          key: 'logout',
          label: t('menu.logout'),
          icon: <LogOut className="size-4" />,
          onSelect: onLogout,
          separatorBefore: true,
        },
    // Spec section 2: links to the creator and to the powering provider.
    {
      key: 'creator',
      label: t('menu.creator'),
      icon: <Info className="size-4" />,
      href: CREATOR_URL,
      testId: 'menu-creator',
      separatorBefore: true,
    },
    {
      key: 'powered-by',
      label: t('menu.poweredBy', { provider: POWERED_BY.name }),
      icon: <ExternalLink className="size-4" />,
      href: POWERED_BY.url,
      testId: 'menu-powered-by',
    },
  ];
  return (
    <Menu
      label={t('menu.open')}
      items={items}
      trigger={
        <HeaderButton
          data-testid="settings-menu"
          title={t('menu.open')}
          icon={<Settings />}
          label={t('room.settingsShort')}
        />
      }
    />
  );
}
