/*
 * The lifecycle module: a node's life from its start to its stop. Readiness (GET /api/health/ready),
 * registered right after the stores; the health route, the drain on SIGTERM (`app.xtalkDrain`), the
 * background sweeps and the one shutdown order across modules, registered last. The composition
 * registers both plugins (plugin.ts); nothing else builds on this module.
 */
export type { Readiness, NotReadyReason } from './readiness.js';
export type { Drain, DrainSettings } from './drain.js';
