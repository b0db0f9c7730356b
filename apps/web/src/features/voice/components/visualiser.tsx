import { useEffect, useRef } from 'react';
import { cn } from '#web/lib/cn';

const BARS = 12;
const IDLE_SCALE = 0.12;

/**
 * Frequency bars from the live microphone input (an AnalyserNode): the low half of the spectrum, where a
 * voice is, spread over a few bars. Drawn straight into the DOM each animation frame, without re-rendering.
 */
export function Visualiser({ analyser, label }: { analyser?: AnalyserNode; label: string }) {
  const bars = useRef<(HTMLSpanElement | null)[]>([]);

  useEffect(() => {
    const set = (index: number, scale: number) => {
      const bar = bars.current[index];
      if (bar) bar.style.transform = `scaleY(${Math.max(IDLE_SCALE, Math.min(1, scale)).toFixed(3)})`;
    };
    if (!analyser) {
      for (let i = 0; i < BARS; i += 1) set(i, IDLE_SCALE);
      return;
    }
    const data = new Uint8Array(analyser.frequencyBinCount);
    const usable = Math.max(BARS, Math.floor(data.length * 0.6));
    let frame = 0;
    const draw = () => {
      analyser.getByteFrequencyData(data);
      for (let i = 0; i < BARS; i += 1) {
        const from = Math.floor((i * usable) / BARS);
        const to = Math.max(from + 1, Math.floor(((i + 1) * usable) / BARS));
        let sum = 0;
        for (let j = from; j < to; j += 1) sum += data[j] ?? 0;
        set(i, sum / (to - from) / 200);
      }
      frame = requestAnimationFrame(draw);
    };
    frame = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(frame);
  }, [analyser]);

  return (
    <span
      data-testid="visualiser"
      data-active={analyser ? 'true' : 'false'}
      role="img"
      aria-label={label}
      className="flex h-6 items-center gap-[3px]"
    >
      {Array.from({ length: BARS }, (_, index) => (
        <span
          key={index}
          ref={(element) => {
            bars.current[index] = element;
          }}
          className={cn(
            'h-full w-[3px] origin-center rounded-full transition-transform duration-75',
            analyser ? 'bg-rose-500 dark:bg-rose-400' : 'bg-slate-300 dark:bg-slate-600',
          )}
          style={{ transform: `scaleY(${IDLE_SCALE})` }}
        />
      ))}
    </span>
  );
}
