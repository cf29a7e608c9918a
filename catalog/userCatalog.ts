/**
 * Name resolution through the Iceberg catalog, as one user, the way SQE does
 * it: the catalog's namespaces are listed and each is probed with a
 * namespace-metadata load (a 403 hides it); a table or view load answered 403
 * or 404 is a relation that does not exist, whichever it was. Answers are
 * cached per user for `ttlMs` (denials and misses too, so a second look costs
 * the same either way); past the TTL nothing is served without asking again.
 * The cache is bounded: at most `maxEntriesPerUser` table answers per user and
 * `maxEntries` in all (the least recently used go first), and a sweep drops
 * expired answers and idle users, so a flood of distinct names costs a bounded
 * amount of memory that is given back.
 *
 * A 401 makes the session renew its token once; a catalog that still refuses
 * it ends the session (CatalogLoginError). A catalog that cannot be reached
 * fails the statement (CatalogError 'unavailable').
 */
import type { CatalogTable, CatalogView } from '../sql/catalogView.js';
import { SqlError } from '../sql/errors.js';
import { CatalogError, type Caller, type IcebergCatalog } from './iceberg/api.js';
import { hiddenByCatalog, loadRelation, visibleNamespaces, type CatalogCallName, type Entry } from './catalogGate.js';
import type { SnapshotSelector } from './iceberg/metadata.js';
import { metadataCatalogTable, readMetadataSource, splitMetadataName, type MetadataTableKind } from './iceberg/metadataTables.js';
import { catalogTable } from './iceberg/tables.js';

export interface CatalogCacheOptions {
  /** How long an answer of the catalog is used for a user (ms). */
  ttlMs: number;
  /** Table loads in flight at once while listing everything a user may load. */
  loadConcurrency: number;
  /** Table and view answers (misses included) kept per user; the least recently used go first. Default 10,000. */
  maxEntriesPerUser?: number;
  /** Table and view answers kept over all users; the least recently active user's oldest go first. Default 100,000. */
  maxEntries?: number;
  /** The clock answers expire by (tests). */
  now?: () => number;
}

export const DEFAULT_MAX_ENTRIES_PER_USER = 10_000;
export const DEFAULT_MAX_ENTRIES = 100_000;

/** The session's login is no longer accepted by the catalog: the session ends. */
export class CatalogLoginError extends Error {
  constructor(readonly user: string) {
    super(`the catalog no longer accepts the login of user "${user}"`);
    this.name = 'CatalogLoginError';
  }
}

export interface Timed<T> {
  value: T;
  expiresAt: number;
}

/** Everything a user may load: the catalog emulation (pg_class …) shows exactly this. */
export interface Listing {
  schemas: string[];
  tables: CatalogTable[];
  views: CatalogView[];
}

/** One cache slot: a shared in-flight load, then its answer until it expires. Failures are not kept. */
class Slot<T> {
  private pending: Promise<Timed<T>> | null = null;
  private done: Timed<T> | null = null;
  /** Bumped by forget(): a load started before does not store its answer. */
  private epoch = 0;

  constructor(private readonly now: () => number) {}

  /** Nothing in flight and no answer still good: the slot can go. */
  stale(): boolean {
    return this.pending === null && (this.done === null || this.now() >= this.done.expiresAt);
  }

  /** Forget an expired answer (its memory), keeping a load in flight. */
  dropExpired(): void {
    if (this.done && this.now() >= this.done.expiresAt) this.done = null;
  }

  /** Forget the answer and any load in flight: the next get asks again (after a write changed it). */
  forget(): void {
    this.done = null;
    this.pending = null;
    this.epoch++;
  }

  get(load: () => Promise<T>, ttlMs: number): Promise<Timed<T>> {
    if (this.done && this.now() < this.done.expiresAt) return Promise.resolve(this.done);
    if (!this.pending) {
      const started = this.now();
      const epoch = this.epoch;
      const pending: Promise<Timed<T>> = load().then(
        (value) => {
          const answer = { value, expiresAt: started + ttlMs };
          if (this.epoch === epoch) {
            this.done = answer;
            this.pending = null;
          }
          return answer;
        },
        (e: unknown) => {
          if (this.epoch === epoch) this.pending = null;
          throw e;
        },
      );
      this.pending = pending;
    }
    return this.pending;
  }

