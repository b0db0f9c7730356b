import { describe, expect, it } from 'vitest';
import { causeText } from '#web/lib/notice-text';
import { FAILURE_EVENT_MS, addFailure, failurePart, failureRank, failureText } from './failure-toast';

/** A failure notice as the room's frames make it a part of the toast. */
const partOf = (params: Record<string, string | number>) =>
  failurePart({ message: 'server words', notice: { kind: 'engine_failed', params } })!;

describe('failure toasts', () => {
  const down = { cause: 'status', status: 500 };
  const note = partOf({ task: 'note', ...down });
  const translation = partOf({ task: 'translation', language: 'ja', ...down });

  it('make one text of one event: the real cause first, the hint that failed with the translation left out', () => {
    // the hint's failure came first, as it does when the engine is down
    let event = addFailure(undefined, note, 1000);
    expect(failureText('en', event)).toBe(
      'The AI engine answered with an error (HTTP 500). A translation hint could not be made.',
    );
    event = addFailure(event, translation, 1200);
    expect(failureText('en', event)).toBe(
      'The AI engine answered with an error (HTTP 500). Translation into Japanese failed. The message is shown as written.',
    );
    // the same words again add nothing
    event = addFailure(event, translation, 1300);
    expect(event.parts).toHaveLength(2);
  });

  it('say an unreachable engine in the interface language, once for all that failed', () => {
    const unreachable = { cause: 'unreachable' };
    let event = addFailure(undefined, partOf({ task: 'speech', language: 'ja', ...unreachable }), 1000);
    event = addFailure(event, partOf({ task: 'translation', language: 'en', ...unreachable }), 1100);
    expect(failureText('ja', event)).toBe(
      'AIエンジンに接続できません。英語への翻訳に失敗しました。メッセージは原文のまま表示されます。日本語の音声翻訳に失敗しました。',
    );
  });

  it('word a notice without a known cause as before', () => {
    const plain = partOf({ task: 'translation', language: 'ja' });
    expect(causeText('en', plain.frame.notice)).toBeUndefined();
    expect(
      causeText('en', { kind: 'engine_failed', params: { task: 'note', cause: 'gremlins' } }),
    ).toBeUndefined();
    // a status cause without its status is not worded
    expect(
      causeText('en', { kind: 'engine_failed', params: { task: 'note', cause: 'status' } }),
    ).toBeUndefined();
    expect(failureText('en', addFailure(undefined, plain, 0))).toBe(
      'Translation into Japanese failed. The message is shown as written.',
    );
  });

  it('start a new event once the last one had its time', () => {
    const first = addFailure(undefined, note, 1000);
    const next = addFailure(first, translation, 1001 + FAILURE_EVENT_MS);
    expect(next.parts).toEqual([translation]);
  });

  it('rank an unreachable engine first and leave other notices alone', () => {
    expect(failureRank({ kind: 'engine_unavailable', params: { task: 'note' } })).toBeLessThan(
      translation.rank,
    );
    expect(failureRank({ kind: 'backlog' })).toBeUndefined();
    expect(failureRank(undefined)).toBeUndefined();
  });
});
