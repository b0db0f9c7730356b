import { Mic, Square } from 'lucide-react';
import { Spinner } from '#web/components/ui/spinner';
import { cn } from '#web/lib/cn';
import { useI18n } from '#web/lib/i18n';
import type { RecorderState } from '../utils/recorder-machine';

export interface MicButtonProps {
  state: RecorderState;
  onTap: () => void;
  /** No room to send a clip to (a recording could only be lost). */
  disabled?: boolean;
}

/** Tap to record, tap again to send; a tap while the microphone starts gives up the start. */
export function MicButton({ state, onTap, disabled = false }: MicButtonProps) {
  const { t } = useI18n();
  const recording = state === 'recording';
  const busy = state === 'initialising' || state === 'stopping';
  const initialising = state === 'initialising';
  const label = recording ? t('voice.stop') : initialising ? t('voice.cancelStart') : t('voice.record');
  return (
    <button
      type="button"
      data-testid="mic-button"
      data-state={state}
      aria-pressed={recording}
      aria-label={label}
      title={label}
      disabled={state === 'stopping' || (disabled && !recording && !initialising)}
      onClick={onTap}
      className={cn(
        'relative inline-flex size-11 shrink-0 cursor-pointer items-center justify-center rounded-full text-white shadow-sm transition-colors focus-visible:ring-2 focus-visible:ring-offset-2 focus-visible:outline-none disabled:cursor-wait dark:focus-visible:ring-offset-slate-900',
        recording
          ? 'bg-rose-600 hover:bg-rose-500 focus-visible:ring-rose-400'
          : 'bg-indigo-600 hover:bg-indigo-500 focus-visible:ring-indigo-400 dark:bg-indigo-500 dark:hover:bg-indigo-400',
        busy && 'opacity-70',
        disabled && !busy && !recording && 'cursor-not-allowed opacity-40',
      )}
    >
      {recording && (
        <span
          aria-hidden="true"
          className="absolute inset-0 animate-ping rounded-full bg-rose-500/40 motion-reduce:hidden"
        />
      )}
      {busy ? (
        <Spinner className="size-5" />
      ) : recording ? (
        <Square className="relative size-4 fill-current" aria-hidden="true" />
      ) : (
        <Mic className="size-5" aria-hidden="true" />
      )}
    </button>
  );
}
