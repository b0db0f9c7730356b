import { CloseCode, NEW_ROOM, type ClientFrame, type ServerFrame, type UiLanguage } from '@xtalk/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { authStore } from '../../../lib/auth-session';
import { requestErrorText } from '../../../lib/error-text';
import { getLanguage, translate } from '../../../lib/i18n';
import { SocketClient, type ConnectionState, type WebSocketFactory } from '../../../lib/socket-client';
import { StorageKey, readString, remove, touchRoomHistory, writeString } from '../../../lib/storage';
import { toast } from 'sonner';
import { joinRoom, socketUrl } from '../api/join-room';
import { newClientId } from '../utils/outbox';
import { toastNotConnected } from '../utils/room-toasts';
import { useOutbox } from './use-outbox';

export interface RoomConnectionHandlers {
  onFrame: (frame: ServerFrame) => void;
  onBinary: (data: ArrayBuffer) => void;
  /** A new session was obtained: the message list starts empty (spec section 4). */
  onNewSession: () => void;
  /** The server placed us in `roomId`; the page shows it in the address (?r=). */
  onRoom: (roomId: string) => void;
  /** The token was refused: log in again. */
  onUnauthorized: () => void;
  /** Joining failed for good (no such room, a malformed code...); the page says so and offers a way on. */
  onJoinFailed: (error: unknown) => void;
}

export interface RoomConnectionOptions extends RoomConnectionHandlers {
  /** The room in the address (?r=), or null. */
  routeRoom: string | null;
  token: string;
  username: string;
  createSocket?: WebSocketFactory;
}

// The DOM types its handlers with `this: WebSocket`; the shape is the same.
const browserSocket: WebSocketFactory = (url) =>
  new WebSocket(url) as unknown as ReturnType<WebSocketFactory>;

/**
 * Owns the room's SocketClient (spec section 4): picks the room to join on mount (route, else the stored
 * one, else a new one), stores rid/sid, and turns connection events into toasts and callbacks.
 */
export function useRoomConnection(options: RoomConnectionOptions) {
  const { routeRoom, username } = options;
  // The latest options, read by the client's callbacks when they run.
  const handlersRef = useRef<RoomConnectionOptions>(options);
  useEffect(() => {
    handlersRef.current = options;
  });
  const clientRef = useRef<SocketClient | null>(null);
  const [state, setState] = useState<ConnectionState>('idle');
  const [roomId, setRoomId] = useState<string | null>(null);
  const { outbox, settle, flush, sendChat, retry, discard } = useOutbox(clientRef);

  useEffect(() => {
    const handlers = handlersRef;
    const client = new SocketClient({
      createSocket: handlers.current.createSocket ?? browserSocket,
      openSession: async (room) => {
        // Spec section 5: connecting without a user alerts 'Not logged in'. RequireAuth keeps visitors
        // without a session off this screen, but a session can run out while the room stays open; the
        // automatic retries, 'Tap to Reconnect' and joining another room then arrive here. As a 401 the
        // failure is final and goes the onUnauthorized way (back to the login with the room remembered).
        if (!authStore.get()) {
          window.alert(translate(getLanguage(), 'room.notLoggedIn'));
          throw new ApiError(401, null, 'Not logged in');
        }
        const session = await joinRoom(handlers.current.token, room, getLanguage());
        return { ...session, url: socketUrl(session.sessionId, handlers.current.token) };
      },
      hello: (room): ClientFrame => ({
        type: 'setUsername',
        username: handlers.current.username,
        language: getLanguage(),
        room,
      }),
    });
    clientRef.current = client;
    const t = (key: Parameters<typeof translate>[1], params?: Record<string, string>) =>
      translate(getLanguage(), key, params);
    const offs = [
      client.on('state', (next) => {
        setState(next);
        if (next !== 'ready') return;
        toast.success(t('room.ready'), { duration: 1500 });
        if (client.roomId) flush(client.roomId);
      }),
      client.on('session', (info, resumed) => {
        writeString(StorageKey.rid, info.roomId);
        writeString(StorageKey.sid, info.sessionId);
        touchRoomHistory(info.roomId);
        setRoomId(info.roomId);
        // a resumed session gets exactly what it missed: the list stays
        if (!resumed) handlers.current.onNewSession();
        handlers.current.onRoom(info.roomId);
      }),
      client.on('sessionError', (error, fatal) => {
        if (error instanceof ApiError && error.status === 401) {
          handlers.current.onUnauthorized();
          return;
        }
        remove(StorageKey.rid);
        remove(StorageKey.sid);
        // While retrying on its own the overlay already says so; one toast per failed join is enough.
        // A room that does not exist is said by the page itself (onJoinFailed), in place of the chat.
        const missing = error instanceof ApiError && error.code === 'room_not_found';
        if ((fatal || client.state === 'connecting') && !missing) {
          toast.error(t('room.joinError', { message: requestErrorText(getLanguage(), error) }));
        }
        if (fatal) handlers.current.onJoinFailed(error);
      }),
      client.on('frame', (frame) => {
        settle(frame);
        handlers.current.onFrame(frame);
      }),
      client.on('binary', (data) => handlers.current.onBinary(data)),
      client.on('close', (code) => {
        if (code === CloseCode.Normal) toast(t('room.disconnected'));
        else remove(StorageKey.sid);
        if (code === CloseCode.UnsupportedVersion) {
          toast.error(t('room.reloadNeeded'), {
            duration: Infinity,
            action: { label: t('room.reload'), onClick: () => window.location.reload() },
          });
        }
        if (code === CloseCode.TokenExpired) handlers.current.onUnauthorized();
      }),
    ];
    return () => {
      for (const off of offs) off();
      client.leave();
      clientRef.current = null;
    };
  }, [settle, flush]);

  // Join on mount and whenever the address names a room other than the one we are in.
  useEffect(() => {
    const client = clientRef.current;
    if (!client) return;
    if (routeRoom !== null && routeRoom === client.roomId && client.state !== 'idle') return;
    remove(StorageKey.sid);
    if (routeRoom === null) {
      client.join(readString(StorageKey.rid) || null);
    } else {
      remove(StorageKey.rid);
      client.join(routeRoom === NEW_ROOM ? NEW_ROOM : routeRoom);
    }
  }, [routeRoom]);

  const send = useCallback((frame: ClientFrame): boolean => {
    const sent = clientRef.current?.send(frame) ?? false;
    if (!sent) toastNotConnected();
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

  const sendLanguage = useCallback((language: UiLanguage) => {
    const client = clientRef.current;
    if (client?.roomId && client.isOpen) client.send({ type: 'setLanguage', language, room: client.roomId });
  }, []);

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
    outbox: outbox.filter((entry) => entry.roomId === roomId),
    retry,
    discard,
    sendAudio,
    sendLanguage,
    reconnect,
    isCurrentRoom,
  };
}
