import { NEW_ROOM, type ClientFrame, type UiLanguage } from '@xtalk/protocol';
import { useCallback, useEffect, useRef } from 'react';
import { toast } from '../../../lib/toast';
import { getLanguage, translate } from '../../../lib/i18n';
import type { SocketClient } from '../../../lib/socket-client';
import { StorageKey, readString, remove } from '../../../lib/storage';
import { listeningLanguage, pickListeningLanguage } from '../utils/listening';
import { newClientId } from '../utils/outbox';
import { toastNotConnected } from '../utils/room-toasts';
import type { RoomConnectionOptions } from './room-connection-options';
import { useOutbox } from './use-outbox';
import { useRoomSocket } from './use-room-socket';

export type { RoomConnectionHandlers, RoomConnectionOptions } from './room-connection-options';

/**
 * Owns the room's SocketClient (spec section 4): picks the room to join on mount (route, else the stored
 * one, else a new one), stores rid/sid, and turns connection events into toasts and callbacks. The client
 * and its events live in useRoomSocket, the typed messages awaiting acknowledgement in useOutbox.
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

  // Join on mount and whenever the address names a room other than the one we are in.
  useEffect(() => {
    const client = clientRef.current;
    if (!client) return;
    if (routeRoom !== null && routeRoom === client.roomId && client.state !== 'idle') return;
    // In a task of its own, not in the one that commits the room screen (decision 0084): starting the
    // join (request, schema chunks) there made the first render one long task.
    const start = setTimeout(() => {
      remove(StorageKey.sid);
      if (routeRoom === null) {
        client.join(readString(StorageKey.rid) || null);
      } else {
        remove(StorageKey.rid);
        client.join(routeRoom === NEW_ROOM ? NEW_ROOM : routeRoom);
      }
    });
    return () => clearTimeout(start);
  }, [routeRoom]);

  const send = useCallback((frame: ClientFrame): boolean => {
    const sent = clientRef.current?.send(frame) ?? false;
    // a handover (a node draining) is a moment without a socket that no one needs to hear about
    if (!sent && clientRef.current?.state !== 'handover') toastNotConnected();
    return sent;
  }, []);

  /** A voice clip; 'Not connected.' (2 s) when the socket is not open (spec section 5). */
  const sendAudio = useCallback((clip: Uint8Array): boolean => {
    const client = clientRef.current;
    // the clip's client id goes just before it, so a resent clip is stored (and transcribed) once
    const sent =
      (client?.state === 'ready' &&
        client.send({ type: 'voiceClip', clientId: newClientId() }) &&
        client.sendBinary(clip)) ||
      false;
    if (!sent) toastNotConnected();
    return sent;
  }, []);

  /**
   * Streaming voice (protocol 3): announces a clip and returns where its pages go; undefined when the server
   * speaks an older protocol or the socket is not ready (the recorder then sends the whole clip).
   */
  const openVoiceStream = useCallback(() => {
    const language = getLanguage();
    const client = clientRef.current;
    const room = client?.roomId;
    if (!client || !room || client.state !== 'ready' || client.serverProtocolVersion < 3) return undefined;
    const clipId = newClientId();
    if (!client.send({ type: 'voiceStart', clipId, language, room })) return undefined;
    // after a reconnect the pages would reach a server that never saw voiceStart: the stream is broken
    const connection = client.readyCount;
    const same = () => client.state === 'ready' && client.readyCount === connection;
    return {
      send: (pages: Uint8Array) => same() && client.sendBinary(pages),
      end: () => same() && client.send({ type: 'voiceEnd', clipId }),
    };
  }, []);

  /** The interface language changed: the listening language follows it unless one was picked. */
  const sendLanguage = useCallback((language: UiLanguage) => {
    const client = clientRef.current;
    if (client?.roomId && client.isOpen)
      client.send({ type: 'setLanguage', language: listeningLanguage(language), room: client.roomId });
  }, []);

  /** A listening language picked from the server's list (more than EN/JA); kept for later visits. */
  const chooseListening = useCallback((language: string) => {
    pickListeningLanguage(language);
    const client = clientRef.current;
    if (client?.roomId && client.isOpen) client.send({ type: 'setLanguage', language, room: client.roomId });
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
    toast(translate(getLanguage(), 'room.alreadyIn'));
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
