import type { RoomHistoryEntry } from '@xtalk/protocol';
import { History, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { GuestLoginPrompt } from '#web/components/guest-login-prompt';
import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';
import { Spinner } from '#web/components/ui/spinner';
import { cn } from '#web/lib/cn';
import { requestErrorText } from '#web/lib/error-text';
import { getLanguage, useI18n } from '#web/lib/i18n';
import { localeFor } from '#web/lib/time';
import { clearRoomHistory } from '../api/history-api';
import { useRoomHistory } from '../hooks/use-room-history';

export interface PastRoomsDialogProps {
  open: boolean;
  onClose: () => void;
  token: string;
  isGuest: boolean;
  currentRoom: string | null;
  onRejoin: (roomId: string) => void;
  onLogin: () => void;
}

/**
 * Past Rooms (docs/product.md#dialogs): up to 20 rooms by last update, each with its code and when it was
 * joined, Rejoin (or a disabled "You're here" for the current room) and Clear History. Guests see a faded
 * list under 'Login to view room history.' (guests keep no history, docs/product.md#people).
 */
export function PastRoomsDialog(props: PastRoomsDialogProps) {
  const { t } = useI18n();
  if (!props.open) return null;
  return (
    <Dialog
      open
      onClose={props.onClose}
      title={t('room.pastRooms')}
      closeLabel={t('common.close')}
      testId="past-rooms"
      className="max-w-lg"
    >
      {props.isGuest ? <GuestHistory onLogin={props.onLogin} /> : <MemberHistory {...props} />}
    </Dialog>
  );
}

function useJoinedFormat() {
  const { language } = useI18n();
  const format = new Intl.DateTimeFormat(localeFor(language), {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (ms: number) => format.format(new Date(ms));
}

function RoomRow({
  room,
  isCurrent,
  onRejoin,
  sample = false,
}: {
  room: RoomHistoryEntry;
  isCurrent: boolean;
  onRejoin?: (roomId: string) => void;
  /** A placeholder row (guests): no test ids, nothing to press. */
  sample?: boolean;
}) {
  const { t } = useI18n();
  const formatDate = useJoinedFormat();
  return (
    <li
      data-testid={sample ? undefined : 'past-room'}
      data-room-id={sample ? undefined : room.roomId}
      className={cn(
        'flex items-center gap-3 rounded-2xl border px-4 py-3',
        isCurrent
          ? 'border-indigo-200 bg-indigo-50/70 dark:border-indigo-900 dark:bg-indigo-950/40'
          : 'border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900',
      )}
    >
      <div className="min-w-0 flex-1">
        <p className="font-mono text-base font-bold tracking-wider text-slate-900 dark:text-white">
          {room.roomId}
        </p>
        <p className="truncate text-xs text-slate-500 dark:text-slate-400" title={formatDate(room.added)}>
          {t('history.joined', { date: formatDate(room.updated) })}
        </p>
      </div>
      {isCurrent ? (
        <Button size="sm" variant="secondary" disabled data-testid="current-room">
          {t('history.here')}
        </Button>
      ) : (
        <Button
          size="sm"
          variant="outline"
          onClick={() => onRejoin?.(room.roomId)}
          data-testid={sample ? undefined : 'rejoin-button'}
        >
          {t('history.rejoin')}
        </Button>
      )}
    </li>
  );
}

function MemberHistory({ token, currentRoom, onRejoin, onClose }: PastRoomsDialogProps) {
  const { t } = useI18n();
  const { rooms, setRooms, load, retry } = useRoomHistory(token);
  const [clearing, setClearing] = useState(false);

  const clear = async () => {
    if (!window.confirm(t('history.clearConfirm'))) return;
    setClearing(true);
    try {
      await clearRoomHistory(token);
      setRooms([]);
    } catch (error) {
      window.alert(requestErrorText(getLanguage(), error));
    } finally {
      setClearing(false);
    }
  };

  const rejoin = (roomId: string) => {
    onClose();
    onRejoin(roomId);
  };

  const empty = rooms.length === 0;
  return (
    <div className="flex flex-col gap-4">
      {load.state === 'failed' && (
        <div
          role="alert"
          className="flex items-center justify-between gap-3 rounded-xl bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:bg-rose-950/50 dark:text-rose-200"
        >
          <span>{t('history.loadFailed')}</span>
          <Button size="sm" variant="ghost" onClick={retry}>
            <RotateCcw className="size-4" aria-hidden="true" />
            {t('history.retry')}
          </Button>
        </div>
      )}
      {empty && load.state === 'loading' ? (
        <div className="flex justify-center py-10" aria-busy="true">
          <Spinner className="size-7 text-indigo-600" />
        </div>
      ) : empty ? (
        <NoRoomsYet />
      ) : (
        <ul
          className="-mx-1 flex max-h-[55vh] flex-col gap-2 overflow-y-auto px-1"
          aria-busy={load.state === 'loading' || undefined}
        >
          {rooms.map((room) => (
            <RoomRow
              key={room.roomId}
              room={room}
              isCurrent={room.roomId === currentRoom}
              onRejoin={rejoin}
            />
          ))}
        </ul>
      )}
      <div className="flex items-center justify-between gap-2">
        {/* Button's variants set their own text colour (no class merging): a plain button in rose */}
        <button
          type="button"
          onClick={() => void clear()}
          disabled={empty || clearing}
          data-testid="clear-history"
          className="inline-flex h-10 cursor-pointer items-center gap-2 rounded-full px-4 text-sm font-medium text-rose-600 transition-colors hover:bg-rose-50 focus-visible:ring-2 focus-visible:ring-rose-500 focus-visible:outline-none disabled:pointer-events-none disabled:opacity-50 dark:text-rose-400 dark:hover:bg-rose-950/50"
        >
          {clearing ? <Spinner className="size-4" /> : <Trash2 className="size-4" aria-hidden="true" />}
          {t('history.clear')}
        </button>
        <Button variant="secondary" onClick={onClose}>
          {t('common.close')}
        </Button>
      </div>
    </div>
  );
}

/**
 * What guests see behind the prompt: clearly an illustration of the feature (grey bars
 * standing for a code and a date), never invented rooms or dates that read as real history.
 */
function SampleRow() {
  const { t } = useI18n();
  return (
    <li className="flex items-center gap-3 rounded-2xl border border-dashed border-slate-300 px-4 py-3 dark:border-slate-700">
      <div className="min-w-0 flex-1 space-y-2">
        <p className="flex items-center gap-2 text-xs text-slate-500 dark:text-slate-400">
          <span className="h-3.5 w-24 rounded-full bg-slate-200 dark:bg-slate-700" />
          {t('history.sampleRoom')}
        </p>
        <p className="flex items-center gap-2 text-xs text-slate-500 dark:text-slate-400">
          <span className="h-2.5 w-32 rounded-full bg-slate-200 dark:bg-slate-700" />
          {t('history.sampleDate')}
        </p>
      </div>
      <span className="h-8 w-16 rounded-full bg-slate-200 dark:bg-slate-700" />
    </li>
  );
}

function GuestHistory({ onLogin }: { onLogin: () => void }) {
  const { t } = useI18n();
  return (
    <div className="relative" data-testid="past-rooms-guest">
      <figure aria-label={t('history.sampleLabel')} data-testid="past-rooms-sample">
        <ul
          aria-hidden="true"
          inert
          className="pointer-events-none flex flex-col gap-2 opacity-60 select-none"
        >
          <SampleRow />
          <SampleRow />
          <SampleRow />
        </ul>
      </figure>
      <GuestLoginPrompt prompt={t('history.guestPrompt')} onLogin={onLogin} loginTestId="past-rooms-login" />
    </div>
  );
}

/** What an empty history says: no rooms yet, and where they will come from. */
function NoRoomsYet() {
  const { t } = useI18n();
  return (
    <div data-testid="past-rooms-empty" className="flex flex-col items-center gap-2 py-8 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
        <History className="size-6" aria-hidden="true" />
      </span>
      <p className="font-semibold text-slate-900 dark:text-white">{t('history.emptyTitle')}</p>
      <p className="text-sm text-slate-500 dark:text-slate-400">{t('history.emptyBody')}</p>
    </div>
  );
}
