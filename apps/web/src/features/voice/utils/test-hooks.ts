/*
 * Browser tests cannot hear: with `localStorage['xtalk:test-hooks'] = '1'` the player reports on `window`:
 * `__xtalkAudioReceived` (spoken translations accepted), `__xtalkSpeech` (every `speech` frame, muted or
 * not), `__xtalkAudioStarted` (clips that began to sound), `__xtalkAudioPlaying` (clips sounding now) and
 * `__xtalkBrowserVoice` (every `noServerVoice` frame, muted or not).
 * Without the flag nothing is exposed.
 */

interface Hooks {
  __xtalkAudioReceived?: number;
  __xtalkSpeech?: Array<{ id: number; seq: number; last: boolean }>;
  __xtalkAudioStarted?: number;
  __xtalkAudioPlaying?: number;
  __xtalkBrowserVoice?: Array<{ id: number; language: string }>;
}

function hooks(): Hooks | undefined {
  try {
    return localStorage.getItem('xtalk:test-hooks') === '1' ? (window as unknown as Hooks) : undefined;
  } catch {
    return undefined; // storage unavailable: no hooks
  }
}

export function countReceived(): void {
  const target = hooks();
  if (target) target.__xtalkAudioReceived = (target.__xtalkAudioReceived ?? 0) + 1;
}

export function recordSpeech(frame: { id: number; seq: number; last: boolean }): void {
  const target = hooks();
  if (target) (target.__xtalkSpeech ??= []).push({ id: frame.id, seq: frame.seq, last: frame.last });
}

export function recordBrowserVoice(frame: { id: number; language: string }): void {
  const target = hooks();
  if (target) (target.__xtalkBrowserVoice ??= []).push({ id: frame.id, language: frame.language });
}

/** A clip began (+1) or stopped (-1) sounding. */
export function countPlaying(change: 1 | -1): void {
  const target = hooks();
  if (!target) return;
  target.__xtalkAudioPlaying = (target.__xtalkAudioPlaying ?? 0) + change;
  if (change === 1) target.__xtalkAudioStarted = (target.__xtalkAudioStarted ?? 0) + 1;
}
