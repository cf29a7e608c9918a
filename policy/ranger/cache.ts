/**
 * The policy set in force, refreshed from a PolicySource, failing closed.
 *
 *   never-loaded ──ok──▶ fresh ──refresh fails──▶ stale ──maxStaleness passed──▶ expired
 *        ▲                 ▲                        │                              │
 *        └─ fails: stays   └────────── a refresh succeeds (also 304) ──────────────┘
 *
 * `current()` is null in never-loaded and expired: the caller denies every
 * decision and returns no rows. In stale the last good set is served, but only
 * until maxStalenessMs after the last successful refresh (design.md: staleness is
 * bounded). Expiry is checked on every read, not only by the timer, so a stuck
 * timer or a hung fetch cannot stretch the bound.
 *
 * A snapshot that fails to compile is a failed refresh: the good set stays (until
 * maxStalenessMs, as for any failed refresh), and the next refresh asks for the whole
 * set again rather than letting the source call the refused one "unchanged".
 * Refreshes never overlap; flush() waits for a refresh that started after it was
 * called, so a GRANT's own change is in the set when flush() resolves.
 */
import type { Logger } from 'pino';
import { PolicySourceError, type PolicySnapshot, type PolicySource, type SnapshotVersions } from './sources/source.js';

export type CacheState = 'never-loaded' | 'fresh' | 'stale' | 'expired';

export interface PolicyCacheOptions<E> {
  source: PolicySource;
  /** Builds the evaluator's form of a snapshot; a throw refuses the snapshot. */
  compile: (s: PolicySnapshot) => E;
  /** Poll interval. */
  ttlMs: number;
  /** How long after the last successful refresh a stale set may still be served. */
  maxStalenessMs: number;
  logger: Logger;
  now?: () => number;
}

export interface CacheChange {
  from: CacheState;
  to: CacheState;
  /** Versions of the set in force after the change (null when none is). */
  versions: SnapshotVersions | null;
  /** True when a new snapshot replaced the set in force. */
  replaced: boolean;
  cause: string;
}

export type CacheListener = (change: CacheChange) => void;

export class PolicyCache<E> {
  private _state: CacheState = 'never-loaded';
  private compiled: E | null = null;
  private _versions: SnapshotVersions | null = null;
  private _lastSuccessAt: number | null = null;
  private _lastError: Error | null = null;
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  /**
   * A refused snapshot was fetched: the source now holds it and could answer "unchanged"
   * against the versions in force (a hand-edited file keeps its policyVersion), which
   * would pass the refused set off as a successful refresh. Ask for everything again.
   */
  private refetchWhole = false;
  private abort = new AbortController();
  private readonly listeners = new Set<CacheListener>();
  private readonly now: () => number;
  private readonly log: Logger;

  constructor(private readonly opts: PolicyCacheOptions<E>) {
    if (!(opts.ttlMs > 0)) throw new RangeError('ttlMs must be positive');
    if (!(opts.maxStalenessMs >= opts.ttlMs)) throw new RangeError('maxStalenessMs must be at least ttlMs');
    this.now = opts.now ?? Date.now;
    this.log = opts.logger.child({ component: 'policy-cache', source: opts.source.describe() });
  }

  get state(): CacheState {
    this.checkExpiry();
    return this._state;
  }
  /** Versions of the last good set (also while stale or expired); null before the first load. */
  get versions(): SnapshotVersions | null {
    return this._versions;
  }
  get lastSuccessAt(): number | null {
    return this._lastSuccessAt;
  }
  get lastError(): Error | null {
    return this._lastError;
  }

  /** The set to decide with, or null: deny everything, return no rows. */
  current(): E | null {
    this.checkExpiry();
    return this._state === 'fresh' || this._state === 'stale' ? this.compiled : null;
  }

