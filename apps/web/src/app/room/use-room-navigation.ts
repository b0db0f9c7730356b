import { NEW_ROOM } from '@xtalk/protocol';
import { useLocation, useNavigate } from '#web/lib/router';
import { saveRedirectAfterLogin } from '#web/lib/storage';

/** Where the room screen goes: to sign in and back, to another room, to a new one, out. */
export function useRoomNavigation(isCurrentRoom: (code: string) => boolean) {
  const navigate = useNavigate();
  const location = useLocation();
  return {
    // Signing in comes back here: a guest who signs in keeps their room (docs/product.md#people).
    goLogin: () => {
      saveRedirectAfterLogin(location.pathname + location.search);
      void navigate('/login');
    },
    /** The room of `code`; nothing but a toast when it is the room we are in. */
    joinRoom: (code: string) => {
      if (isCurrentRoom(code)) return;
      void navigate(`/translate?r=${encodeURIComponent(code)}`);
    },
    createRoom: () => navigate(`/translate?r=${NEW_ROOM}`),
    logout: () => void navigate('/logout'),
  };
}
