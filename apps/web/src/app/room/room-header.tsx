import { LogIn } from 'lucide-react';
import { HeaderButton } from '#web/components/ui/header-button';
import type { ChatItem } from '#web/features/chat/utils/chat-items';
import { BalanceButton } from '#web/features/credits/components/balance-button';
import { InviteButton } from '#web/features/invite/components/invite-button';
import { shareLink } from '#web/features/invite/utils/share-link';
import { RoomIdButton } from '#web/features/room/components/room-id-button';
import { useAlertSettings } from '#web/features/notifications/hooks/use-alert-settings';
import { SettingsMenu } from '#web/features/settings/components/settings-menu';
import { SpeechButton, type SpeechButtonProps } from '#web/features/voice/components/speech-button';
import { TranscriptMenu } from '#web/features/transcript/components/transcript-menu';
import type { TranscriptGlossaryEntry } from '#web/features/transcript/utils/transcript';
import { useI18n } from '#web/lib/i18n';

export interface RoomHeaderProps {
  roomId: string | null;
  items: ChatItem[];
  token: string;
  isGuest: boolean;
  onPastRooms(): void;
  onCreateRoom(): void;
  onJoinRoom(): void;
  onMicrophone(): void;
  onProfile(): void;
  onLogin(): void;
  onLogout(): void;
  onGlossary(): void;
  onCatchUp(): void;
  loadGlossary: () => Promise<readonly TranscriptGlossaryEntry[]>;
  speech: Omit<SpeechButtonProps, 'onToggle'> & { toggleMute: SpeechButtonProps['onToggle'] };
}

/** The room screen's bar: the room, invite, transcript, the speech control, balance (or sign in) and the settings menu. */
export function RoomHeader(props: RoomHeaderProps) {
  const { t } = useI18n();
  const { roomId, isGuest } = props;
  const alerts = useAlertSettings();
  return (
    <header className="sticky top-0 z-20 border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto flex h-14 w-full max-w-4xl items-center gap-1 px-3 sm:gap-2 sm:px-6">
        <span className="mr-1 hidden text-xl font-black tracking-tight text-indigo-600 sm:inline dark:text-indigo-400">
          XTalk
        </span>
        <RoomIdButton roomId={roomId} onClick={props.onPastRooms} />
        <div className="flex-1" />
        <InviteButton roomId={roomId} />
        <TranscriptMenu
          roomId={roomId}
          items={props.items}
          link={roomId ? shareLink(window.location.href, roomId) : ''}
          loadGlossary={props.loadGlossary}
        />
        <SpeechButton {...props.speech} onToggle={props.speech.toggleMute} />
        {!isGuest && <BalanceButton token={props.token} />}
        {isGuest && (
          <HeaderButton
            onClick={props.onLogin}
            data-testid="login-button"
            icon={<LogIn />}
            label={t('room.login')}
          />
        )}
        <SettingsMenu
          isGuest={isGuest}
          onCreateRoom={props.onCreateRoom}
          onJoinRoom={props.onJoinRoom}
          onMicrophone={props.onMicrophone}
          onPastRooms={props.onPastRooms}
          onProfile={props.onProfile}
          onLogin={props.onLogin}
          onLogout={props.onLogout}
          onGlossary={props.onGlossary}
          onCatchUp={props.onCatchUp}
          alerts={alerts}
        />
      </div>
    </header>
  );
}
