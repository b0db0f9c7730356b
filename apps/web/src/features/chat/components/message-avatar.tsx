import { avatarColours } from '@xtalk/protocol';

function initials(name: string): string {
  const capitals = name.match(/[A-Z]/g);
  return (capitals && capitals.length >= 2 ? capitals.slice(0, 2).join('') : name.slice(0, 2)).toUpperCase();
}

/**
 * The author's initials on their colour; the name beside it says who it is, so it is hidden from readers.
 * A deleted author has none: an empty grey circle keeps the column.
 */
export function MessageAvatar({
  username,
  displayUsername,
  isMe,
  deleted,
}: {
  username: string;
  displayUsername: string;
  isMe: boolean;
  deleted?: true | undefined;
}) {
  if (deleted) {
    return (
      <div
        aria-hidden="true"
        className="mt-5 size-9 shrink-0 rounded-full bg-slate-200 dark:bg-slate-700"
        data-testid="deleted-avatar"
      />
    );
  }
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
