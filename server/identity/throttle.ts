/**
 * Repeated failed logins, counted per user name and per client address in a
 * sliding window. Past the limit, an attempt is refused without asking the
 * identity provider — and answered exactly like a wrong password, after the
 * same delay, so a throttled name cannot be told from a wrong guess.
 */
import { z } from 'zod';

export const ThrottleConfigSchema = z.object({
  /** Failures per user name within the window before further attempts are refused. */
  maxFailuresPerUser: z.number().int().min(1).default(10),
  /** Failures per client address within the window. */
  maxFailuresPerAddress: z.number().int().min(1).default(50),
  windowMs: z.number().int().min(1).default(5 * 60_000),
  /** Every failed or refused attempt is answered after this delay. */
  failureDelayMs: z.number().int().min(0).default(300),
  /** Bound on remembered keys, so a flood of names cannot grow memory without end. */
  maxTrackedKeys: z.number().int().min(100).default(100_000),
});
export type ThrottleConfig = z.output<typeof ThrottleConfigSchema>;

export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly cfg: ThrottleConfig,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether this attempt may reach the identity provider. */
  allows(user: string, address: string): boolean {
    return this.count(`u:${user}`) < this.cfg.maxFailuresPerUser && this.count(`a:${address}`) < this.cfg.maxFailuresPerAddress;
  }

  recordFailure(user: string, address: string): void {
    this.push(`u:${user}`);
    this.push(`a:${address}`);
  }

  /** A good login clears the user's count (not the address's: one good login must not unlock a scan). */
  recordSuccess(user: string): void {
    this.failures.delete(`u:${user}`);
  }

  /** The uniform pause before a failure is reported. */
  delay(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.cfg.failureDelayMs).unref());
  }

  private recent(key: string): number[] {
    const since = this.now() - this.cfg.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  private count(key: string): number {
    return this.recent(key).length;
  }

  private push(key: string): void {
    const list = this.recent(key);
    list.push(this.now());
    // Re-insert so the Map's order is least-recently-failed first: a spray of fresh
    // names evicts stale names, never the address it comes from.
    this.failures.delete(key);
    this.failures.set(key, list);
    if (this.failures.size > this.cfg.maxTrackedKeys) {
      const first = this.failures.keys().next().value;
      if (first !== undefined) this.failures.delete(first);
    }
  }
}
