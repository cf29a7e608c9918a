/**
 * The catalog one statement is planned against: every name the statement
 * (and the views it reads, transitively) needs, loaded as the user before the
 * synchronous planner runs. It expires with the earliest catalog answer it
 * holds; a plan over it is then planned again (QueryPlan.valid()).
 */
import type { CatalogTable, CatalogView } from '../sql/catalogView.js';
import { candidateSchemas, catalogNeeds, type CatalogNeeds, type RelationName } from '../sql/needs.js';
import type { Caller, StorageCredential } from './iceberg/api.js';
import type { Catalog } from './catalog.js';
import type { Entry } from './catalogGate.js';
import type { Listing, UserCatalog } from './userCatalog.js';

export interface SnapshotContext {
  database: string;
  searchPath: string[];
  user: string;
}

type Found = { kind: 'table'; table: CatalogTable } | { kind: 'view'; view: CatalogView } | null;

/** Views inside views: a bound on how deep the collection goes (resolve.ts refuses cycles). */
const MAX_ROUNDS = 16;

/** Where a table read by the statement keeps its files, and the credentials the catalog vended for them. */
export interface TableStorage {
  location: string;
  credentials: StorageCredential[];
}

export class PlanSnapshot implements Catalog {
  constructor(
    private readonly schemas: string[],
    private readonly found: Map<string, Found>,
    readonly listing: Listing | null,
    readonly expiresAt: number,
    /** the tables the statement may read (looked up by name) */
    readonly storage: TableStorage[] = [],
    /** the namespaces the user may see, as the catalog has them (levels) */
    private readonly namespaces: readonly (readonly string[])[] = schemas.map((s) => [s]),
  ) {}

  /** A schema's namespace levels; null when the user sees no namespace of that name. */
  namespaceOf(schema: string): string[] | null {
    const ns = this.namespaces.find((n) => n.join('.') === schema);
    return ns ? [...ns] : null;
  }

  valid(): boolean {
    return Date.now() < this.expiresAt;
  }

  /** Names looked up for the statement that the catalog did not load (refused or missing), leaving out names found in another schema. */
  unloaded(): { schema: string; name: string }[] {
    const found = new Set<string>();
    const missing: { schema: string; name: string }[] = [];
    for (const [key, entry] of this.found) {
      const [schema, name] = key.split('\u0000') as [string, string];
      if (entry) found.add(name);
      else missing.push({ schema, name });
    }
    return missing.filter((m) => !found.has(m.name));
  }

  listSchemas(): string[] {
    // Every PostgreSQL database has `public`; clients assume it (search_path "$user", public).
    return [...new Set(['public', ...this.schemas])].sort();
  }

  private lookup(schema: string, name: string): Found {
    const key = `${schema}\u0000${name}`;
    if (this.found.has(key)) return this.found.get(key)!;
    if (this.listing) {
      const t = this.listing.tables.find((x) => x.schema === schema && x.name === name);
      if (t) return { kind: 'table', table: t };
      const v = this.listing.views.find((x) => x.schema === schema && x.name === name);
      if (v) return { kind: 'view', view: v };
      return null;
    }
    // Resolution asked for a name the collection did not foresee: fail, never guess.
    throw new Error(`catalog lookup of ${schema}.${name} was not prepared for this statement`);
  }

  getTable(schema: string, name: string): CatalogTable | undefined {
    const e = this.lookup(schema, name);
    return e?.kind === 'table' ? e.table : undefined;
  }

  getView(schema: string, name: string): CatalogView | undefined {
    const e = this.lookup(schema, name);
    return e?.kind === 'view' ? e.view : undefined;
  }

  listTables(): CatalogTable[] {
    return this.listing ? [...this.listing.tables] : [];
  }

  listViews(): CatalogView[] {
    return this.listing ? [...this.listing.views] : [];
  }
}

/**
 * Waits for `p` unless the statement is stopped first. What `p` stands for goes
 * on: a catalog load (another session of the same user may share it, bounded
 * by the catalog client's own timeouts), an engine connection being made.
 */
export function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** What a statement needs beyond the relations its tree names (a write's names, sql/write/statement.ts writeNeeds). */
export interface ExtraNeeds {
  relations: RelationName[];
  listing: boolean;
}

/**
 * Load what `root` needs, as the user, into a snapshot; `signal` (cancel,
 * statement_timeout) stops the wait. `extra`: names a write creates, renames
 * to or writes that its tree does not show. `temporary`: the session's
 * temporary tables, which an unqualified name means before any catalog name
 * (resolution never asks the catalog for those).
 */
export async function loadSnapshot(
  user: UserCatalog,
  caller: Caller,
  root: unknown,
  ctx: SnapshotContext,
  signal?: AbortSignal,
  extra?: ExtraNeeds,
  temporary: ReadonlySet<string> = new Set(),
): Promise<PlanSnapshot> {
  const namespaces = await abortable(user.namespaces(caller), signal);
  let expiresAt = namespaces.expiresAt;
  const found = new Map<string, Found>();
  let listing: Listing | null = null;
  const first = catalogNeeds(root);
  const needs: CatalogNeeds = extra
    ? { relations: [...first.relations, ...extra.relations], listing: first.listing || extra.listing }
    : first;
  let work: { needs: CatalogNeeds; searchPath: string[] }[] = [{ needs, searchPath: ctx.searchPath }];
  const seenViews = new Set<string>();
  const storage: TableStorage[] = [];
  for (let round = 0; work.length > 0 && round < MAX_ROUNDS; round++) {
    const next: typeof work = [];
    for (const { needs, searchPath } of work) {
      if (needs.listing && !listing) {
        const l = await abortable(user.listing(caller), signal);
        listing = l.value;
        expiresAt = Math.min(expiresAt, l.expiresAt);
      }
      for (const rel of needs.relations) {
        if (rel.catalog !== undefined && rel.catalog !== ctx.database) continue; // refused by resolution
        // the session's own temporary table (never inside a view's body, which the catalog holds)
        if (round === 0 && rel.schema === undefined && rel.catalog === undefined && temporary.has(rel.name)) continue;
        for (const schema of candidateSchemas(rel, { searchPath, user: ctx.user })) {
          const key = `${schema}\u0000${rel.name}`;
          let entry = found.get(key);
          if (!found.has(key)) {
            const t = await abortable(user.lookup(caller, schema, rel.name), signal);
            expiresAt = Math.min(expiresAt, t.expiresAt);
            const e: Entry | null = t.value;
            if (e?.kind === 'table') storage.push({ location: e.loaded.metadata.location, credentials: e.loaded.credentials });
            entry = e === null ? null : e.kind === 'table' ? { kind: 'table', table: e.table } : { kind: 'view', view: e.view };
            found.set(key, entry);
          }
          if (!entry) continue;
          if (entry.kind === 'view' && !seenViews.has(key)) {
            seenViews.add(key);
            next.push({ needs: catalogNeeds(entry.view.query), searchPath: [entry.view.defaultSchema] });
          }
          break;
        }
      }
    }
    work = next;
  }
  const schemas = namespaces.value.map((n) => n.join('.'));
  return new PlanSnapshot(schemas, found, listing, expiresAt, storage, namespaces.value);
}
