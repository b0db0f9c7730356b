import type { AiTask } from './provider.js';
import { cardOf } from './local-catalogue.js';
import {
  describeLoadError,
  loadPercents,
  pipelineTaskOf,
  type LocalModelLoader,
  type LocalModels,
} from './local-models.js';

/*
 * `npm run models`: every model the embedded engine is configured with, fetched into MODELS_DIR with a
 * progress bar and verified by loading it the way the server will (transformers.js opens every file it
 * fetched), so a server can be prepared before it goes offline. A model that fails is named with why,
 * and the run fails.
 */

export interface FetchModelsOptions {
  models: LocalModels;
  modelsDir: string;
  loader: LocalModelLoader;
  /** Where the progress goes (a terminal: the bar redraws in place). */
  write: (text: string) => void;
  redraw?: boolean;
}

export interface FetchResult {
  ready: string[];
  failed: Array<{ model: string; reason: string }>;
}

const BAR = 30;
const WHAT_FOR: Record<AiTask, string> = {
  translation: 'translation',
  transcription: 'transcription',
  speech: 'voice',
  note: 'hints',
  summary: 'summaries',
};

export function progressBar(percent: number): string {
  const filled = Math.round((BAR * percent) / 100);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}] ${String(percent).padStart(3)}%`;
}

/** Each model once, with the task it is loaded for. */
export function modelsToFetch(models: LocalModels): Array<{ task: AiTask; model: string }> {
  const wanted: Array<{ task: AiTask; model: string }> = [
    { task: 'translation', model: models.translation },
    { task: 'transcription', model: models.transcription },
    ...Object.values(models.speech).map((model) => ({ task: 'speech' as const, model })),
    ...(models.hint ? [{ task: 'note' as const, model: models.hint }] : []),
  ];
  return wanted.filter((entry, index) => wanted.findIndex((e) => e.model === entry.model) === index);
}

export async function fetchModels(options: FetchModelsOptions): Promise<FetchResult> {
  const result: FetchResult = { ready: [], failed: [] };
  const { write } = options;
  for (const { task, model } of modelsToFetch(options.models)) {
    const card = cardOf(model);
    write(`${model} (${WHAT_FOR[task]}${card ? `, ${card.licence}, about ${card.download}` : ''})\n`);
    let last = -1;
    const onProgress = loadPercents((percent) => {
      if (!options.redraw && percent < 100 && percent - last < 10) return;
      last = percent;
      write(options.redraw ? `\r  ${progressBar(percent)}` : `  ${progressBar(percent)}\n`);
    });
    try {
      const loaded = await options.loader(pipelineTaskOf(task, model), model, {
        modelsDir: options.modelsDir,
        allowDownload: true,
        onProgress,
      });
      await loaded.dispose?.();
      if (options.redraw && last >= 0) write('\n');
      write('  verified: it loads\n');
      result.ready.push(model);
    } catch (error) {
      if (options.redraw && last >= 0) write('\n');
      const reason = describeLoadError(error);
      write(`  FAILED: ${reason}\n`);
      result.failed.push({ model, reason });
    }
  }
  return result;
}
