import type { ServerProcess } from '../lib/server-process.js';
import { median, round } from '../lib/stats.js';

/* The server's RSS through the chat run: every sample kept with its phase, and settled values for the report. */

export interface MemorySample {
  /** Seconds since the chat run started. */
  t: number;
  phase: string;
  rssKiB: number;
}

export class MemorySamples {
  readonly samples: MemorySample[] = [];
  private readonly started = performance.now();

  constructor(private readonly server: ServerProcess) {}

  /** One sample now, kept with its phase. */
  sample(phase: string): number {
    const rssKiB = this.server.rssKiB();
    this.samples.push({ t: round((performance.now() - this.started) / 1000, 2), phase, rssKiB });
    return rssKiB;
  }

  /** The median of samples a second apart: the RSS moves on its own, so one read is not enough. */
  async settled(phase: string): Promise<number> {
    const values: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      values.push(this.sample(phase));
    }
    return median(values);
  }

  /** A sample every second, its phase named when taken, until the returned function is called. */
  everySecond(phase: () => string): () => void {
    const timer = setInterval(() => this.sample(phase()), 1000);
    return () => clearInterval(timer);
  }
}
