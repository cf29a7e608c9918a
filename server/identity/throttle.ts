/**
 * Repeated failed logins slow and then stop the one who fails, never the user
 * whose name is typed. Failures are counted in a sliding window per client
 * address and per (user name, client address):
 *
 *  - past `maxFailuresPerUserAddress` for a name from one address, or
 *    `maxFailuresPerAddress` from one address for any names, that address's
 *    attempts (for that name, or for every name) are refused without asking
 *    the identity provider — answered exactly like a wrong password, after the
 *    same delay, and counted like one, so the refusal lasts while the attempts go on;
 *  - every failure (or refusal) is answered after a delay that doubles with each
 *    recent failure of the attempt's address, of its (name, address) pair and of
 *    the name from any address, up to `maxFailureDelayMs`.
 *
 * The per-name count only ever lengthens the wait before a *failure* answer: a
 * correct password from an address that is not throttled is answered at once,
 * so no number of failures from elsewhere can lock a user out.
 */
import { z } from 'zod';

export const ThrottleConfigSchema = z.object({
  /** Failures from one client address (for any user names) within the window before its attempts are refused. */
  maxFailuresPerAddress: z.number().int().min(1).default(50),
  /** Failures for one user name from one client address within the window before that pair's attempts are refused. */
  maxFailuresPerUserAddress: z.number().int().min(1).default(10),
  /** Replaced by maxFailuresPerUserAddress: a per-name limit let anyone lock any user out. */
  maxFailuresPerUser: z
    .never({ error: 'removed: failures are limited per client address and per (user, address) (maxFailuresPerUserAddress); a per-user limit let anyone lock a user out' })
    .optional(),
  windowMs: z.number().int().min(1).default(5 * 60_000),
  /** The delay before a first failure is answered; each recent failure of the same address, (user, address) or user doubles it. */
  failureDelayMs: z.number().int().min(0).default(300),
  /** The longest delay before a failure is answered. */
  maxFailureDelayMs: z.number().int().min(0).default(5000),
  /** Bound on remembered keys, so a flood of names cannot grow memory without end. */
  maxTrackedKeys: z.number().int().min(100).default(100_000),
});
export type ThrottleConfig = z.output<typeof ThrottleConfigSchema>;

const addressKey = (address: string) => `a:${address}`;
const pairKey = (user: string, address: string) => `p:${address}\u0000${user}`;
const userKey = (user: string) => `u:${user}`;

export class LoginThrottle {
  /** Failure times per key, least recently failed key first. */
  private readonly failures = new Map<string, number[]>();
  /** No decision needs more of a key's failures than this. */
  private readonly keep: number;

  constructor(
    private readonly cfg: ThrottleConfig,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()),
  ) {
    this.keep = Math.max(cfg.maxFailuresPerAddress, cfg.maxFailuresPerUserAddress, 32);
  }

  /** Whether this attempt may reach the identity provider. */
  allows(user: string, address: string): boolean {
    return this.count(pairKey(user, address)) < this.cfg.maxFailuresPerUserAddress && this.count(addressKey(address)) < this.cfg.maxFailuresPerAddress;
  }

  /** Count a failed or refused attempt; resolves after the delay its keys have earned. */
  async failed(user: string, address: string): Promise<void> {
    const n = Math.max(this.push(addressKey(address)), this.push(pairKey(user, address)), this.push(userKey(user)));
    await this.sleep(this.delayFor(n));
  }

  /** A good login clears its (user, address) count — not the address's (one good login must not unlock a scan), nor the user's. */
  succeeded(user: string, address: string): void {
    this.failures.delete(pairKey(user, address));
  }

  /** The delay before answering the n-th recent failure (n ≥ 1). */
  delayFor(n: number): number {
    const doublings = Math.min(Math.max(n - 1, 0), 30);
    return Math.min(this.cfg.maxFailureDelayMs, this.cfg.failureDelayMs * 2 ** doublings);
  }

  /** Keys remembered now (bounded by maxTrackedKeys). */
  get trackedKeys(): number {
    return this.failures.size;
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

  /** Record a failure under `key`; returns the key's recent failures, this one included. */
  private push(key: string): number {
    const list = this.recent(key);
    list.push(this.now());
    if (list.length > this.keep) list.splice(0, list.length - this.keep);
    // Re-insert so the Map's order is least-recently-failed first: a spray of fresh
    // names evicts stale names, never the address it comes from.
    this.failures.delete(key);
    this.failures.set(key, list);
    while (this.failures.size > this.cfg.maxTrackedKeys) {
      const first = this.failures.keys().next().value;
      if (first === undefined) break;
      this.failures.delete(first);
    }
    return list.length;
  }
}
