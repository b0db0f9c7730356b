import { avatarColours } from '@xtalk/protocol';

function initials(name: string): string {
  const capitals = name.match(/[A-Z]/g);
  return (capitals && capitals.length >= 2 ? capitals.slice(0, 2).join('') : name.slice(0, 2)).toUpperCase();
}

/** The author's initials on their colour; the name beside it says who it is, so it is hidden from readers. */
export function MessageAvatar({
  username,
  displayUsername,
  isMe,
}: {
  username: string;
  displayUsername: string;
  isMe: boolean;
}) {
  const avatar = avatarColours(username, isMe);
  return (
    <div
      aria-hidden="true"
      className="mt-5 flex size-9 shrink-0 items-center justify-center rounded-full text-xs font-bold shadow-sm"
      style={{ backgroundColor: avatar.background, color: avatar.text }}
    >
      {initials(displayUsername)}
    </div>
  );
}
