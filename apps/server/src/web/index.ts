/*
 * The built web app, served by the composition (plugin.ts). No module imports it; the composition reads
 * from it which inline scripts the built pages carry, for the policy (http/security-headers.ts).
 */
export { inlineScriptSources } from './inline-scripts.js';
