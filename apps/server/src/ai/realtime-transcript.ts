import { committedOfGrowingText, type TranscriptUpdate } from './transcription-stream.js';

interface Item {
  text: string;
  done: boolean;
}

/** The session's items (one per VAD turn) in order: their text so far, and which are complete. */
export class RealtimeTranscript {
  private readonly items = new Map<string, Item>();

  item(id: string | undefined): Item {
    const key = id ?? '';
    let found = this.items.get(key);
    if (!found) this.items.set(key, (found = { text: '', done: false }));
    return found;
  }

  allDone(): boolean {
    return [...this.items.values()].every((item) => item.done);
  }

  text(): string {
    return [...this.items.values()]
      .map((item) => item.text.trim())
      .filter(Boolean)
      .join(' ');
  }

  /** Complete items are final; inside the running one, finished sentences followed by more are too. */
  update(): TranscriptUpdate {
    const all = this.text();
    let head = 0;
    for (const item of this.items.values()) {
      if (!item.done) break;
      head += item.text.trim().length + 1;
    }
    return { text: all, committed: Math.max(Math.min(head, all.length), committedOfGrowingText(all)) };
  }
}
