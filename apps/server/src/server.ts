import { holdYoungGenerationForStartup } from './startup-memory.js';

/*
 * The server's entry. It only sets how V8 sizes its young generation while the server loads, then loads
 * the server (serve.ts), which listens and shuts down. The order matters: a module's static imports are
 * evaluated before its own code, so the setting must run in a module that imports nothing heavy, before
 * the dynamic import that loads everything else (docs/decisions/0131).
 */

holdYoungGenerationForStartup();
await import('./serve.js');
