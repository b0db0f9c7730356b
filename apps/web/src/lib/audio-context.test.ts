import { afterEach, describe, expect, it, vi } from 'vitest';

/*
 * The shared AudioContext resumes whenever the browser has stopped it: Chromium and Firefox say
 * 'suspended', Safari says 'interrupted' after a phone call or the lock screen.
 */

/** A stand-in for the browser's AudioContext whose state the test sets. */
function browserContext(state: string) {
  const resume = vi.fn(() => Promise.resolve());
  class StoppedContext {
    state = state;
    resume = resume;
  }
  vi.stubGlobal('AudioContext', StoppedContext);
  return resume;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('sharedAudioContext', () => {
  it.each(['suspended', 'interrupted'])('resumes a context the browser left %s', async (state) => {
    const resume = browserContext(state);
    const { sharedAudioContext } = await import('./audio-context');
    expect(sharedAudioContext()).toBeDefined();
    expect(resume).toHaveBeenCalledOnce();
  });

  it('leaves a running context alone', async () => {
    const resume = browserContext('running');
    const { sharedAudioContext } = await import('./audio-context');
    sharedAudioContext();
    expect(resume).not.toHaveBeenCalled();
  });
});