  /** A value learned elsewhere (a listing loads every table). */
  put(value: Timed<T>): void {
    if (!this.done || this.done.expiresAt < value.expiresAt) this.done = value;
  }
}

export class CatalogService {
  /** Each user's answers, the least recently active user first. */
  private readonly users = new Map<string, UserCatalog>();
  /** Table and view answers held by the users above. */
  private entryCount = 0;
  private readonly sweeper: NodeJS.Timeout;
  readonly now: () => number;
  readonly maxEntriesPerUser: number;
  readonly maxEntries: number;
  /** Round trips made, by call; the bench reads them. */
  readonly calls: Record<CatalogCallName, number> = { listNamespaces: 0, loadNamespace: 0, listTables: 0, listViews: 0, loadTable: 0, loadView: 0 };

  constructor(
    readonly client: IcebergCatalog,
    readonly opts: CatalogCacheOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.maxEntriesPerUser = opts.maxEntriesPerUser ?? DEFAULT_MAX_ENTRIES_PER_USER;
    this.maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
    // Expired answers are never served; the sweep gives their memory back even when nobody asks again.
    this.sweeper = setInterval(() => this.sweep(), Math.max(1000, opts.ttlMs));
    this.sweeper.unref();
  }

  /** Bumped by flush(): a plan made over an older generation plans again. */
  generation = 0;

  /** Forget every user's answers (after GRANT / REVOKE / SET TAG): the next statement asks the catalog again. */
  flush(): void {
    this.users.clear();
    this.entryCount = 0;
    this.generation++;
  }

  /**
   * A table, view or namespace was changed through lakegate (a write): every
   * user's answer for it and every listing are asked again, and plans made
   * before plan again (the generation), so the next statement of every
   * session reads what was committed.
   */
  changed(ns: readonly string[], name?: string): void {
    for (const u of this.users.values()) this.entryCount -= u.forget(ns, name);
    this.generation++;
  }

  forUser(user: string): UserCatalog {
    let u = this.users.get(user);
    if (u) this.users.delete(user);
    else u = new UserCatalog(this, user);
    this.users.set(user, u);
    return u;
  }

  /** Answers held now: per user and in all (for tests and diagnostics). */
  size(): { users: number; entries: number } {
    return { users: this.users.size, entries: this.entryCount };
  }

  /** A user catalog still served (one dropped by flush() or the sweep may finish a statement, uncounted). */
  private current(u: UserCatalog): boolean {
    return this.users.get(u.user) === u;
  }

  /** A user added an answer: keep within the bounds, oldest first. */
  added(u: UserCatalog): void {
    if (!this.current(u)) return;
    this.entryCount++;
    while (u.entryCount > this.maxEntriesPerUser && u.evictOldest()) this.entryCount--;
    for (const other of this.users.values()) {
      if (this.entryCount <= this.maxEntries) break;
      while (this.entryCount > this.maxEntries && other.evictOldest()) this.entryCount--;
    }
  }

  /** Drop expired answers, and users with nothing left. */
  sweep(): void {
    for (const [name, u] of this.users) {
      this.entryCount -= u.dropStale();
      if (u.idle()) this.users.delete(name);
    }
  }

  close(): void {
    clearInterval(this.sweeper);
    this.client.close();
  }
}

