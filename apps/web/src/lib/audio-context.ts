/*
 * The page's one AudioContext for sounds it makes itself (the message chime), made on first use: a page
 * may not start one before the person has tapped it, and each open context holds an audio output. A
 * recording makes its own (features/voice/utils/opus-capture.ts): it runs at the capture's rate and is
 * closed with it. Speech plays in <audio> elements and needs none (decision 0169).
 */

let context: AudioContext | undefined;

/** The context, resumed if the browser suspended it; undefined where there is no Web Audio. */
export function sharedAudioContext(): AudioContext | undefined {
  if (typeof globalThis.AudioContext !== 'function') return undefined;
  try {
    context ??= new AudioContext();
  } catch (error) {
    console.warn('[audio] no AudioContext', error);
    return undefined;
  }
  // Safari reports 'interrupted' after a call or the lock screen, the others 'suspended': both resume
  if (context.state !== 'running' && context.state !== 'closed') {
    context.resume().catch((error: unknown) => console.warn('[audio] resume refused', error));
  }
  return context;
}
