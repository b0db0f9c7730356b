import { readFileSync } from 'node:fs';
import type { EnginePage } from './driver.js';

/*
 * Speech into an engine that cannot be handed a file as its microphone. Firefox's fake microphone and
 * WebKit's mock one play a steady tone, which the server's voice check rightly refuses ("No speech
 * detected"): a tone has no quiet floor for a voice to stand above. So the page's getUserMedia still opens
 * the engine's own fake device (permission, constraints and all, and stops it with the stream), and the
 * stream it returns carries the spoken fixture, played by the page's own Web Audio. Everything after
 * that, the worklet, the Opus encoder, the streaming to the server, is the product's, unchanged.
 */

/** Runs in the page: getUserMedia's streams speak `wav` (base64), looped, as Chromium's file does. */
function speakFixture(wav: string) {
  const bytes = Uint8Array.from(atob(wav), (c) => c.charCodeAt(0));
  const open = MediaDevices.prototype.getUserMedia;
  MediaDevices.prototype.getUserMedia = async function (constraints) {
    const device = await open.call(this, constraints);
    const context = new AudioContext();
    await context.resume();
    const source = context.createBufferSource();
    source.buffer = await context.decodeAudioData(bytes.buffer.slice(0));
    source.loop = true;
    const out = context.createMediaStreamDestination();
    source.connect(out);
    source.start();
    const [track] = out.stream.getAudioTracks();
    const stop = track!.stop.bind(track);
    track!.stop = () => {
      stop();
      for (const deviceTrack of device.getTracks()) deviceTrack.stop();
      void context.close();
    };
    return out.stream;
  };
  return true;
}

/** From now on this page's microphone speaks the WAV file at `path` (Chromium: use its own file switch). */
export async function speakInto(page: EnginePage, path: string): Promise<void> {
  await page.evaluate(speakFixture, readFileSync(path).toString('base64'));
}
