/*
 * Preloaded (`node --expose-gc --import ./gc-hook.mjs`) into every server the fan-out bench starts, XTalk
 * and the peers alike, so "memory after GC" means the same thing for each: on SIGUSR2 the process collects
 * garbage twice and prints one line `BENCH_MEM {json}` with process.memoryUsage().
 */
process.on('SIGUSR2', () => {
  const gc = globalThis.gc;
  if (gc) {
    gc();
    gc();
  }
  process.stdout.write(`BENCH_MEM ${JSON.stringify({ ...process.memoryUsage(), gc: Boolean(gc) })}\n`);
});
