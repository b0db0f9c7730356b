import { NEW_ROOM } from '@xtalk/protocol';
import { useState } from 'react';
import { useRoomConnection } from '#web/features/room/hooks/use-room-connection';
import { ApiError } from '#web/lib/api-client';
import { authStore, readValidSession } from '#web/lib/auth-session';
import { requestErrorText } from '#web/lib/error-text';
import { getLanguage } from '#web/lib/i18n';
import { useLocation, useNavigate } from '#web/lib/router';
import { saveRedirectAfterLogin } from '#web/lib/storage';

type RoomConnectionOptions = Parameters<typeof useRoomConnection>[0];

/**
 * The connection to the room in the address: the address follows the room joined, an expired session goes
 * to the guest login (and comes back), an ended one (signed out elsewhere) to the sign-in page, and a link
 * to a room that cannot be joined becomes `joinProblem`.
 */
export function useJoinedRoom(
  options: Pick<
    RoomConnectionOptions,
    'routeRoom' | 'token' | 'username' | 'onFrame' | 'onBinary' | 'onNewSession'
  >,
) {
  const { routeRoom } = options;
  const navigate = useNavigate();
  const location = useLocation();
  // A link to a room that cannot be joined: shown in place of the chat, nothing created.
  const [joinProblem, setJoinProblem] = useState<{ room: string | null; reason?: string } | null>(null);
  const connection = useRoomConnection({
    ...options,
    onRoom: (roomId) => {
      setJoinProblem(null);
      if (roomId !== routeRoom) navigate(`/translate?r=${encodeURIComponent(roomId)}`, { replace: true });
    },
    onUnauthorized: () => {
      authStore.clear();
      saveRedirectAfterLogin(location.pathname + location.search);
      void navigate('/guest-login', { replace: true });
    },
    onSignedOut: () => {
      // a guest carried into an account in another tab ends this tab's guest session: the account goes on
      const stored = readValidSession();
      if (stored && stored.token !== options.token) return window.location.reload();
      // a guest ends only by signing in, perhaps in another tab this moment: what that tab stores stays
      if (authStore.get()?.user.provider === 'guest') return void navigate('/login', { replace: true });
      // /logout forgets the account here (its token, its rooms mirror, its balance), then the sign-in page
      void navigate('/logout', { replace: true });
    },
    onJoinFailed: (error) => {
      const missing = error instanceof ApiError && error.code === 'room_not_found';
      setJoinProblem({
        room: routeRoom && routeRoom !== NEW_ROOM ? routeRoom : null,
        reason: missing ? undefined : requestErrorText(getLanguage(), error),
      });
    },
  });
  return { connection, joinProblem };
}
