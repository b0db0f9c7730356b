import {
  DEFAULT_LOCAL_MODELS,
  localModelsOf,
  modelsDir,
  transformersLoader,
} from '../apps/server/src/ai/index.js';
import { fetchModels } from '../apps/server/src/ai/fetch-models.js';
import { loadConfig } from '../apps/server/src/config.js';

/*
 * `npm run models`: fetches every model the embedded engine is configured with (the defaults, or the
 * LOCAL_*_MODEL settings) into MODELS_DIR (default DATA_DIR/models) and checks each one loads. Exits 1
 * when any could not be fetched or loaded.
 */

const config = loadConfig(process.env);
const chosen = localModelsOf(config);
const models = {
  ...DEFAULT_LOCAL_MODELS,
  ...chosen,
  speech: chosen.speech ?? DEFAULT_LOCAL_MODELS.speech,
};
const dir = modelsDir(config);
process.stderr.write(`fetching the embedded engine's models into ${dir}\n`);
const result = await fetchModels({
  models,
  modelsDir: dir,
  loader: transformersLoader(),
  write: (text) => process.stderr.write(text),
  redraw: process.stderr.isTTY,
});
process.stderr.write(
  `${result.ready.length} ready, ${result.failed.length} failed${result.failed.length ? ': ' + result.failed.map((f) => f.model).join(', ') : ''}\n`,
);
process.exitCode = result.failed.length > 0 ? 1 : 0;