function splitSelector(name: string): { base: string; selector: SnapshotSelector } | null {
  const at = name.lastIndexOf('@');
  if (at <= 0 || at === name.length - 1) return null;
  const base = name.slice(0, at);
  const spec = name.slice(at + 1);
  if (/^-?\d+$/.test(spec)) return { base, selector: { kind: 'id', id: BigInt(spec) } };
  if (/^\d{4}-\d{2}-\d{2}([ T].*)?$/.test(spec)) {
    // A time without a zone is UTC, as the engine computes.
    const iso = spec.replace(' ', 'T');
    const ms = Date.parse(/([zZ]|[+-]\d{2}(:?\d{2})?)$/.test(iso) || !iso.includes('T') ? iso : `${iso}Z`);
    if (Number.isNaN(ms)) throw new SqlError('22007', `invalid time travel timestamp "${spec}"`);
    return { base, selector: { kind: 'time', epochMs: ms } };
  }
  return { base, selector: { kind: 'ref', name: spec } };
}

export class UserCatalog {
  private readonly namespaceSlot: Slot<string[][]>;
  private readonly listingSlot: Slot<Listing>;
  /** Table and view answers, the least recently used first. */
  private readonly entries = new Map<string, Slot<Entry | null>>();

  constructor(
    private readonly service: CatalogService,
    readonly user: string,
  ) {
    this.namespaceSlot = new Slot(service.now);
    this.listingSlot = new Slot(service.now);
  }

  get entryCount(): number {
    return this.entries.size;
  }

  /** Drops the least recently used answer; false when there is none. */
  evictOldest(): boolean {
    const first = this.entries.keys().next();
    if (first.done) return false;
    this.entries.delete(first.value);
    return true;
  }

  /** Forgets the answers for one table or view (with its time travels), or for a whole namespace, and the listings; returns how many went. */
  forget(ns: readonly string[], name?: string): number {
    const prefix = `${ns.join('\u001f')}\u0000`;
    let dropped = 0;
    for (const key of [...this.entries.keys()]) {
      if (!key.startsWith(prefix)) continue;
      const rest = key.slice(prefix.length);
      if (name !== undefined && rest !== name && !rest.startsWith(`${name}@`) && !rest.startsWith(`${name}$`)) continue;
      this.entries.delete(key);
      dropped++;
    }
    this.namespaceSlot.forget();
    this.listingSlot.forget();
    return dropped;
  }

  /** Drops expired answers; returns how many went. */
  dropStale(): number {
    let dropped = 0;
    for (const [key, slot] of this.entries) {
      if (!slot.stale()) continue;
      this.entries.delete(key);
      dropped++;
    }
    this.namespaceSlot.dropExpired();
    this.listingSlot.dropExpired();
    return dropped;
  }

  /** Nothing cached and nothing in flight. */
  idle(): boolean {
    return this.entries.size === 0 && this.namespaceSlot.stale() && this.listingSlot.stale();
  }

  private get ttl(): number {
    return this.service.opts.ttlMs;
  }

  /** A catalog call; after a 401 the token is renewed once and the call made again. */
  private async call<T>(caller: Caller, op: CatalogCallName, fn: (c: IcebergCatalog) => Promise<T>): Promise<T> {
    this.service.calls[op]++;
    try {
      return await fn(this.service.client);
    } catch (e) {
      if (!(e instanceof CatalogError) || e.kind !== 'unauthorized') throw e;
      if (!caller.refresh || !(await caller.refresh())) throw new CatalogLoginError(this.user);
      this.service.calls[op]++;
      try {
        return await fn(this.service.client);
      } catch (again) {
        if (again instanceof CatalogError && again.kind === 'unauthorized') throw new CatalogLoginError(this.user);
        throw again;
      }
    }
  }

  /** The namespaces this user may see (catalogGate.ts visibleNamespaces). */
  namespaces(caller: Caller): Promise<Timed<string[][]>> {
    return this.namespaceSlot.get(() => visibleNamespaces((op, fn) => this.call(caller, op, fn), caller), this.ttl);
  }

  private async namespaceOf(caller: Caller, schema: string): Promise<{ ns: string[] | null; expiresAt: number }> {
    const t = await this.namespaces(caller);
    return { ns: t.value.find((n) => n.join('.') === schema) ?? null, expiresAt: t.expiresAt };
  }

