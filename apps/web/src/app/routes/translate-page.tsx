import { NEW_ROOM, type ServerFrame, type User } from '@xtalk/protocol';
import { LogIn } from 'lucide-react';
import { useCallback, useReducer, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from '../../lib/router';
import { toast } from 'sonner';
import { LanguageToggle } from '../../components/language-toggle';
import { HeaderButton } from '../../components/ui/header-button';
import { ChatComposer } from '../../features/chat/components/chat-composer';
import { LandscapeView } from '../../features/chat/components/landscape-view';
import { MessageList } from '../../features/chat/components/message-list';
import { BalanceButton } from '../../features/credits/components/balance-button';
import { balanceStore } from '../../features/credits/hooks/use-balance';
import { tutorialFrames } from '../../features/chat/utils/tutorial';
import { useTypingIndicator } from '../../features/chat/hooks/use-typing-indicator';
import { chatReducer, initialChatState } from '../../features/chat/utils/messages-reducer';
import { InviteButton } from '../../features/invite/components/invite-dialog';
import { PastRoomsDialog } from '../../features/history/components/past-rooms-dialog';
import { shareLink } from '../../features/invite/utils/share-link';
import { ConnectionOverlays, ReconnectBanner } from '../../features/room/components/connection-overlays';
import { JoinRoomDialog } from '../../features/room/components/join-room-dialog';
import { RoomMissing } from '../../features/room/components/room-missing';
import { RoomIdButton } from '../../features/room/components/room-id-button';
import { useRoomConnection } from '../../features/room/hooks/use-room-connection';
import { ProfileDialog } from '../../features/settings/components/profile-dialog';
import { SettingsMenu } from '../../features/settings/components/settings-menu';
import { TranscriptMenu } from '../../features/transcript/components/transcript-menu';
import { MicPickerDialog } from '../../features/voice/components/mic-picker-dialog';
import { VoiceControls } from '../../features/voice/components/voice-controls';
import { useAudioPlayback } from '../../features/voice/hooks/use-audio-playback';
import { useMicrophones } from '../../features/voice/hooks/use-microphones';
import { useRecorder } from '../../features/voice/hooks/use-recorder';
import { ApiError } from '../../lib/api-client';
import { authStore, useAuthSession } from '../../lib/auth-session';
import { frameErrorText, requestErrorText } from '../../lib/error-text';
import { getLanguage, translate, useI18n } from '../../lib/i18n';
import { StorageKey, readString, saveRedirectAfterLogin, writeString } from '../../lib/storage';

/** The room screen (spec section 2): composes the room, chat, invite, settings and voice features. */
export function TranslatePage() {
  const session = useAuthSession()!;
  const { t } = useI18n();
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const routeRoom = search.get('r')?.trim() || null;

  const [chat, dispatch] = useReducer(chatReducer, initialChatState);
  const typing = useTypingIndicator();
  const audio = useAudioPlayback();
  const microphones = useMicrophones();
  const [micPickerOpen, setMicPickerOpen] = useState(false);
  const [joinOpen, setJoinOpen] = useState(false);
  const [pastRoomsOpen, setPastRoomsOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);
  // A link to a room that cannot be joined: shown in place of the chat, nothing created (issue 12, item 2).
  const [joinProblem, setJoinProblem] = useState<{ room: string | null; reason?: string } | null>(null);

  // Whether this session's replay brought any message: a ref, because the replay and READY arrive in one
  // burst, before a re-render could update a closure over the chat state.
  const hasChatLog = useRef(false);
  const onFrame = useCallback(
    (frame: ServerFrame) => {
      dispatch({ type: 'frame', frame });
      const say = (key: Parameters<typeof translate>[1], params?: Record<string, string>) =>
        translate(getLanguage(), key, params);
      switch (frame.type) {
        case 'message':
          hasChatLog.current = true;
          typing.clear();
          break;
        case 'system':
          if (frame.message === 'BALANCE' && frame.balance) balanceStore.set(frame.balance);
          // Spec section 4: on a first connection with no chat log, XTalkChan's tutorial, for this user only.
          if (frame.message === 'READY' && !hasChatLog.current && readString(StorageKey.tut) !== '1') {
            writeString(StorageKey.tut, '1');
            for (const tutorial of tutorialFrames(getLanguage(), Date.now()))
              dispatch({ type: 'frame', frame: tutorial });
          }
          break;
        case 'usernameUpdate':
          toast(say('chat.renamed', { old: frame.oldDisplayUsername, name: frame.displayUsername }));
          break;
        case 'error':
          // Worded here by its code, in the interface language (issue 12, item 5). 'notice' is information
          // about the room's engines (its detail is the server's), 'no_speech' a plain outcome.
          if (frame.code === 'notice') toast.info(frameErrorText(getLanguage(), 'notice', frame.message));
          else if (frame.code === 'no_speech') toast(say('voice.noSpeech'));
          else toast.error(frameErrorText(getLanguage(), frame.code));
          break;
      }
    },
    [typing],
  );

  const connection = useRoomConnection({
    routeRoom,
    token: session.token,
    username: session.user.username,
    onFrame,
    onBinary: audio.enqueueWav,
    onNewSession: () => {
      hasChatLog.current = false;
      dispatch({ type: 'reset' });
    },
    onRoom: (roomId) => {
      setJoinProblem(null);
      if (roomId !== routeRoom) navigate(`/translate?r=${encodeURIComponent(roomId)}`, { replace: true });
    },
    onUnauthorized: () => {
      authStore.clear();
      saveRedirectAfterLogin(location.pathname + location.search);
      void navigate('/guest-login', { replace: true });
    },
    onJoinFailed: (error) => {
      const missing = error instanceof ApiError && error.code === 'room_not_found';
      setJoinProblem({
        room: routeRoom && routeRoom !== NEW_ROOM ? routeRoom : null,
        reason: missing ? undefined : requestErrorText(getLanguage(), error),
      });
    },
  });

  // Voice input: tap to record (stops playback), tap to send the clip as one binary frame.
  const recorder = useRecorder({
    deviceId: microphones.selected,
    onBeforeStart: audio.stop,
    onClip: (clip) => void connection.sendAudio(clip),
  });

  const isGuest = session.user.provider === 'guest';
  // Signing in comes back here: a guest who signs in keeps their room (spec section 2).
  const goLogin = () => {
    saveRedirectAfterLogin(location.pathname + location.search);
    void navigate('/login');
  };

  // The profile is saved; the session carries the new name and the room is told (usernameUpdate).
  const onProfileSaved = (user: User) => {
    const renamed =
      user.username !== session.user.username || user.displayUsername !== session.user.displayUsername;
    authStore.set({ token: session.token, user });
    if (renamed) {
      connection.send({
        type: 'updateUsername',
        username: user.username,
        displayUsername: user.displayUsername,
      });
    }
  };

  const sendText = (text: string) => {
    const sent = connection.sendChat(text);
    if (sent) typing.start();
    return sent;
  };

  const joinCode = (code: string) => {
    setJoinOpen(false);
    if (connection.isCurrentRoom(code)) return;
    void navigate(`/translate?r=${encodeURIComponent(code)}`);
  };
  const createRoom = () => navigate(`/translate?r=${NEW_ROOM}`);

  return (
    <div className="flex h-dvh flex-col bg-slate-50 dark:bg-slate-950">
      <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90">
        <div className="mx-auto flex h-14 w-full max-w-4xl items-center gap-2 px-3 sm:px-6">
          <span className="mr-1 hidden text-xl font-black tracking-tight text-indigo-600 sm:inline dark:text-indigo-400">
            XTalk
          </span>
          <RoomIdButton roomId={connection.roomId} onClick={() => setPastRoomsOpen(true)} />
          <div className="flex-1" />
          <InviteButton roomId={connection.roomId} />
          <TranscriptMenu
            roomId={connection.roomId}
            items={chat.items}
            link={connection.roomId ? shareLink(window.location.href, connection.roomId) : ''}
          />
          {!isGuest && <BalanceButton token={session.token} />}
          {isGuest && (
            <HeaderButton
              onClick={goLogin}
              data-testid="login-button"
              icon={<LogIn />}
              label={t('room.login')}
            />
          )}
          <SettingsMenu
            isGuest={isGuest}
            onCreateRoom={createRoom}
            onJoinRoom={() => setJoinOpen(true)}
            onMicrophone={() => setMicPickerOpen(true)}
            onPastRooms={() => setPastRoomsOpen(true)}
            onProfile={() => setProfileOpen(true)}
            onLogin={goLogin}
            onLogout={() => void navigate('/logout')}
          />
        </div>
      </header>

      <ReconnectBanner state={connection.state} onReconnect={connection.reconnect} />
      {joinProblem ? (
        <RoomMissing
          room={joinProblem.room}
          reason={joinProblem.reason}
          onCreate={createRoom}
          onJoinAnother={() => setJoinOpen(true)}
        />
      ) : (
        <MessageList
          items={chat.items}
          myUsername={session.user.username}
          isReady={connection.isReady}
          pending={connection.outbox}
          onRetry={connection.retry}
          onDiscard={connection.discard}
        />
      )}

      <footer className="border-t border-slate-200 bg-white/95 dark:border-slate-800 dark:bg-slate-900/95">
        <ChatComposer
          onSend={sendText}
          isTyping={typing.isTyping}
          micSlot={
            <VoiceControls
              state={recorder.state}
              elapsedSeconds={recorder.elapsedSeconds}
              analyser={recorder.analyser}
              onTap={recorder.tap}
            />
          }
          languageSlot={
            <LanguageToggle disabled={!connection.isConnected} onChange={connection.sendLanguage} />
          }
        />
        <p className="mx-auto max-w-4xl px-4 pb-2 text-center text-[11px] text-slate-600 dark:text-slate-400">
          {t('room.footer')}
        </p>
      </footer>

      <LandscapeView items={chat.items} myUsername={session.user.username} />
      <MicPickerDialog
        open={micPickerOpen}
        onClose={() => setMicPickerOpen(false)}
        devices={microphones.devices}
        selected={microphones.selected}
        onChoose={microphones.choose}
        onOpen={() => void microphones.refresh()}
      />
      <ConnectionOverlays state={connection.state} />
      <JoinRoomDialog
        open={joinOpen}
        currentRoom={connection.roomId}
        onClose={() => setJoinOpen(false)}
        onJoin={joinCode}
      />
      <PastRoomsDialog
        open={pastRoomsOpen}
        onClose={() => setPastRoomsOpen(false)}
        token={session.token}
        isGuest={isGuest}
        currentRoom={connection.roomId}
        onRejoin={joinCode}
        onLogin={goLogin}
      />
      <ProfileDialog
        open={profileOpen}
        onClose={() => setProfileOpen(false)}
        token={session.token}
        user={session.user}
        onSaved={onProfileSaved}
        onLogin={goLogin}
      />
    </div>
  );
}
