import type { ClientFrame, User } from '@xtalk/protocol';
import { useState } from 'react';
import { lazyDialog } from '#web/components/ui/lazy-dialog';
import type { useMicrophones } from '#web/features/voice/hooks/use-microphones';
import { authStore } from '#web/lib/auth-session';

/* The room screen's dialogs: the microphone, another room, past rooms and the profile. */

// Loaded when first opened (decision 0084): none is open when the room screen loads.
const MicPickerDialog = lazyDialog(
  async () => (await import('#web/features/voice/components/mic-picker-dialog')).MicPickerDialog,
);
const JoinRoomDialog = lazyDialog(
  async () => (await import('#web/features/room/components/join-room-dialog')).JoinRoomDialog,
);
const PastRoomsDialog = lazyDialog(
  async () => (await import('#web/features/history/components/past-rooms-dialog')).PastRoomsDialog,
);
const ProfileDialog = lazyDialog(
  async () => (await import('#web/features/settings/components/profile-dialog')).ProfileDialog,
);

/** Which of the dialogs is open; each opens and closes on its own. */
export function useRoomDialogs() {
  const [micPickerOpen, setMicPickerOpen] = useState(false);
  const [joinOpen, setJoinOpen] = useState(false);
  const [pastRoomsOpen, setPastRoomsOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);
  return {
    micPickerOpen,
    setMicPickerOpen,
    joinOpen,
    setJoinOpen,
    pastRoomsOpen,
    setPastRoomsOpen,
    profileOpen,
    setProfileOpen,
  };
}

export interface RoomDialogsProps {
  dialogs: ReturnType<typeof useRoomDialogs>;
  session: { token: string; user: User };
  isGuest: boolean;
  roomId: string | null;
  microphones: ReturnType<typeof useMicrophones>;
  /** A room's code, from the join dialog or a past room. */
  onJoin: (code: string) => void;
  onLogin: () => void;
  /** Signs this device out (after "Sign out everywhere" ended every session on the server). */
  onLogout: () => void;
  /** Tells the room (usernameUpdate); false when not connected. */
  send: (frame: ClientFrame) => boolean;
}

export function RoomDialogs({
  dialogs,
  session,
  isGuest,
  roomId,
  microphones,
  onJoin,
  onLogin,
  onLogout,
  send,
}: RoomDialogsProps) {
  // The profile is saved; the session carries the new name and the room is told (usernameUpdate).
  const onProfileSaved = (user: User) => {
    const renamed =
      user.username !== session.user.username || user.displayUsername !== session.user.displayUsername;
    authStore.set({ token: session.token, user });
    if (renamed) {
      send({
        type: 'updateUsername',
        username: user.username,
        displayUsername: user.displayUsername,
      });
    }
  };
  return (
    <>
      <MicPickerDialog
        open={dialogs.micPickerOpen}
        onClose={() => dialogs.setMicPickerOpen(false)}
        devices={microphones.devices}
        selected={microphones.selected}
        onChoose={microphones.choose}
        onOpen={() => void microphones.refresh()}
      />
      <JoinRoomDialog
        open={dialogs.joinOpen}
        currentRoom={roomId}
        onClose={() => dialogs.setJoinOpen(false)}
        onJoin={onJoin}
      />
      <PastRoomsDialog
        open={dialogs.pastRoomsOpen}
        onClose={() => dialogs.setPastRoomsOpen(false)}
        token={session.token}
        isGuest={isGuest}
        currentRoom={roomId}
        onRejoin={onJoin}
        onLogin={onLogin}
      />
      <ProfileDialog
        open={dialogs.profileOpen}
        onClose={() => dialogs.setProfileOpen(false)}
        token={session.token}
        user={session.user}
        onSaved={onProfileSaved}
        onLogin={onLogin}
        onSignedOutEverywhere={onLogout}
      />
    </>
  );
}
