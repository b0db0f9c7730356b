import { CloseCode, type ClientFrame, type ServerFrame } from '@xtalk/protocol';
import { useEffect, useState, type RefObject } from 'react';
import { localized, toast, words } from '#web/lib/toast';
import { ApiError } from '#web/lib/api-client';
import { authStore } from '#web/lib/auth-session';
import { requestErrorText } from '#web/lib/error-text';
import { getLanguage, translate } from '#web/lib/i18n';
import { SocketClient, type ConnectionState, type WebSocketFactory } from '#web/lib/socket-client';
import { pageSocketOrigin, SocketEndpoints, socketUrlOn } from '#web/lib/socket-endpoints';
import { StorageKey, remove, touchRoomHistory, writeString } from '#web/lib/storage';
import { joinRoom } from '../api/join-room';
import { listeningLanguage, setOfferedLanguages } from '../utils/listening';
import { hideReady, showReady } from '../utils/ready-toast';
import type { RoomConnectionOptions } from './room-connection-options';

// The DOM types its handlers with `this: WebSocket`; the shape is the same.
const browserSocket: WebSocketFactory = (url) =>
  new WebSocket(url) as unknown as ReturnType<WebSocketFactory>;

/** What the room's client reports into: the outbox, and the hook's state. */
interface RoomSocketSinks {
  handlers: RefObject<RoomConnectionOptions>;
  setState: (state: ConnectionState) => void;
  setRoomId: (roomId: string) => void;
  /** Settles the outbox entry a frame acknowledges or refuses. */
  settle: (frame: ServerFrame) => void;
  /** Sends the room's waiting outbox entries (on READY). */
  flush: (roomId: string) => void;
}

export { READY_TOAST } from '../utils/ready-toast';

/** The language the last hello listened in (READY may reveal a pick the hello could not know yet). */
let helloLanguage = '';

/**
 * The room's SocketClient: sessions from the join API, each socket on the endpoint the server's list
 * (or the page's origin) says next, the hello from the latest options.
 */
function createRoomClient(handlers: RefObject<RoomConnectionOptions>): SocketClient {
  const endpoints = new SocketEndpoints(pageSocketOrigin(window.location));
  const client = new SocketClient({
    createSocket: handlers.current.createSocket ?? browserSocket,
    openSession: async (room, signal) => {
      // Connecting without a user alerts 'Not logged in'. RequireAuth keeps visitors
      // without a session off this screen, but a session can run out while the room stays open; the
      // automatic retries, 'Tap to Reconnect' and joining another room then arrive here. As a 401 the
      // failure is final and goes the onUnauthorized way (back to the login with the room remembered).
      if (!authStore.get()) {
        window.alert(translate(getLanguage(), 'room.notLoggedIn'));
        throw new ApiError(401, null, 'Not logged in');
      }
      const session = await joinRoom(handlers.current.token, room, getLanguage(), signal);
      endpoints.use(session.socketEndpoints, session.roomEndpoints);
      return { ...session, url: socketUrlOn(endpoints.current, session.sessionId, handlers.current.token) };
    },
    hello: (room): ClientFrame => {
      helloLanguage = listeningLanguage();
      return { type: 'setUsername', username: handlers.current.username, language: helloLanguage, room };
    },
  });
  endpoints.follow(client);
  endpoints.returnHome(client);
  return client;
}

/**
 * Turns the client's events into stored rid/sid, toasts and callbacks. Returns the
 * functions that unsubscribe.
 */
function wireRoomEvents(client: SocketClient, sinks: RoomSocketSinks): (() => void)[] {
  const { handlers } = sinks;
  let previous = client.state;
  return [
    client.on('state', (next) => {
      const handedOver = previous === 'handover';
      previous = next;
      sinks.setState(next);
      // A socket given up right after READY (decision 0139) would show 'Ready!' over the reconnecting
      // banner on a phone for the rest of its 1.5 s: the toast goes when the connection does.
      if (next === 'reconnecting' || next === 'disconnected') hideReady();
      if (next !== 'ready') return;
      // a handover (a node draining, a rolling deploy) is nothing the person needs to hear about
      if (!handedOver) showReady();
      if (client.roomId) sinks.flush(client.roomId);
    }),
    client.on('session', (info, resumed) => {
      writeString(StorageKey.rid, info.roomId);
      writeString(StorageKey.sid, info.sessionId);
      touchRoomHistory(info.roomId);
      sinks.setRoomId(info.roomId);
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
        toast.error(
          localized((language) =>
            translate(language, 'room.joinError', { message: requestErrorText(language, error) }),
          ),
        );
      }
      if (fatal) handlers.current.onJoinFailed(error);
    }),
    client.on('frame', (frame) => {
      sinks.settle(frame);
      if (frame.type === 'system' && frame.message === 'READY') {
        // the languages this server translates into: a listening language picked among them now applies
        setOfferedLanguages(frame.languages);
        const listening = listeningLanguage();
        if (listening !== helloLanguage && client.roomId) {
          helloLanguage = listening;
          client.send({ type: 'setLanguage', language: listening, room: client.roomId });
        }
      }
      handlers.current.onFrame(frame);
    }),
    client.on('binary', (data) => handlers.current.onBinary(data)),
    client.on('close', (code) => {
      if (code === CloseCode.Normal) toast(words('room.disconnected'));
      else remove(StorageKey.sid);
      if (code === CloseCode.UnsupportedVersion) {
        toast.error(words('room.reloadNeeded'), {
          duration: Infinity,
          action: { label: words('room.reload'), onClick: () => window.location.reload() },
        });
      }
      if (code === CloseCode.TokenExpired) handlers.current.onUnauthorized();
      if (code === CloseCode.SignedOut) handlers.current.onSignedOut();
    }),
  ];
}

/**
 * Creates the room's client into `clientRef` for the component's life and wires its events; the
 * connection state and the room we are in come back to render.
 */
export function useRoomSocket(
  clientRef: RefObject<SocketClient | null>,
  handlers: RefObject<RoomConnectionOptions>,
  outbox: Pick<RoomSocketSinks, 'settle' | 'flush'>,
) {
  const [state, setState] = useState<ConnectionState>('idle');
  const [roomId, setRoomId] = useState<string | null>(null);
  const { settle, flush } = outbox;
  useEffect(() => {
    const client = createRoomClient(handlers);
    clientRef.current = client;
    const offs = wireRoomEvents(client, { handlers, setState, setRoomId, settle, flush });
    return () => {
      for (const off of offs) off();
      // leaving the room screen (Login, logout) takes its 'Ready!' along rather than onto the next page
      hideReady();
      client.leave();
      clientRef.current = null;
    };
  }, [clientRef, handlers, settle, flush]);
  return { state, roomId };
}
