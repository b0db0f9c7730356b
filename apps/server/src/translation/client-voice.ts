import { NO_SERVER_VOICE_PROTOCOL_VERSION } from '@xtalk/protocol';
import type { RoomOutput } from './ports.js';
import type { Job } from './types.js';

/*
 * A translation into a language the engine has no voice for (decision 0205). Nothing is synthesised or
 * charged: once the translation is complete its text goes to the language's listeners as `noServerVoice`,
 * and their browsers speak it. Clients below protocol 8 are not sent it (they hear nothing, as before).
 */

/** What process-message does with a translation's speech, whoever makes it. */
export interface TranslationSpeaker {
  push(piece: string): void;
  finish(fullText: string | undefined): Promise<void>;
  cancel(): void;
}

export class ClientVoice implements TranslationSpeaker {
  private stopped = false;

  constructor(
    private readonly output: RoomOutput,
    private readonly job: Job,
    private readonly language: string,
    /** Whether anyone listens in the language (asked once, when the translation starts). */
    private readonly listening: Promise<boolean>,
  ) {}

  push(): void {
    // the listeners' browsers speak the whole text, which they are sent once it is complete
  }

  cancel(): void {
    this.stopped = true;
  }

  async finish(fullText: string | undefined): Promise<void> {
    const text = fullText?.trim();
    if (!text || this.stopped || this.job.superseded || !(await this.listening)) return;
    const { roomId, message } = this.job;
    await this.output.broadcast(
      roomId,
      { type: 'noServerVoice', id: message.id, language: this.language, text },
      {
        language: this.language,
        exceptUsername: message.username,
        fromVersion: NO_SERVER_VOICE_PROTOCOL_VERSION,
      },
    );
  }
}
