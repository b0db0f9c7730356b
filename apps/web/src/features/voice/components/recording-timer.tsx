import { cn } from '#web/lib/cn';
import { formatTimer } from '../utils/recording-clock';

/** mm:ss since the recording started; 00:00 when idle. */
export function RecordingTimer({ seconds, active }: { seconds: number; active: boolean }) {
  return (
    <span
      data-testid="recording-timer"
      role="timer"
      aria-live="off"
      className={cn(
        'font-mono text-sm tabular-nums',
        active ? 'font-semibold text-rose-600 dark:text-rose-400' : 'text-slate-600 dark:text-slate-400',
      )}
    >
      {formatTimer(seconds)}
    </span>
  );
}