  /**
   * A table or view by PostgreSQL schema and name; null when missing or not
   * loadable. `name@<snapshot id | timestamp | branch or tag>` reads a table
   * as of that snapshot.
   */
  async lookup(caller: Caller, schema: string, name: string): Promise<Timed<Entry | null>> {
    const { ns, expiresAt } = await this.namespaceOf(caller, schema);
    if (!ns) return { value: null, expiresAt };
    const exact = await this.entry(caller, ns, name);
    if (exact.value) return exact;
    const meta = splitMetadataName(name);
    if (meta) return this.metadataTable(caller, ns, schema, meta.base, meta.kind);
    if (!name.includes('@')) return exact;
    const travel = splitSelector(name);
    if (!travel) return exact;
    const base = await this.entry(caller, ns, travel.base);
    if (!base.value) return base;
    if (base.value.kind !== 'table') throw new SqlError('0A000', `time travel on view "${schema}.${travel.base}" is not supported`);
    const table = catalogTable(ns, travel.base, base.value.loaded, travel.selector);
    return { value: { ...base.value, table: { ...table, name: travel.base } }, expiresAt: base.expiresAt };
  }

  /**
   * `orders$snapshots` …: loaded as the base table (the catalog gate's
   * answer for it, a view or a missing table: none), its metadata read now,
   * its rows built once the data gate has decided (metadataTables.ts).
   */
  private async metadataTable(caller: Caller, ns: string[], schema: string, baseName: string, kind: MetadataTableKind): Promise<Timed<Entry | null>> {
    const base = await this.entry(caller, ns, baseName);
    if (!base.value || base.value.kind !== 'table') return { value: null, expiresAt: base.expiresAt };
    const { loaded, table } = base.value;
    const source = await readMetadataSource(kind, loaded, `${schema}.${baseName}$${kind}`);
    return { value: { ...base.value, table: metadataCatalogTable(ns, kind, table, loaded, source) }, expiresAt: base.expiresAt };
  }

  private slot(ns: readonly string[], name: string): Slot<Entry | null> {
    const key = `${ns.join('\u001f')}\u0000${name}`;
    let s = this.entries.get(key);
    if (s) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, s);
      return s;
    }
    s = new Slot(this.service.now);
    this.entries.set(key, s);
    this.service.added(this);
    return s;
  }

  /** A table or view as the user may load it (catalogGate.ts loadRelation); refused or missing → null. */
  private entry(caller: Caller, ns: string[], name: string): Promise<Timed<Entry | null>> {
    return this.slot(ns, name).get(() => loadRelation((op, fn) => this.call(caller, op, fn), caller, ns, name), this.ttl);
  }

  /** Every table and view this user may load, for the catalog emulation. */
  listing(caller: Caller): Promise<Timed<Listing>> {
    return this.listingSlot.get(async () => {
      const namespaces = (await this.namespaces(caller)).value;
      const names: { ns: string[]; name: string }[] = [];
      for (const ns of namespaces) {
        for (const op of ['listTables', 'listViews'] as const) {
          try {
            const found = await this.call(caller, op, (c) => (op === 'listTables' ? c.listTables(caller, ns) : c.listViews(caller, ns)));
            for (const name of found) names.push({ ns, name });
          } catch (e) {
            if (!hiddenByCatalog(e)) throw e;
          }
        }
      }
      const entries = await inParallel(names, this.service.opts.loadConcurrency, async ({ ns, name }) => {
        try {
          return (await this.entry(caller, ns, name)).value;
        } catch (e) {
          // A table whose metadata lakegate cannot read is left out of the listing, not the whole listing.
          if (e instanceof SqlError) return null;
          throw e;
        }
      });
      const schemas = [...new Set(namespaces.map((n) => n.join('.')))];
      const tables: CatalogTable[] = [];
      const views: CatalogView[] = [];
      for (const e of entries) {
        if (e?.kind === 'table') tables.push(e.table);
        else if (e?.kind === 'view') views.push(e.view);
      }
      return { schemas, tables, views };
    }, this.ttl);
  }
}

async function inParallel<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
