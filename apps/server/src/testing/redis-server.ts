import { spawn, type ChildProcess } from 'node:child_process';

/*
 * A redis-server of a fault test's own on a free port, without persistence: the test may kill and
 * restart it, which it must never do to the machine's shared Redis.
 */

export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not start')), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (/ready to accept connections/i.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', () => reject(new Error('redis-server exited')));
  });
  return child;
}

/** Gone at once, as a crash: no save, no goodbye to its clients. */
export async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
