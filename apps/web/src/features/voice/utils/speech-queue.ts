import type { PlayHandle } from './audio-queue';
import type { SpokenText } from './browser-voice';

/*
 * Spoken translations as the server sends them (protocol 6): sentence `seq` of message `id` (or, while a
 * voice clip is still spoken, of `clipId`). One message plays at a time, its sentences in `seq` order,
 * each as soon as the one before it ends, so there is no gap but the engine's; then the next message,
 * the earliest sent first (message ids grow with time; a clip not yet a message is the newest). A message
 * that starts again from `seq` 0 was corrected: what was left of it is dropped and the new text plays.
 * Muted, nothing is kept; locked (the page not yet tapped), sentences wait. A translation the server has
 * no voice for is one sentence whose "clip" is its text, which the player hands to the browser's voice.
 */

/** A server sentence's audio, or a text the browser speaks. */
export type SpeechClip = Blob | SpokenText;
export type SpeechPlayer = (clip: SpeechClip) => PlayHandle;

export interface SpeechMeta {
  id: number;
  seq: number;
  last: boolean;
  clipId?: string | undefined;
}

interface Utterance {
  key: string;
  id: number;
  arrival: number;
  next: number;
  /** Its seq 0 came: another seq 0 is a corrected text. */
  begun: boolean;
  lastSeq: number | undefined;
  sentences: Map<number, SpeechClip>;
}

/** A message whose next sentence does not come in this long is given up, so later ones can play. */
export const STALL_MS = 15_000;

const keyOf = (meta: { id: number; clipId?: string | undefined }) =>
  meta.clipId ? `c:${meta.clipId}` : `m:${meta.id}`;
/** Earliest sent first: by message id; a clip without its message yet after every message. */
const rank = (u: Utterance) => (u.id === 0 ? Number.MAX_SAFE_INTEGER : u.id);

export class SpeechQueue {
  private readonly utterances = new Map<string, Utterance>();
  private current: Utterance | undefined;
  private playing: PlayHandle | undefined;
  private arrivals = 0;
  private stall: ReturnType<typeof setTimeout> | undefined;
  muted: boolean;
  locked: boolean;

  constructor(
    private readonly player: SpeechPlayer,
    /** The message being spoken changed (undefined: none; 0: a clip not yet a message). */
    private readonly onSpeaking: (id: number | undefined) => void,
    private readonly onError: (error: unknown) => void,
    state: { muted: boolean; locked: boolean } = { muted: false, locked: true },
  ) {
    this.muted = state.muted;
    this.locked = state.locked;
  }

  add(meta: SpeechMeta, clip: SpeechClip): void {
    if (this.muted) return;
    let utterance = this.utterances.get(keyOf(meta));
    // seq 0 again: the text was corrected and is spoken anew
    if (utterance && meta.seq === 0 && utterance.begun) {
      this.drop(utterance);
      utterance = undefined;
    }
    if (!utterance) {
      utterance = {
        key: keyOf(meta),
        id: 0,
        arrival: this.arrivals++,
        next: 0,
        begun: false,
        lastSeq: undefined,
        sentences: new Map(),
      };
      this.utterances.set(utterance.key, utterance);
    }
    const known = utterance.id;
    utterance.id = Math.max(utterance.id, meta.id);
    utterance.sentences.set(meta.seq, clip);
    if (meta.seq === 0) utterance.begun = true;
    if (meta.last) utterance.lastSeq = meta.seq;
    // a clip's sentences now belong to its message
    if (utterance === this.current && utterance.id !== known) this.announce();
    this.pump();
  }

  /** Message `id` was corrected: what is left of its old text is not spoken. */
  corrected(id: number): void {
    for (const utterance of this.utterances.values()) if (utterance.id === id) this.drop(utterance);
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
    if (muted) this.stop();
  }

  unlock(): void {
    this.locked = false;
    this.pump();
  }

  /** Nothing plays and nothing waits. */
  stop(): void {
    this.utterances.clear();
    this.halt();
  }

  private drop(utterance: Utterance): void {
    this.utterances.delete(utterance.key);
    if (utterance !== this.current) return;
    this.halt();
    this.pump();
  }

  /** The message being spoken stops here. */
  private halt(): void {
    const playing = this.playing;
    this.current = undefined;
    this.playing = undefined;
    clearTimeout(this.stall);
    playing?.stop();
    this.announce();
  }

  private announce(): void {
    this.onSpeaking(this.current?.id);
  }

  private pump(): void {
    if (this.playing || this.muted || this.locked) return;
    if (!this.current) {
      this.current = [...this.utterances.values()].sort(
        (a, b) => rank(a) - rank(b) || a.arrival - b.arrival,
      )[0];
      if (!this.current) return;
      this.announce();
    }
    const utterance = this.current;
    const clip = utterance.sentences.get(utterance.next);
    clearTimeout(this.stall);
    if (!clip) {
      this.stall = setTimeout(() => this.drop(utterance), STALL_MS);
      return;
    }
    utterance.sentences.delete(utterance.next);
    let handle: PlayHandle;
    try {
      handle = this.player(clip);
    } catch (error) {
      this.onError(error);
      this.advance(utterance);
      return;
    }
    this.playing = handle;
    handle.done.then(
      () => this.ended(handle, utterance),
      (error: unknown) => {
        if (this.playing === handle) this.onError(error);
        this.ended(handle, utterance);
      },
    );
  }

  private ended(handle: PlayHandle, utterance: Utterance): void {
    if (this.playing !== handle) return; // stopped, dropped or muted meanwhile
    this.playing = undefined;
    this.advance(utterance);
  }

  private advance(utterance: Utterance): void {
    utterance.next += 1;
    if (utterance.lastSeq !== undefined && utterance.next > utterance.lastSeq) this.drop(utterance);
    else this.pump();
  }
}
