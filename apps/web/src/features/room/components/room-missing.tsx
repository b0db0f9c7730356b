import { DoorOpen, Plus, SearchX } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { useI18n } from '#web/lib/i18n';

export interface RoomMissingProps {
  /** The code of the link, when there was one. */
  room: string | null;
  /** The worded reason, when it was not simply "no such room". */
  reason?: string | undefined;
  onCreate: () => void;
  onJoinAnother: () => void;
}

/**
 * A room link that leads nowhere: said plainly, with the two ways on. Nothing is created
 * until the person asks for it.
 */
export function RoomMissing({ room, reason, onCreate, onJoinAnother }: RoomMissingProps) {
  const { t } = useI18n();
  return (
    <section
      data-testid="room-missing"
      aria-labelledby="room-missing-title"
      className="mx-auto flex w-full max-w-md flex-1 flex-col items-center justify-center gap-4 px-6 py-10 text-center"
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200">
        <SearchX className="size-7" aria-hidden="true" />
      </span>
      <h1
        id="room-missing-title"
        role="alert"
        className="text-xl font-semibold text-slate-900 dark:text-white"
      >
        {room ? t('room.notFoundTitle', { room }) : t('errors.http.room_not_found')}
      </h1>
      <p className="text-sm text-slate-600 dark:text-slate-300">{reason ?? t('room.notFoundBody')}</p>
      <div className="mt-2 flex flex-wrap justify-center gap-2">
        <Button onClick={onCreate} data-testid="room-missing-create">
          <Plus className="size-4" aria-hidden="true" />
          {t('room.notFoundCreate')}
        </Button>
        <Button variant="outline" onClick={onJoinAnother} data-testid="room-missing-join">
          <DoorOpen className="size-4" aria-hidden="true" />
          {t('room.notFoundJoin')}
        </Button>
      </div>
    </section>
  );
}
