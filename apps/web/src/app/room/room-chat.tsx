import type { ChatState } from '#web/features/chat/utils/chat-items';
import { MessageList } from '#web/features/chat/components/message-list';
import { RoomMissing } from '#web/features/room/components/room-missing';
import type { useRoomConnection } from '#web/features/room/hooks/use-room-connection';

type Connection = Pick<
  ReturnType<typeof useRoomConnection>,
  'isReady' | 'outbox' | 'retry' | 'discard' | 'sendEdit' | 'sendRetranslate'
>;

export interface RoomChatProps {
  /** The room that could not be joined, and why; null while there is a room. */
  joinProblem: { room: string | null; reason?: string } | null;
  chat: ChatState;
  connection: Connection;
  myUsername: string;
  listening: string;
  editWindowMs: number | undefined;
  /** The message whose translation is spoken now. */
  speakingId: number | undefined;
  onCreateRoom: () => void;
  onJoinAnother: () => void;
}

/** The middle of the room screen: the conversation, or a room link that leads nowhere and the ways on. */
export function RoomChat({
  joinProblem,
  chat,
  connection,
  myUsername,
  listening,
  editWindowMs,
  speakingId,
  onCreateRoom,
  onJoinAnother,
}: RoomChatProps) {
  if (joinProblem) {
    return (
      <RoomMissing
        room={joinProblem.room}
        reason={joinProblem.reason}
        onCreate={onCreateRoom}
        onJoinAnother={onJoinAnother}
      />
    );
  }
  return (
    <MessageList
      items={chat.items}
      myUsername={myUsername}
      isReady={connection.isReady}
      pending={connection.outbox}
      onRetry={connection.retry}
      onDiscard={connection.discard}
      listening={listening}
      onEdit={connection.sendEdit}
      onRetranslate={connection.sendRetranslate}
      editWindowMs={editWindowMs}
      captions={chat.captions}
      speakingId={speakingId}
    />
  );
}
