/*
 * /metrics and the counters every module reports to: the report other modules are handed, and the
 * probes the composition watches.
 */
export { type MetricsReport, type AiRefusalReason } from './report.js';
export { appSources } from './probes.js';
