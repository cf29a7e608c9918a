import { readFileSync } from 'node:fs';
import { median } from './util.js';

const loadavg = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

/** The 1-minute load average, sampled every 5 s within the named phases of a bench run. */
export class LoadSampler {
  private readonly phases: { phase: string; samples: number[] }[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.enter('start');
    this.timer = setInterval(() => this.phases[this.phases.length - 1]!.samples.push(loadavg()), 5000);
  }

  enter(phase: string): void {
    this.phases.push({ phase, samples: [loadavg()] });
  }

  /** Stops sampling; min, median and max per phase. */
  stop(): { phase: string; min: number; median: number; max: number }[] {
    clearInterval(this.timer);
    return this.phases.map((p) => ({ phase: p.phase, min: Math.min(...p.samples), median: median(p.samples), max: Math.max(...p.samples) }));
  }
}
