import { afterEach, describe, expect, it, vi } from 'vitest';
import { controllablePlayer } from './controllable-player';
import { SpeechQueue, STALL_MS, type SpeechClip, type SpeechMeta } from './speech-queue';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const ogg = (name: string) => new Blob([name], { type: 'audio/ogg' });

function setup({ locked = false } = {}) {
  const { player, started } = controllablePlayer<SpeechClip>();
  const speaking: Array<number | undefined> = [];
  const errors: unknown[] = [];
  const queue = new SpeechQueue(
    player,
    (id) => speaking.push(id),
    (error) => errors.push(error),
  );
  if (!locked) queue.unlock();
  const add = (meta: SpeechMeta, name: string) => queue.add(meta, ogg(name));
  const names = () =>
    Promise.all(
      started.map((s) => (s.clip instanceof Blob ? s.clip.text() : `${s.clip.language}: ${s.clip.text}`)),
    );
  /** Finish what plays now. */
  const finish = async () => {
    started.at(-1)?.finish();
    await flush();
  };
  /** A translation the browser speaks (noServerVoice): one sentence, its text. */
  const say = (id: number, text: string) => queue.add({ id, seq: 0, last: true }, { text, language: 'ja' });
  return { queue, started, speaking, errors, add, say, names, finish };
}

afterEach(() => vi.useRealTimers());

describe('SpeechQueue', () => {
  it("plays one message's sentences in seq order, one after another, whatever order they arrive in", async () => {
    const { add, names, finish, started, speaking } = setup();
    add({ id: 5, seq: 1, last: false }, 'b');
    add({ id: 5, seq: 0, last: false }, 'a');
    await flush();
    expect(await names()).toEqual(['a']);
    add({ id: 5, seq: 2, last: true }, 'c');
    await finish();
    expect(await names()).toEqual(['a', 'b']);
    await finish();
    await finish();
    expect(await names()).toEqual(['a', 'b', 'c']);
    expect(started.filter((s) => s.stopped)).toEqual([]);
    expect(speaking).toEqual([5, undefined]);
  });

  it('waits for the next sentence of the message playing instead of starting another message', async () => {
    const { add, names, finish } = setup();
    add({ id: 5, seq: 0, last: false }, 'a0');
    add({ id: 9, seq: 0, last: true }, 'b0');
    await finish();
    expect(await names()).toEqual(['a0']);
    add({ id: 5, seq: 1, last: true }, 'a1');
    await finish();
    await finish();
    expect(await names()).toEqual(['a0', 'a1', 'b0']);
  });

  it('plays messages in the order they were sent, not the order their speech arrived', async () => {
    const { queue, add, names, finish } = setup({ locked: true });
    add({ id: 9, seq: 0, last: true }, 'later');
    add({ id: 0, clipId: 'c1', seq: 0, last: false }, 'clip');
    add({ id: 5, seq: 0, last: true }, 'earlier');
    queue.unlock();
    await finish();
    await finish();
    expect(await names()).toEqual(['earlier', 'later', 'clip']);
  });

  it("a clip's sentences and its message's continue as one utterance", async () => {
    const { add, names, finish, speaking } = setup();
    add({ id: 0, clipId: 'c1', seq: 0, last: false }, 's0');
    add({ id: 7, clipId: 'c1', seq: 1, last: true }, 's1');
    await finish();
    await finish();
    expect(await names()).toEqual(['s0', 's1']);
    expect(speaking).toEqual([0, 7, undefined]);
  });

  it('a message corrected while it plays stops; the corrected text plays from seq 0', async () => {
    const { queue, add, names, finish, started } = setup();
    add({ id: 5, seq: 0, last: false }, 'old0');
    add({ id: 5, seq: 1, last: false }, 'old1');
    await flush();
    queue.corrected(5);
    expect(started[0]?.stopped).toBe(true);
    add({ id: 5, seq: 0, last: false }, 'new0');
    add({ id: 5, seq: 1, last: true }, 'new1');
    await finish();
    await finish();
    expect(await names()).toEqual(['old0', 'new0', 'new1']);
  });

  it('seq 0 again for a message is a correction even without its messageEdited', async () => {
    const { add, names, finish, started } = setup();
    add({ id: 5, seq: 0, last: false }, 'old0');
    add({ id: 5, seq: 1, last: false }, 'old1');
    add({ id: 5, seq: 0, last: true }, 'new0');
    await flush();
    expect(started[0]?.stopped).toBe(true);
    await finish();
    expect(await names()).toEqual(['old0', 'new0']);
  });

  it('muted: what plays stops and nothing is kept; unmuted, new speech plays', async () => {
    const { queue, add, names, finish, started } = setup();
    add({ id: 5, seq: 0, last: false }, 'a');
    add({ id: 5, seq: 1, last: true }, 'b');
    await flush();
    queue.setMuted(true);
    expect(started[0]?.stopped).toBe(true);
    add({ id: 6, seq: 0, last: true }, 'muted');
    queue.setMuted(false);
    await flush();
    expect(await names()).toEqual(['a']);
    add({ id: 7, seq: 0, last: true }, 'c');
    await finish();
    expect(await names()).toEqual(['a', 'c']);
  });

  it('locked until the page is tapped: sentences wait, then play in order', async () => {
    const { queue, add, names, finish } = setup({ locked: true });
    add({ id: 5, seq: 0, last: true }, 'a');
    await flush();
    expect(await names()).toEqual([]);
    queue.unlock();
    await finish();
    expect(await names()).toEqual(['a']);
  });

  it('a sentence that fails to play is reported and the next one plays', async () => {
    const { add, names, started, errors } = setup();
    add({ id: 5, seq: 0, last: false }, 'bad');
    add({ id: 5, seq: 1, last: true }, 'good');
    await flush();
    started[0]?.fail(new Error('decode'));
    await flush();
    expect(errors).toHaveLength(1);
    expect(await names()).toEqual(['bad', 'good']);
  });

  it('a message whose next sentence never comes is given up, and the next message plays', async () => {
    vi.useFakeTimers();
    const { add, names, started } = setup();
    add({ id: 5, seq: 0, last: false }, 'a0');
    add({ id: 6, seq: 0, last: true }, 'b0');
    started[0]?.finish();
    await vi.advanceTimersByTimeAsync(STALL_MS - 1);
    expect(await names()).toEqual(['a0']);
    await vi.advanceTimersByTimeAsync(1);
    expect(await names()).toEqual(['a0', 'b0']);
  });

  it('a text the browser speaks takes its turn among server speech, and mute drops it', async () => {
    const { queue, add, say, names, finish } = setup();
    add({ id: 5, seq: 0, last: false }, 'a0');
    say(7, 'さようなら');
    say(6, 'こんにちは');
    add({ id: 5, seq: 1, last: true }, 'a1');
    await finish();
    await finish();
    expect(await names()).toEqual(['a0', 'a1', 'ja: こんにちは']);
    queue.setMuted(true);
    expect(await names()).toHaveLength(3);
    say(8, 'また明日');
    queue.setMuted(false);
    await flush();
    expect(await names()).toEqual(['a0', 'a1', 'ja: こんにちは']);
    say(9, 'おやすみ');
    await flush();
    expect(await names()).toEqual(['a0', 'a1', 'ja: こんにちは', 'ja: おやすみ']);
  });
});
