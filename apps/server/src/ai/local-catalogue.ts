/*
 * What XTalk knows of the models the embedded engine may load: licence, whether the licence allows
 * commercial self-hosting, download size, where it comes from and how it loads. The defaults are all
 * commercially usable (docs/models.md); a configured model that is not, or whose licence XTalk does not
 * know, is named once at start (licenceWarnings).
 */

/** The models the embedded engine loads, by task. */
export interface LocalModels {
  translation: string;
  transcription: string;
  /**
   * Text-to-speech model per spoken language; a language without one is spoken by its listeners'
   * browsers (noServerVoice).
   */
  speech: Record<string, string>;
  /** The instruction model that writes hints, loaded on the first hint; undefined: no hints. */
  hint?: string;
}

export interface ModelCard {
  id: string;
  /** The model the files are an export of, where they are not its authors' own. */
  base?: string;
  licence: string;
  /** The licence allows running it in a service that is sold (credits). */
  commercial: boolean;
  download: string;
  /** Where the files are fetched from, pinned. */
  revision?: string;
  /** Folder of the ONNX files in the repository ('' for its root); transformers.js's default is onnx/. */
  subfolder?: string;
  /** The weights' precision (transformers.js dtype); default the provider's (q8). */
  dtype?: string;
  /** The weights sit in a separate `.onnx.data` file (models over 2 GB, or exported that way). */
  externalData?: boolean;
  /** How a translation model is driven: NLLB's language codes, or a chat prompt. */
  translator?: 'nllb' | 'chat';
  /** The languages a translation model translates between; absent: every language NLLB knows. */
  languages?: readonly string[];
}

export const MODEL_CARDS: readonly ModelCard[] = [
  {
    id: 'nadare/CAT-Translate-0.8b-onnx-q4-k-quant',
    base: 'cyberagent/CAT-Translate-0.8b',
    licence: 'MIT',
    commercial: true,
    download: '0.6 GB',
    revision: 'a6369bfcaa1f7c9a8df7294c6b2011286e5dc843',
    subfolder: '',
    dtype: 'q4',
    externalData: true,
    translator: 'chat',
    languages: ['en', 'ja'],
  },
  {
    id: 'Xenova/nllb-200-distilled-600M',
    licence: 'CC-BY-NC-4.0',
    commercial: false,
    download: '0.9 GB',
    translator: 'nllb',
  },
  { id: 'Xenova/m2m100_418M', licence: 'MIT', commercial: true, download: '0.9 GB', translator: 'nllb' },
  { id: 'onnx-community/whisper-small', licence: 'MIT', commercial: true, download: '0.25 GB' },
  { id: 'onnx-community/whisper-base', licence: 'MIT', commercial: true, download: '0.08 GB' },
  {
    id: 'onnx-community/Qwen3-1.7B-ONNX',
    licence: 'Apache-2.0',
    commercial: true,
    download: '1.2 GB',
    dtype: 'q4',
  },
  ...['eng', 'fra', 'spa', 'vie'].map((code) => ({
    id: `Xenova/mms-tts-${code}`,
    licence: 'CC-BY-NC-4.0',
    commercial: false,
    download: '0.03 GB',
  })),
];

export function cardOf(id: string): ModelCard | undefined {
  return MODEL_CARDS.find((card) => card.id === id);
}

/** Every model the configuration loads (speech: one per language). */
export function configuredModels(models: LocalModels): string[] {
  const ids = [models.translation, models.transcription, ...Object.values(models.speech)];
  if (models.hint) ids.push(models.hint);
  return [...new Set(ids)];
}

/**
 * One line per configured model that may not be sold with: a licence that forbids commercial use, or
 * one XTalk does not know. Empty for the defaults.
 */
export function licenceWarnings(models: LocalModels): string[] {
  return configuredModels(models).flatMap((id) => {
    const card = cardOf(id);
    if (!card)
      return [
        `local model ${id}: its licence is not known to XTalk; check that it allows commercial use before selling credits`,
      ];
    if (card.commercial) return [];
    return [
      `local model ${id} is licensed ${card.licence}, which does not allow commercial use: do not sell credits (or charge for the service) while it is configured`,
    ];
  });
}
