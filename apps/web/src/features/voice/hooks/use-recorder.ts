import { useCallback, useEffect, useRef, useState } from 'react';
import { toast, words } from '#web/lib/toast';
import { useI18n } from '#web/lib/i18n';
import { startOpusCapture, type OpusCapture, type VoiceSink } from '../utils/opus-capture';
import {
  createRecorder,
  type Recorder,
  type RecorderProblem,
  type RecorderSnapshot,
} from '../utils/recorder-machine';
import type { RecorderClock } from '../utils/recording-clock';

export interface UseRecorderOptions {
  /** The chosen microphone (undefined: the default one). */
  deviceId?: string;
  /** Starting a recording stops playing audio. */
  onBeforeStart?: () => void;
  /**
   * A finished clip: Ogg/Opus bytes, to be sent as one binary frame; `streamed` when its pages already went
   * out while recording (voiceStart ... voiceEnd) and nothing is left to send.
   */
  onClip: (clip: Uint8Array, durationMs: number, streamed: boolean) => void;
  /** Streaming voice (protocol 3): opens the stream for a recording; undefined sends whole clips. */
  openStream?: () => VoiceSink | undefined;
  clock?: RecorderClock;
}

const MIC_ERROR_TOAST = 'mic-error';

/** The mic button's behaviour in React: the recorder state machine over the browser's Opus capture. */
export function useRecorder(options: UseRecorderOptions) {
  const { t } = useI18n();
  const [snapshot, setSnapshot] = useState<RecorderSnapshot>({ state: 'idle', elapsedSeconds: 0 });
  const [analyser, setAnalyser] = useState<AnalyserNode | undefined>(undefined);
  const latest = useRef({ options, t });
  useEffect(() => {
    latest.current = { options, t };
  });
  const recorderRef = useRef<Recorder | null>(null);

  useEffect(() => {
    const recorder = createRecorder({
      clock: latest.current.options.clock,
      start: async ({ signal, microphoneOpen }) => {
        const { deviceId, openStream } = latest.current.options;
        const capture: OpusCapture = await startOpusCapture({
          deviceId,
          signal,
          onMicrophoneOpen: microphoneOpen,
          ...(openStream ? { openStream: () => latest.current.options.openStream?.() } : {}),
        });
        toast.dismiss(MIC_ERROR_TOAST);
        setAnalyser(capture.analyser);
        return capture;
      },
      onBeforeStart: () => latest.current.options.onBeforeStart?.(),
      onClip: (clip, durationMs) =>
        latest.current.options.onClip(clip, durationMs, (clip as { streamed?: boolean }).streamed === true),
      onProblem: (problem: RecorderProblem) => {
        if (problem.kind === 'tooShort') toast(words('voice.tooShort'));
        else if (problem.kind === 'empty') toast.error(words('voice.empty'));
        else if (problem.kind === 'engineTimeout')
          toast.error(words('voice.engineTimeout'), { id: MIC_ERROR_TOAST, duration: Infinity });
        else if (problem.kind === 'noAudioContext')
          toast.error(words('voice.noAudioContext'), { id: MIC_ERROR_TOAST, duration: Infinity });
        // a persistent toast, dismissed once the microphone next starts
        else
          toast.error(words('voice.micError', { message: problem.message }), {
            id: MIC_ERROR_TOAST,
            duration: Infinity,
          });
      },
      onChange: (next) => {
        setSnapshot(next);
        if (next.state === 'idle') setAnalyser(undefined);
      },
    });
    recorderRef.current = recorder;
    return () => {
      recorder.dispose();
      recorderRef.current = null;
    };
  }, []);

  const tap = useCallback(() => recorderRef.current?.tap(), []);
  const stop = useCallback(() => recorderRef.current?.stop(), []);

  return { ...snapshot, analyser, tap, stop };
}
