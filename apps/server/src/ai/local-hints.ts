import os from 'node:os';
import type { NoteRequest } from './provider.js';
import { AiUnavailableError } from './provider.js';
import { noteMessages, parseNote } from './prompts.js';
import { generatedText, type RunOnModel } from './local-translate.js';

/*
 * Hints on the embedded engine: a small instruction model (loaded on the first hint, never at start)
 * given the cloud engine's hint prompt and held to its rules and length cap (prompts.ts). It needs a
 * machine of some size; on a smaller one (LOCAL_HINTS=auto) every hint is refused with a message the room
 * is told: hints need a larger engine.
 */

export type HintSetting = 'auto' | 'on' | 'off';

export interface Machine {
  cores: number;
  memoryBytes: number;
}

const GIB = 2 ** 30;
/** What the hint model needs beside the other models, so that hints do not starve translation. */
export const HINT_MACHINE: Machine = { cores: 4, memoryBytes: 8 * GIB };

export function thisMachine(): Machine {
  return { cores: os.availableParallelism(), memoryBytes: os.totalmem() };
}

/** Why hints cannot be written here, or undefined when they can. */
export function hintRefusal(setting: HintSetting, machine: Machine): string | undefined {
  if (setting === 'on') return undefined;
  if (setting === 'off') return 'translation hints are off on this server (LOCAL_HINTS=off)';
  if (machine.cores >= HINT_MACHINE.cores && machine.memoryBytes >= HINT_MACHINE.memoryBytes)
    return undefined;
  const memory = (machine.memoryBytes / GIB).toFixed(1);
  return (
    `translation hints need a larger engine: the local hint model needs ${HINT_MACHINE.cores} CPU cores ` +
    `and ${HINT_MACHINE.memoryBytes / GIB} GB of memory, and this machine has ${machine.cores} and ${memory} GB`
  );
}

/** The hint model's answer without a reasoning block (Qwen3 writes `<think>...</think>` unless told not to). */
export function withoutThinking(answer: string): string {
  return answer.replace(/<think>[\s\S]*?(<\/think>|$)/gu, '').trim();
}

export async function writeHint(
  run: RunOnModel,
  model: string,
  request: NoteRequest,
): Promise<string | null> {
  const messages = noteMessages(request);
  const last = messages.at(-1)!;
  // Qwen3's switch for answering without a reasoning block first
  const prompt = [...messages.slice(0, -1), { ...last, content: `${last.content}\n\n/no_think` }];
  const output = await run('note', model, (loaded) => {
    request.signal?.throwIfAborted();
    return loaded.run(prompt, { max_new_tokens: 160, do_sample: false });
  });
  return parseNote(withoutThinking(generatedText(output)));
}

export function refuseHint(reason: string): never {
  throw new AiUnavailableError('note', reason);
}
