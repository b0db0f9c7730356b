import { NEW_ROOM, type ServerFrame, type User } from '@xtalk/protocol';
import { useState } from 'react';
import { lazyDialog } from '../../components/ui/lazy-dialog';
import { useLocation, useNavigate, useSearchParams } from '../../lib/router';
import { LandscapeView } from '../../features/chat/components/landscape-view';
import { MessageList } from '../../features/chat/components/message-list';
import { useTypingIndicator } from '../../features/chat/hooks/use-typing-indicator';
import { useMessageNotifications } from '../../features/notifications/hooks/use-message-notifications';
import { useUnreadTitle } from '../../features/notifications/hooks/use-unread-title';
import { ConnectionOverlays, ReconnectBanner } from '../../features/room/components/connection-overlays';
import { RoomMissing } from '../../features/room/components/room-missing';
import { useAudioPlayback } from '../../features/voice/hooks/use-audio-playback';
import { useMicrophones } from '../../features/voice/hooks/use-microphones';
import { authStore, useAuthSession } from '../../lib/auth-session';
import { saveRedirectAfterLogin } from '../../lib/storage';
import { RoomHeader } from './room-header';
import { listeningHandlers, RoomFooter } from './room-footer';
import { useJoinedRoom } from './use-joined-room';
import { useRoomFrames } from './use-room-frames';
import { useRoomRecorder } from './use-room-recorder';
import { RoomAids, useRoomAids } from './room-aids';

// Loaded when first opened (decision 0084): none is open when the room screen loads.
const MicPickerDialog = lazyDialog(
  async () => (await import('../../features/voice/components/mic-picker-dialog')).MicPickerDialog,
);
const JoinRoomDialog = lazyDialog(
  async () => (await import('../../features/room/components/join-room-dialog')).JoinRoomDialog,
);
const PastRoomsDialog = lazyDialog(
  async () => (await import('../../features/history/components/past-rooms-dialog')).PastRoomsDialog,
);
const ProfileDialog = lazyDialog(
  async () => (await import('../../features/settings/components/profile-dialog')).ProfileDialog,
);

interface FrameSink {
  onFrame: (frame: ServerFrame) => void;
  onNewSession: () => void;
}

/** The room's frames to the chat and the notifications, and to the player what it needs: a sentence's
 * `speech` (its audio is the next binary frame) and a correction, which stops the old text's speech. */
function roomHandlers(
  chat: FrameSink,
  notifications: FrameSink,
  audio: Pick<ReturnType<typeof useAudioPlayback>, 'onSpeech' | 'corrected' | 'enqueueWav'>,
) {
  return {
    onFrame: (frame: ServerFrame) => {
      if (frame.type === 'speech') audio.onSpeech(frame);
      if (frame.type === 'messageEdited') audio.corrected(frame.id);
      notifications.onFrame(frame);
      chat.onFrame(frame);
    },
    onBinary: audio.enqueueWav,
    onNewSession: () => {
      notifications.onNewSession();
      chat.onNewSession();
    },
  };
}

/** The room screen (spec section 2): composes the room, chat, invite, settings and voice features. */
export function TranslatePage() {
  const session = useAuthSession()!;
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const routeRoom = search.get('r')?.trim() || null;
  const typing = useTypingIndicator();
  const { chat, onFrame, onNewSession, room, listening, setListening, ...frames } = useRoomFrames(typing);
  useUnreadTitle(chat.items, session.user.username);
  const audio = useAudioPlayback();
  const microphones = useMicrophones();
  const [micPickerOpen, setMicPickerOpen] = useState(false);
  const [joinOpen, setJoinOpen] = useState(false);
  const [pastRoomsOpen, setPastRoomsOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);
  const notifications = useMessageNotifications({ items: chat.items, me: session.user.username, listening });
  const { connection, joinProblem } = useJoinedRoom({
    routeRoom,
    token: session.token,
    username: session.user.username,
    ...roomHandlers({ onFrame, onNewSession }, notifications, audio),
  });

  const recorder = useRoomRecorder(microphones.selected, audio.stop, connection);
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
  const aids = useRoomAids({ ...frames, connection, token: session.token, listening });

  return (
    <div className="flex h-dvh flex-col bg-slate-50 dark:bg-slate-950">
      <RoomHeader
        roomId={connection.roomId}
        items={chat.items}
        token={session.token}
        isGuest={isGuest}
        onPastRooms={() => setPastRoomsOpen(true)}
        onCreateRoom={createRoom}
        onJoinRoom={() => setJoinOpen(true)}
        onMicrophone={() => setMicPickerOpen(true)}
        onProfile={() => setProfileOpen(true)}
        onLogin={goLogin}
        onLogout={() => void navigate('/logout')}
        speech={audio}
        {...aids.header}
      />
      <RoomAids aids={aids} isGuest={isGuest} languages={room.languages} onLogin={goLogin} />

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
          listening={listening}
          onEdit={connection.sendEdit}
          onRetranslate={connection.sendRetranslate}
          editWindowMs={room.editWindowMs}
          captions={chat.captions}
          speakingId={audio.speakingId}
        />
      )}

      <RoomFooter
        onSend={sendText}
        isTyping={typing.isTyping}
        recorder={recorder}
        isConnected={connection.isConnected}
        {...listeningHandlers(connection, setListening)}
        languages={room.languages}
        listening={listening}
        noRoom={joinProblem !== null}
      />

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
