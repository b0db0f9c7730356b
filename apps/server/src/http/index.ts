/*
 * The HTTP layer every route stands on: rate limits, the error handler, the body guard, the request log.
 * Its plugins are read by the composition; others use only what is named here.
 */
export { logOptions } from './log-options.js';
