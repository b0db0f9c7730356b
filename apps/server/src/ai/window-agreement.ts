import { endsSentence, type TranscriptUpdate } from './transcription-stream.js';

/*
 * The commit policy of a sliding-window transcriber (local Whisper): LocalAgreement-2 of
 * whisper_streaming (Macháček et al., 2023) at segment level. Each pass hears only the window, the audio
 * after the last committed point; its hypothesis is a list of timed segments. A segment is committed once
 * two passes in a row agree on it (same text at the same place after the window start) and something
 * follows it, and only up to a sentence end, so what is committed is always whole sentences (the voice
 * module translates each one at once). The window then starts where the committed audio ends.
 * A window that is full (no sentence end agreed on for its whole length) is cut anyway: all but its last
 * segment are frozen, kept as provisional text in front of the next passes' hypotheses and moved out of
 * the audio, so no pass ever hears more than the window's cap, however long the clip.
 */

/** One timed piece of a hypothesis; times in seconds from the start of the audio the pass heard. */
export interface WindowSegment {
  text: string;
  start: number;
  /** Null for a last segment the model did not close. */
  end: number | null;
}

export interface WindowStep {
  /** Seconds of audio to drop from the window's start (committed or frozen). */
  advance: number;
  update: TranscriptUpdate;
}

const same = (text: string) => text.trim().replace(/\s+/gu, ' ');

export class WindowAgreement {
  /** Committed text: whole sentences, exactly as the final transcript begins. */
  private committed = '';
  /** Text of audio cut out of a full window without a sentence end: shown, not yet committed. */
  private frozen = '';
  /** The last hypothesis's segments after the window start, for the next agreement. */
  private previous: string[] = [];

  /**
   * One pass's hypothesis of the window (`heard` seconds long; `full`: the window is at its cap, so it
   * must move whether or not anything is agreed).
   */
  accept(segments: WindowSegment[], heard: number, full: boolean): WindowStep {
    const said = segments.filter((segment) => segment.text.trim() !== '');
    let agree = 0;
    while (
      agree < said.length - 1 &&
      agree < this.previous.length &&
      same(said[agree]!.text) === this.previous[agree]
    ) {
      agree += 1;
    }
    // the last agreed segment that ends a sentence (counting the frozen text in front of it)
    let commit = -1;
    let text = this.frozen;
    for (let i = 0; i < agree; i += 1) {
      text += said[i]!.text;
      if (endsSentence(text) && endOf(said, i) !== undefined) commit = i;
    }
    let advance = 0;
    let rest = said;
    if (commit >= 0) {
      this.committed += this.take(said.slice(0, commit + 1));
      advance = endOf(said, commit)!;
      rest = said.slice(commit + 1);
    }
    if (full && advance === 0) {
      // nothing to commit in a full window: freeze all but the last segment (or all of a lone one)
      const cut = rest.length > 1 ? endOf(rest, rest.length - 2) : undefined;
      const keep = cut !== undefined && cut > 0 && cut < heard ? 1 : 0;
      const frozen = rest.slice(0, rest.length - keep);
      this.frozen += frozen.map((segment) => segment.text).join('');
      advance = keep === 1 ? cut! : heard;
      rest = rest.slice(rest.length - keep);
    }
    this.previous = rest.map((segment) => same(segment.text));
    return { advance: Math.min(Math.max(advance, 0), heard), update: this.update(rest) };
  }

  /** The final transcript: committed sentences, frozen text, then the last pass's hypothesis. */
  final(segments: WindowSegment[]): string {
    return `${this.committed}${this.frozen}${segments.map((segment) => segment.text).join('')}`.trim();
  }

  /** Frozen text and `segments` joined onto the committed text; the start of a transcript is trimmed. */
  private take(segments: WindowSegment[]): string {
    const text = `${this.frozen}${segments.map((segment) => segment.text).join('')}`;
    this.frozen = '';
    return this.committed === '' ? text.trimStart() : text;
  }

  private update(rest: WindowSegment[]): TranscriptUpdate {
    const tail = `${this.frozen}${rest.map((segment) => segment.text).join('')}`;
    const text = this.committed === '' ? tail.trimStart() : `${this.committed}${tail}`;
    return { text, committed: this.committed.length };
  }
}

/** Where segment `i` ends: its own end, else where the next one starts. */
function endOf(segments: WindowSegment[], i: number): number | undefined {
  const end = segments[i]?.end ?? segments[i + 1]?.start;
  return typeof end === 'number' && Number.isFinite(end) ? end : undefined;
}
