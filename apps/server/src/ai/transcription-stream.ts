/*
 * Streaming transcription: the clip's Ogg pages go in as they arrive, the text heard so far
 * comes out as it grows. `committed` is how much of that text (a prefix, whole sentences) the engine will
 * not change any more: the voice module translates each committed sentence at once, and the final
 * transcript starts with every committed sentence, so what was translated early is part of the message.
 */

/** What an engine heard in a clip. */
export interface Transcription {
  text: string;
  /** BCP 47 primary tag (en, ja, ...), detected or, failing that, the hint. */
  language: string;
}

export interface TranscriptUpdate {
  /** Everything heard so far: committed sentences, then the provisional rest. */
  text: string;
  /** Length (UTF-16 units) of the committed prefix of `text`; it only grows. */
  committed: number;
}

/** How an engine streams: 'realtime' deltas over a WebSocket, 'rescan' of the growing clip, a sliding
 * 'window' (local Whisper), 'scripted' (fake). */
export type StreamingMode = 'realtime' | 'rescan' | 'window' | 'scripted';

export interface TranscriptionStreamOptions {
  languageHint?: string;
  onUpdate(update: TranscriptUpdate): void;
}

export interface TranscriptionStream {
  readonly mode: StreamingMode;
  /** The next whole Ogg pages of the clip (the first piece begins the stream). Never throws. */
  push(pages: Uint8Array): void;
  /** The clip is complete: its final transcript, starting with every committed sentence. Idempotent. */
  finish(signal?: AbortSignal): Promise<Transcription>;
  /** The clip was dropped: stop, release the engine. */
  abort(): void;
}

/*
 * Sentence ends: Latin and CJK terminal punctuation (. ! ? 。 ！ ？ …), with closing quotes and brackets
 * after it (" ' ” ’ 」 』 ) ）). Written as \u escapes, as everything outside Latin-1 in the server's code
 * must be: one such character makes V8 hold the whole of dist/server.js as a two-byte string (build.mjs).
 */
const SENTENCE_END =
  /[.!?\u3002\uFF01\uFF1F\u2026]+["'\u201D\u2019\u300D\u300F)\uFF09]*(?=\s|$)|[\u3002\uFF01\uFF1F]+["'\u201D\u2019\u300D\u300F)\uFF09]*/gu;

/** Whether `text` ends a sentence (terminal punctuation, maybe closed by a quote or bracket). */
export function endsSentence(text: string): boolean {
  return /[.!?\u3002\uFF01\uFF1F\u2026]+["'\u201D\u2019\u300D\u300F)\uFF09]*$/u.test(text.trimEnd());
}

/** The sentences of `text`, each with its trailing space, in order (the last one may be unfinished). */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    let end = (match.index ?? 0) + match[0].length;
    while (end < text.length && /\s/u.test(text[end]!)) end += 1;
    if (end > start) out.push(text.slice(start, end));
    start = end;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/**
 * For engines whose text only ever grows (realtime deltas, scripted): every sentence that is finished
 * and followed by more speech is committed; the last one may still change its ending.
 */
export function committedOfGrowingText(text: string): number {
  const sentences = splitSentences(text);
  if (sentences.length <= 1) return 0;
  let length = 0;
  for (const sentence of sentences.slice(0, -1)) length += sentence.length;
  return length;
}

/**
 * For engines that hear the whole clip again each time (rescan, window): their hypotheses can change
 * anywhere, so the committed sentences are kept as they were and the new hypothesis supplies the rest,
 * minus as many sentences as are committed. A sentence is committed once two hypotheses in a row agree
 * on it and something follows it.
 */
export class RescanCommitter {
  private committed: string[] = [];
  private previous: string[] = [];

  /** Merge a new hypothesis of the whole clip; returns the update to show. */
  next(hypothesis: string): TranscriptUpdate {
    const sentences = splitSentences(hypothesis.trim());
    const rest = sentences.slice(this.committed.length);
    const before = this.previous.slice(this.committed.length);
    // commit the leading sentences both hypotheses agree on, but never the last (it may still grow)
    let agree = 0;
    while (
      agree < rest.length - 1 &&
      agree < before.length &&
      rest[agree]!.trim() === before[agree]!.trim()
    ) {
      agree += 1;
    }
    this.committed.push(...rest.slice(0, agree).map((s) => `${s.trim()} `));
    this.previous = sentences;
    return this.update(rest.slice(agree).join(''));
  }

  /** The final transcript: the committed sentences, then what the final hypothesis says after them. */
  final(hypothesis: string): string {
    const rest = splitSentences(hypothesis.trim()).slice(this.committed.length);
    return `${this.committed.join('')}${rest.join('')}`.trim();
  }

  private update(tail: string): TranscriptUpdate {
    const head = this.committed.join('');
    return { text: `${head}${tail}`, committed: head.length };
  }
}

/** Final text of a growing-text engine: the committed prefix is kept verbatim, whatever came later. */
export function finalOfGrowingText(text: string, update: TranscriptUpdate | undefined): string {
  if (!update) return text.trim();
  const head = update.text.slice(0, update.committed);
  return (text.startsWith(head) ? text : `${head}${text.slice(head.length)}`).trim();
}
