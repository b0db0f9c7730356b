import type { ServerFrame } from '@xtalk/protocol';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from './chat-items';
import { run } from './testing';

/* Live captions of streamed voice clips (protocol 3) in the room's chat state. */

const caption = (text: string): ServerFrame => ({
  type: 'captionPartial',
  clipId: 'clip-1',
  username: 'alice',
  displayUsername: 'Alice',
  language: 'en',
  text,
});

describe('live captions', () => {
  it('each caption replaces the last; clip translations gather under it; the message takes over', () => {
    const live = run([
      caption('Hello'),
      caption('Hello everyone. This'),
      {
        type: 'translationChunk',
        originalTimestamp: 0,
        clipId: 'clip-1',
        targetLanguage: 'ja',
        chunk: '[ja] Hello',
      },
      {
        type: 'translationChunk',
        originalTimestamp: 0,
        clipId: 'clip-1',
        targetLanguage: 'ja',
        chunk: ' everyone.',
      },
    ]);
    expect(live.captions?.['clip-1']).toMatchObject({
      text: 'Hello everyone. This',
      displayUsername: 'Alice',
      translations: { ja: '[ja] Hello everyone.' },
    });
    const done = run(
      [
        {
          type: 'message',
          id: 42,
          username: 'alice',
          message: 'Hello everyone. This is it.',
          language: 'en',
          timestamp: 42,
          translations: {},
          isTutorial: false,
          clipId: 'clip-1',
        },
        { type: 'translationChunk', originalTimestamp: 42, targetLanguage: 'ja', chunk: ' [ja] This is it.' },
      ],
      live,
    );
    expect(done.captions).toEqual({});
    const message = done.items[0] as ChatMessage;
    expect(message.partial).toEqual({ ja: '[ja] Hello everyone. [ja] This is it.' });
    const complete = run(
      [{ type: 'translationComplete', originalTimestamp: 42, targetLanguage: 'ja', fullText: 'whole' }],
      done,
    );
    expect((complete.items[0] as ChatMessage).translations).toEqual({ ja: 'whole' });
  });

  it('an empty caption withdraws it (the clip was dropped)', () => {
    expect(run([caption('Hello'), caption('')]).captions).toEqual({});
  });
});
