/*
 * The built web app, served by the composition (plugin.ts). No module imports it.
 */
export {};