  onChange(listener: CacheListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Loads once now and then every ttlMs. Resolves when the first load has finished (loaded or not). */
  start(): Promise<void> {
    if (this.started) return this.running ?? Promise.resolve();
    this.started = true;
    return this.tick();
  }

  /** Stops polling and abandons a fetch in flight. */
  stop(): void {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort();
    // A later refresh() or start() gets a signal of its own.
    this.abort = new AbortController();
  }

  /** One refresh; joins the one in flight if any. Never rejects: the outcome is the state. */
  refresh(): Promise<void> {
    if (!this.running) {
      this.running = this.refreshOnce().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  /**
   * A refresh that starts after this call (after GRANT / REVOKE / SET TAG): a
   * refresh already in flight may have read Ranger before the change, so it is
   * waited for and followed by another. Concurrent flushes share that one.
   */
  flush(): Promise<void> {
    if (!this.running) return this.refresh();
    if (!this.queued) {
      this.queued = this.running.then(() => {
        this.queued = null;
        return this.refresh();
      });
    }
    return this.queued;
  }

  private tick(): Promise<void> {
    return this.refresh().finally(() => {
      if (!this.started) return;
      this.timer = setTimeout(() => void this.tick(), this.opts.ttlMs);
      this.timer.unref();
    });
  }

  private async refreshOnce(): Promise<void> {
    const known = this._versions && !this.refetchWhole
      ? { policyVersion: this._versions.policyVersion, roleVersion: this._versions.roleVersion, tagVersion: this._versions.tagVersion }
      : null;
    const signal = this.abort.signal;
    let snapshot: PolicySnapshot;
    try {
      const r = await this.opts.source.fetch(known, signal);
      if (!r.changed) {
        if (this.compiled === null) throw new Error('source answered "unchanged" but no set is loaded');
        this.succeeded(null, 'unchanged');
        return;
      }
      snapshot = r.snapshot;
    } catch (e) {
      if (signal.aborted) return; // stopped: not a failure of the source
      this.failed(e, 'fetch');
      return;
    }
    let compiled: E;
    try {
      compiled = this.opts.compile(snapshot);
    } catch (e) {
      this.refetchWhole = true;
      this.failed(e, 'compile');
      return;
    }
    this.refetchWhole = false;
    this.succeeded({ compiled, versions: snapshot.versions }, 'loaded');
  }

  private succeeded(next: { compiled: E; versions: SnapshotVersions } | null, cause: 'loaded' | 'unchanged') {
    const from = this.state;
    const previous = this._versions;
    if (next) {
      this.compiled = next.compiled;
      this._versions = next.versions;
    }
    this._lastSuccessAt = this.now();
    this._lastError = null;
    this._state = 'fresh';
    if (next || from !== 'fresh') {
      const why =
        cause === 'unchanged'
          ? 'refresh succeeded, set unchanged'
          : previous
            ? `new policy set (was ${fmt(previous)})`
            : 'first policy set loaded';
      this.changed({ from, to: 'fresh', versions: this._versions, replaced: next !== null, cause: why }, 'info');
    }
  }

  private failed(e: unknown, stage: 'fetch' | 'compile') {
    const error = e instanceof Error ? e : new Error(String(e));
    this._lastError = error;
    const from = this.state;
    // Only the message: a PolicySourceError's is written to be safe to log, and
    // causes (sockets, requests) are not logged at all.
    const cause = `${stage} failed: ${error.message}`;
    const kind = error instanceof PolicySourceError ? error.kind : stage;
    if (from === 'fresh') {
      this._state = 'stale';
      this.changed({ from, to: 'stale', versions: this._versions, replaced: false, cause }, 'warn', kind);
      this.checkExpiry();
    } else {
      // never-loaded, stale and expired stay as they are; say so each time.
      this.log.warn({ state: from, versions: this._versions, kind, cause }, 'policy refresh failed');
    }
  }

  private checkExpiry() {
    if (this._state !== 'fresh' && this._state !== 'stale') return;
    const age = this.now() - (this._lastSuccessAt ?? 0);
    if (age <= this.opts.maxStalenessMs) return;
    const from = this._state;
    this._state = 'expired';
    this.changed(
      {
        from,
        to: 'expired',
        versions: this._versions,
        replaced: false,
        cause: `no successful refresh for ${age} ms (max staleness ${this.opts.maxStalenessMs} ms): denying everything`,
      },
      'error',
    );
  }

  private changed(c: CacheChange, level: 'info' | 'warn' | 'error', kind?: string) {
    this.log[level](
      { from: c.from, to: c.to, versions: c.versions, replaced: c.replaced, ...(kind ? { kind } : {}), cause: c.cause },
      c.from === c.to ? `policy set replaced (${c.to})` : `policy cache ${c.from} -> ${c.to}`,
    );
    for (const l of this.listeners) {
      try {
        l(c);
      } catch (e) {
        this.log.error({ error: e instanceof Error ? e.message : String(e) }, 'policy cache listener threw');
      }
    }
  }
}

function fmt(v: SnapshotVersions): string {
  return `policy ${v.policyVersion}, role ${v.roleVersion}, tag ${v.tagVersion}`;
}
