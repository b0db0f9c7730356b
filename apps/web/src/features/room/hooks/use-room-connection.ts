import type { ClientFrame } from '@xtalk/protocol';
import { useCallback, useEffect, useRef } from 'react';
import { toast, words } from '#web/lib/toast';
import type { SocketClient } from '#web/lib/socket-client';
import { newClientId } from '../utils/outbox';
import { toastNotConnected } from '../utils/room-toasts';
import type { RoomConnectionOptions } from './room-connection-options';
import { useJoinOnRoute } from './use-join-on-route';
import { useListeningLanguage } from './use-listening-language';
import { useOutbox } from './use-outbox';
import { useRoomSocket } from './use-room-socket';
import { useVoiceSending } from './use-voice-sending';

export type { RoomConnectionHandlers, RoomConnectionOptions } from './room-connection-options';

/**
 * Owns the room's SocketClient: picks the room to join (useJoinOnRoute), stores rid/sid,
 * and turns connection events into toasts and callbacks. The client and its events live in useRoomSocket,
 * the typed messages awaiting acknowledgement in useOutbox, voice in useVoiceSending and the listening
 * language in useListeningLanguage.
 */
export function useRoomConnection(options: RoomConnectionOptions) {
  const { routeRoom, username } = options;
  // The latest options, read by the client's callbacks when they run.
  const handlersRef = useRef<RoomConnectionOptions>(options);
  useEffect(() => {
    handlersRef.current = options;
  });
  const clientRef = useRef<SocketClient | null>(null);
  const { outbox, settle, flush, sendChat, retry, discard } = useOutbox(clientRef);
  const { state, roomId } = useRoomSocket(clientRef, handlersRef, { settle, flush });
  useJoinOnRoute(clientRef, routeRoom);
  const { sendAudio, openVoiceStream } = useVoiceSending(clientRef);
  const { sendLanguage, chooseListening } = useListeningLanguage(clientRef);

  const send = useCallback((frame: ClientFrame): boolean => {
    const sent = clientRef.current?.send(frame) ?? false;
    // a handover (a node draining) is a moment without a socket that no one needs to hear about
    if (!sent && clientRef.current?.state !== 'handover') toastNotConnected();
    return sent;
  }, []);

  /** Sends the author's correction of their message `id` (protocol 3). */
  const sendEdit = useCallback((id: number, message: string): boolean => {
    const sent = clientRef.current?.send({ type: 'editMessage', id, message }) ?? false;
    if (!sent) toastNotConnected();
    return sent;
  }, []);

  /**
   * The author's "Try again" for their message's failed translations (protocol 7). The mark takes one tap,
   * so each call is one request: its id makes a frame the socket sends again paid once (decision 0186).
   */
  const sendRetranslate = useCallback(
    (id: number) => void send({ type: 'retranslate', id, requestId: newClientId() }),
    [send],
  );

  const reconnect = useCallback(() => clientRef.current?.reconnectNow(), []);

  /** True (and a toast) when asked to join the room we are already connected to. */
  const isCurrentRoom = useCallback((code: string) => {
    const client = clientRef.current;
    if (!client || code !== client.roomId || !client.isOpen) return false;
    toast(words('room.alreadyIn'));
    return true;
  }, []);

  return {
    state,
    roomId,
    username,
    isConnected: state === 'connected' || state === 'ready',
    isReady: state === 'ready',
    send,
    sendChat,
    /** The current room's messages not yet acknowledged, oldest first. */
    // a message typed while the socket is away waits, and says so, instead of 'Sending…'
    outbox: outbox
      .filter((entry) => entry.roomId === roomId)
      .map((entry) => (state === 'ready' ? entry : { ...entry, waiting: true })),
    retry,
    discard,
    sendAudio,
    openVoiceStream,
    sendLanguage,
    chooseListening,
    sendEdit,
    sendRetranslate,
    reconnect,
    isCurrentRoom,
  };
}
