import { sharedAudioContext } from '#web/lib/audio-context';

/** Two soft notes, a fifth apart, as a chat's "new message" sound: quiet and over in under half a second. */
const NOTES = [
  { hz: 880, at: 0 },
  { hz: 1318.5, at: 0.09 },
];
const PEAK_GAIN = 0.06;
const ATTACK_S = 0.008;
const DECAY_S = 0.32;

/** The message chime, synthesised (no audio file to fetch): each note a sine with a short envelope. */
export function playChime(): void {
  const context = sharedAudioContext();
  if (!context) return;
  const start = context.currentTime + 0.01;
  for (const note of NOTES) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    const at = start + note.at;
    oscillator.type = 'sine';
    oscillator.frequency.setValueAtTime(note.hz, at);
    gain.gain.setValueAtTime(0, at);
    gain.gain.linearRampToValueAtTime(PEAK_GAIN, at + ATTACK_S);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + ATTACK_S + DECAY_S);
    oscillator.connect(gain).connect(context.destination);
    oscillator.onended = () => gain.disconnect();
    oscillator.start(at);
    oscillator.stop(at + ATTACK_S + DECAY_S + 0.02);
  }
}
