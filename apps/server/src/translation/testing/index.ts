/*
 * The translation module's test and benchmark entry point: in-memory ports, the pipeline benchmark and the
 * fake provider. Production code never imports it (eslint.config.js); tests and bench/ do.
 */
export { MemoryRoomOutput, MemoryTranslationStore, MemoryMeter } from './memory-ports.js';
export { messageFrame } from './message-frame.js';
export {
  runPipelineBench,
  type PipelineBenchOptions,
  type PipelineBenchResult,
  type Stats,
} from './bench.js';
export { createFakeProvider, FakeProvider, type FakeProviderOptions } from '../../ai/index.js';
