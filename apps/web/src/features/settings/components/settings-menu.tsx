import {
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
import { HeaderButton } from '#web/components/ui/header-button';
import { Menu, type MenuItem } from '#web/components/ui/menu';
import { CREATOR_URL, POWERED_BY } from '#web/lib/links';
import { useI18n, type I18n } from '#web/lib/i18n';
import { setTheme, useTheme, type Theme } from '#web/lib/theme';
import { toggleFullscreen } from '../utils/fullscreen';
import { alertItems, type AlertMenuState } from './alert-items';

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

type T = I18n['t'];

/** The settings menu of the room header. */
export function SettingsMenu(props: SettingsMenuProps) {
  const { t, language } = useI18n();
  const theme = useTheme();
  const items: MenuItem[] = [
    ...roomItems(t, props),
    ...viewItems(t, theme),
    ...profileItems(t, props),
    ...alertItems(props.alerts, language),
    sessionItem(t, props),
    ...linkItems(t),
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

/** Rooms to go to, then what the current room offers. */
function roomItems(t: T, props: SettingsMenuProps): MenuItem[] {
  return [
    {
      key: 'create',
      label: t('menu.createRoom'),
      icon: <Plus className="size-4" />,
      onSelect: () => {
        if (window.confirm(t('menu.createConfirm'))) props.onCreateRoom();
      },
    },
    {
      key: 'join',
      label: t('menu.joinRoom'),
      icon: <DoorOpen className="size-4" />,
      onSelect: props.onJoinRoom,
    },
    {
      key: 'past',
      label: t('menu.pastRooms'),
      icon: <History className="size-4" />,
      onSelect: props.onPastRooms,
    },
    {
      key: 'catch-up',
      label: t('catchUp.action'),
      icon: <Sparkles className="size-4" />,
      testId: 'menu-catch-up',
      onSelect: props.onCatchUp,
      separatorBefore: true,
    },
    {
      key: 'glossary',
      label: t('glossary.open'),
      icon: <BookA className="size-4" />,
      testId: 'menu-glossary',
      onSelect: props.onGlossary,
    },
  ];
}

/** Full screen and the theme. */
function viewItems(t: T, theme: Theme): MenuItem[] {
  return [
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
    // "System Mode" sets dark, as the original product's menu does, and is kept so; the stored default
    // `system` (no choice made yet) still follows the operating system.
    {
      key: 'system',
      label: t('menu.system'),
      icon: <Monitor className="size-4" />,
      onSelect: () => setTheme('dark'),
    },
  ];
}

/** The person's profile and microphone. */
function profileItems(t: T, props: SettingsMenuProps): MenuItem[] {
  return [
    {
      key: 'profile',
      label: t('menu.settings'),
      icon: <UserRoundCog className="size-4" />,
      onSelect: props.onProfile,
      separatorBefore: true,
    },
    {
      key: 'microphone',
      label: t('menu.microphone'),
      icon: <Mic className="size-4" />,
      onSelect: props.onMicrophone,
    },
  ];
}

/** A guest signs in; anyone else signs out. */
function sessionItem(t: T, { isGuest, onLogin, onLogout }: SettingsMenuProps): MenuItem {
  return isGuest
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
      };
}

/** Links to the creator and to the powering provider. */
function linkItems(t: T): MenuItem[] {
  return [
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
}
