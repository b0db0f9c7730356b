/*
 * The scripted transcription behind one fake Realtime session: one word of the transcript per
 * `secondsPerWord` of PCM16 appended, and a sentence end acts as a VAD pause (its item is committed and
 * completed at once). Events go out in the shapes of OpenAI's API.
 */

const PCM_BYTES_PER_SECOND = 24_000 * 2;

const ms = (bytes: number) => Math.round((bytes / PCM_BYTES_PER_SECOND) * 1000);

/** The answer to a commit with nothing left to commit. */
const COMMIT_EMPTY = {
  type: 'error',
  error: {
    type: 'invalid_request_error',
    code: 'input_audio_buffer_commit_empty',
    message: 'Error committing input audio buffer: buffer too small.',
    param: null,
    event_id: null,
  },
};

export class ScriptedTranscription {
  private next = 0;
  private audioBytes = 0;
  private itemCounter = 0;
  private item: { id: string; text: string } | undefined;
  private previous: string | null = null;

  constructor(
    private readonly words: readonly string[],
    /** Read at each append, as the test may change it. */
    private readonly secondsPerWord: () => number,
    private readonly send: (event: Record<string, unknown>) => void,
  ) {}

  /** PCM16 audio: speech starts with the first of it, and every word now due is heard. */
  append(bytes: number): void {
    if (!this.item && this.next < this.words.length) {
      this.send({
        type: 'input_audio_buffer.speech_started',
        audio_start_ms: ms(this.audioBytes),
        item_id: this.openItem().id,
      });
    }
    this.audioBytes += bytes;
    const due = Math.min(
      this.words.length,
      Math.floor(this.audioBytes / PCM_BYTES_PER_SECOND / this.secondsPerWord()),
    );
    while (this.next < due) this.word();
  }

  /** The end of the audio: the rest of the transcript is heard, or there was nothing left. */
  commit(): void {
    if (!this.item && this.next >= this.words.length) {
      this.send(COMMIT_EMPTY);
      return;
    }
    while (this.next < this.words.length) this.word();
    this.closeItem();
  }

  private openItem(): { id: string; text: string } {
    this.item ??= { id: `item_${(this.itemCounter += 1)}`, text: '' };
    return this.item;
  }

  private word(): void {
    const current = this.openItem();
    const text = `${this.words[this.next]} `;
    this.next += 1;
    current.text += text;
    this.send({
      type: 'conversation.item.input_audio_transcription.delta',
      item_id: current.id,
      content_index: 0,
      delta: text,
    });
    if (/[.!?。！？]$/u.test(text.trim())) {
      this.send({
        type: 'input_audio_buffer.speech_stopped',
        audio_end_ms: ms(this.audioBytes),
        item_id: current.id,
      });
      this.closeItem();
    }
  }

  private closeItem(): void {
    if (!this.item) return;
    const done = this.item;
    this.item = undefined;
    this.send({ type: 'input_audio_buffer.committed', previous_item_id: this.previous, item_id: done.id });
    this.send({
      type: 'conversation.item.input_audio_transcription.completed',
      item_id: done.id,
      content_index: 0,
      transcript: done.text.trim(),
    });
    this.previous = done.id;
  }
}
