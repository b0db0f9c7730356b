import { useI18n } from '#web/lib/i18n';

/** The room code in the header; clicking it opens Past Rooms. */
export function RoomIdButton({ roomId, onClick }: { roomId: string | null; onClick: () => void }) {
  const { t } = useI18n();
  return (
    <button
      type="button"
      onClick={onClick}
      title={t('room.pastRooms')}
      aria-haspopup="dialog"
      data-testid="room-id-button"
      className="group flex min-w-0 cursor-pointer flex-col items-start rounded-xl px-2 py-1 text-left hover:bg-slate-100 dark:hover:bg-slate-800"
    >
      <span className="text-[10px] font-semibold tracking-widest text-slate-500 uppercase dark:text-slate-400">
        {t('room.roomLabel')}
      </span>
      <span
        data-testid="room-id"
        className="font-mono text-sm font-bold tracking-wider text-slate-900 dark:text-white"
      >
        {roomId ?? '·······'}
      </span>
    </button>
  );
}
