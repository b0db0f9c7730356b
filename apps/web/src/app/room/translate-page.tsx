import type { ServerFrame } from '@xtalk/protocol';
import { useSearchParams } from '#web/lib/router';
import { LandscapeView } from '#web/features/chat/components/landscape-view';
import { useTypingIndicator } from '#web/features/chat/hooks/use-typing-indicator';
import { useMessageNotifications } from '#web/features/notifications/hooks/use-message-notifications';
import { useUnreadTitle } from '#web/features/notifications/hooks/use-unread-title';
import { ConnectionOverlays, ReconnectBanner } from '#web/features/room/components/connection-overlays';
import { useAudioPlayback } from '#web/features/voice/hooks/use-audio-playback';
import { useMicrophones } from '#web/features/voice/hooks/use-microphones';
import { useAuthSession } from '#web/lib/auth-session';
import { RoomChat } from './room-chat';
import { RoomDialogs, useRoomDialogs } from './room-dialogs';
import { RoomHeader } from './room-header';
import { listeningHandlers, RoomFooter } from './room-footer';
import { useJoinedRoom } from './use-joined-room';
import { useRoomFrames } from './use-room-frames';
import { useRoomNavigation } from './use-room-navigation';
import { useRoomRecorder } from './use-room-recorder';
import { RoomAids, useRoomAids } from './room-aids';

interface FrameSink {
  onFrame: (frame: ServerFrame) => void;
  onNewSession: () => void;
}

/** The room's frames to the chat and the notifications, and to the player what it needs: a sentence's
 * `speech` (its audio is the next binary frame), a translation the browser speaks (`noServerVoice`) and a
 * correction, which stops the old text's speech. */
function roomHandlers(
  chat: FrameSink,
  notifications: FrameSink,
  audio: Pick<
    ReturnType<typeof useAudioPlayback>,
    'onSpeech' | 'onNoServerVoice' | 'corrected' | 'enqueueWav'
  >,
) {
  return {
    onFrame: (frame: ServerFrame) => {
      if (frame.type === 'speech') audio.onSpeech(frame);
      if (frame.type === 'noServerVoice') audio.onNoServerVoice(frame);
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

/** The room screen: composes the room, chat, invite, settings and voice features. */
export function TranslatePage() {
  const session = useAuthSession()!;
  const [search] = useSearchParams();
  const routeRoom = search.get('r')?.trim() || null;
  const typing = useTypingIndicator();
  const { chat, onFrame, onNewSession, room, listening, setListening, ...frames } = useRoomFrames(typing);
  useUnreadTitle(chat.items, session.user.username);
  const audio = useAudioPlayback();
  const microphones = useMicrophones();
  const dialogs = useRoomDialogs();
  const notifications = useMessageNotifications({ items: chat.items, me: session.user.username, listening });
  const { connection, joinProblem } = useJoinedRoom({
    routeRoom,
    token: session.token,
    username: session.user.username,
    ...roomHandlers({ onFrame, onNewSession }, notifications, audio),
  });

  const recorder = useRoomRecorder(microphones.selected, audio.stop, connection);
  const isGuest = session.user.provider === 'guest';
  const { goLogin, joinRoom, createRoom, logout } = useRoomNavigation(connection.isCurrentRoom);

  const sendText = (text: string) => {
    const sent = connection.sendChat(text);
    if (sent) typing.start();
    return sent;
  };

  const joinCode = (code: string) => {
    dialogs.setJoinOpen(false);
    joinRoom(code);
  };
  const aids = useRoomAids({ ...frames, connection, token: session.token, listening });

  return (
    <div className="flex h-dvh flex-col bg-slate-50 dark:bg-slate-950">
      <RoomHeader
        roomId={connection.roomId}
        items={chat.items}
        token={session.token}
        isGuest={isGuest}
        onPastRooms={() => dialogs.setPastRoomsOpen(true)}
        onCreateRoom={createRoom}
        onJoinRoom={() => dialogs.setJoinOpen(true)}
        onMicrophone={() => dialogs.setMicPickerOpen(true)}
        onProfile={() => dialogs.setProfileOpen(true)}
        onLogin={goLogin}
        onLogout={logout}
        speech={audio}
        {...aids.header}
      />
      <RoomAids aids={aids} isGuest={isGuest} languages={room.languages} onLogin={goLogin} />

      <ReconnectBanner state={connection.state} onReconnect={connection.reconnect} />
      <RoomChat
        joinProblem={joinProblem}
        chat={chat}
        connection={connection}
        myUsername={session.user.username}
        listening={listening}
        editWindowMs={room.editWindowMs}
        speakingId={audio.speakingId}
        onCreateRoom={createRoom}
        onJoinAnother={() => dialogs.setJoinOpen(true)}
      />

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
      <ConnectionOverlays state={connection.state} />
      <RoomDialogs
        dialogs={dialogs}
        session={session}
        isGuest={isGuest}
        roomId={connection.roomId}
        microphones={microphones}
        onJoin={joinCode}
        onLogin={goLogin}
        onLogout={logout}
        send={connection.send}
      />
    </div>
  );
}
