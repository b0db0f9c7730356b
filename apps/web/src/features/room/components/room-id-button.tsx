import { History } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useI18n } from '../../../lib/i18n';

/** The room code in the header; opens Past Rooms (the history list itself is not built yet). */
export function RoomIdButton({ roomId }: { roomId: string | null }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        title={t('room.pastRooms')}
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
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={t('room.pastRooms')}
        closeLabel={t('common.close')}
      >
        <div className="flex flex-col items-center gap-2 py-6 text-slate-500 dark:text-slate-400">
          <History className="size-8" aria-hidden="true" />
          <p>{t('room.pastRoomsSoon')}</p>
        </div>
        <div className="flex justify-end">
          <Button variant="secondary" onClick={() => setOpen(false)}>
            {t('common.close')}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
