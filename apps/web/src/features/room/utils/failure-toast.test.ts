import { describe, expect, it } from 'vitest';
import { FAILURE_EVENT_MS, addFailure, failureRank, failureText } from './failure-toast';

describe('failure toasts', () => {
  const note = failureRank({ kind: 'engine_failed', params: { task: 'note' } })!;
  const translation = failureRank({
    kind: 'engine_failed',
    params: { task: 'translation', language: 'ja' },
  })!;

  it('make one text of one event, the real cause first whatever came first', () => {
    let event = addFailure(undefined, note, 'A translation hint could not be made.', 1000);
    event = addFailure(event, translation, 'Translation into Japanese failed.', 1200);
    expect(failureText(event)).toBe(
      'Translation into Japanese failed. A translation hint could not be made.',
    );
    // the same words again add nothing
    event = addFailure(event, translation, 'Translation into Japanese failed.', 1300);
    expect(event.parts).toHaveLength(2);
  });

  it('start a new event once the last one had its time', () => {
    const first = addFailure(undefined, note, 'A translation hint could not be made.', 1000);
    const next = addFailure(first, translation, 'Translation into Japanese failed.', 1001 + FAILURE_EVENT_MS);
    expect(failureText(next)).toBe('Translation into Japanese failed.');
  });

  it('rank an unreachable engine first and leave other notices alone', () => {
    expect(failureRank({ kind: 'engine_unavailable', params: { task: 'note' } })).toBeLessThan(translation);
    expect(failureRank({ kind: 'backlog' })).toBeUndefined();
    expect(failureRank(undefined)).toBeUndefined();
  });
});
