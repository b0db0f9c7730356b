import { cn } from '#web/lib/cn';
import { useI18n } from '#web/lib/i18n';
import type { RecorderState } from '../utils/recorder-machine';
import { MicButton } from './mic-button';
import { RecordingTimer } from './recording-timer';
import { Visualiser } from './visualiser';

export interface VoiceControlsProps {
  state: RecorderState;
  elapsedSeconds: number;
  analyser?: AnalyserNode;
  onTap: () => void;
  disabled?: boolean;
}

/** The voice part of the bottom bar: mic button, recording timer and frequency bars. */
export function VoiceControls({ state, elapsedSeconds, analyser, onTap, disabled }: VoiceControlsProps) {
  const { t } = useI18n();
  const recording = state === 'recording';
  return (
    <div className="flex shrink-0 items-center gap-2">
      <MicButton state={state} onTap={onTap} disabled={disabled} />
      <div
        className={cn(
          'items-center gap-2 rounded-full px-2.5 py-1.5 transition-colors',
          recording
            ? 'flex bg-rose-50 ring-1 ring-rose-200 dark:bg-rose-950/40 dark:ring-rose-900'
            : 'hidden sm:flex',
        )}
      >
        <RecordingTimer seconds={elapsedSeconds} active={recording} />
        <Visualiser analyser={analyser} label={t('voice.visualiser')} />
      </div>
    </div>
  );
}
