import { Volume2, VolumeX } from 'lucide-react';
import { HeaderButton } from '#web/components/ui/header-button';
import { useI18n } from '#web/lib/i18n';

/** Its test id; the tap that unlocks audio on it only unlocks (use-audio-playback.ts). */
export const SPEECH_TOGGLE = 'speech-toggle';

export interface SpeechButtonProps {
  muted: boolean;
  /** The page has not been tapped yet: the browser holds speech back. */
  locked: boolean;
  /** The message being spoken (0: a voice clip not yet a message). */
  speakingId: number | undefined;
  onToggle(event: { timeStamp: number }): void;
}

/** Mutes or unmutes spoken translations; says when speech waits for a first tap. */
export function SpeechButton({ muted, locked, speakingId, onToggle }: SpeechButtonProps) {
  const { t } = useI18n();
  const state = muted ? 'off' : locked ? 'waiting' : 'on';
  return (
    <HeaderButton
      onClick={onToggle}
      data-testid={SPEECH_TOGGLE}
      data-state={state}
      data-speaking={speakingId}
      className={state === 'waiting' ? 'text-amber-700! dark:text-amber-300!' : undefined}
      icon={
        muted ? <VolumeX /> : <Volume2 className={speakingId === undefined ? undefined : 'animate-pulse'} />
      }
      label={t(`speech.${state}`)}
    />
  );
}
