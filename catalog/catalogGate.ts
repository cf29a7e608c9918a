/**
 * The catalog gate: may this user load this table (see this schema, change
 * this table)? lakegate never answers it from grants of its own: the catalog
 * answers, as the user, and nobody tells a refusal from a miss: a relation
 * the user may not load does not exist for them, in name resolution (42P01)
 * as in pg_class and information_schema.
 *
 * Where it is asked: before a statement is planned, every name it needs is
 * loaded as the user (planSnapshot.ts loadSnapshot, from server/planner.ts)
 * through the user's cache (userCatalog.ts, which keeps answers, refusals and
 * misses alike for the TTL); the cache calls the two loaders below, and a
 * listing (pg_class) loads every table of every visible schema the same way.
 *
 * REST mode (catalog.source kind `rest`): Polaris decides. Every call carries
 * the user's own bearer token (iceberg/rest.ts); Polaris authorizes it as that
 * principal and answers 403 or 404, both of which are "not loadable" here.
 *
 * Embedded mode (kind `embedded`): lakegate is the catalog (iceberg/embedded.ts)
 * and decides as Polaris does with its Ranger authorizer: the entity is
 * resolved first, then every operation the call is checked as
 * (polaris/authorization.ts) is decided by the CatalogAuthorizer it was handed,
 * and `polarisGate` answers in Polaris's order. server/catalog.ts hands in
 * Polaris's Ranger authorizer evaluated here over the polaris-service policies
 * (policy/polaris/rangerAuthorizer.ts); catalog/ itself knows no policy model.
 *
 * What the user may then read of a table it loaded (rows, columns, masks) is
 * the data gate's question (policy/rewrite/).
 */
import { CatalogError, catalogErrors, type Caller, type IcebergCatalog, type LoadedTable } from './iceberg/api.js';
import { catalogTable, catalogView } from './iceberg/tables.js';
import type { PolarisPath } from './polaris/authorization.js';
import type { CatalogTable, CatalogView } from '../sql/catalogView.js';

/** A 403 and a 404 are one answer: the user may not load it, or it is missing; neither is shown. */
export const hiddenByCatalog = (e: unknown): boolean => e instanceof CatalogError && (e.kind === 'forbidden' || e.kind === 'not-found');

// ---------------------------------------------------------------- the loaders (both modes)

/** The catalog calls the gate makes, by the names the cache counts them under. */
export type CatalogCallName = 'listNamespaces' | 'loadNamespace' | 'listTables' | 'listViews' | 'loadTable' | 'loadView';

/** A call made to the catalog as the user (userCatalog.ts: counted, the token renewed once after a 401). */
export type AsUser = <T>(op: CatalogCallName, fn: (c: IcebergCatalog) => Promise<T>) => Promise<T>;

/** A relation the user may load: a table with its loaded metadata, or a view. */
export type Entry =
  | { kind: 'table'; ns: string[]; name: string; loaded: LoadedTable; table: CatalogTable }
  | { kind: 'view'; ns: string[]; name: string; view: CatalogView };

/** The namespaces this user may see: listed level by level, each probed with a metadata load (refused or missing: hidden, with what is below it). */
export async function visibleNamespaces(asUser: AsUser, caller: Caller): Promise<string[][]> {
  const visible: string[][] = [];
  const walk = async (parent: string[]): Promise<void> => {
    let children: string[][];
    try {
      children = await asUser('listNamespaces', (c) => c.listNamespaces(caller, parent));
    } catch (e) {
      if (hiddenByCatalog(e)) return;
      throw e;
    }
    for (const ns of children) {
      try {
        await asUser('loadNamespace', (c) => c.loadNamespace(caller, ns));
      } catch (e) {
        if (hiddenByCatalog(e)) continue;
        throw e;
      }
      visible.push(ns);
      await walk(ns);
    }
  };
  await walk([]);
  return visible;
}

/** Load as a table, then as a view; both refused or missing → null. */
export async function loadRelation(asUser: AsUser, caller: Caller, ns: string[], name: string): Promise<Entry | null> {
  try {
    const loaded = await asUser('loadTable', (c) => c.loadTable(caller, ns, name));
    return { kind: 'table', ns, name, loaded, table: catalogTable(ns, name, loaded, { kind: 'current' }) };
  } catch (e) {
    if (!hiddenByCatalog(e)) throw e;
  }
  try {
    const loaded = await asUser('loadView', (c) => c.loadView(caller, ns, name));
    return { kind: 'view', ns, name, view: catalogView(ns, name, loaded) };
  } catch (e) {
    if (!hiddenByCatalog(e)) throw e;
  }
  return null;
}

// ---------------------------------------------------------------- embedded mode

/** One call to the embedded catalog, as its authorizer is asked about it. */
export interface CatalogCall {
  caller: Caller;
  /** The Polaris operations the call is checked as (a commit: its fine-grained ones, in Polaris's order). */
  operations: readonly string[];
  target: PolarisPath;
  /** A rename's destination: the operation's secondary securable. */
  secondary?: PolarisPath;
  /**
   * The entity exists: the decisions are recorded (audited) as Polaris's own
   * authorizer records them. A missing entity is decided all the same, so a
   * denial costs what a miss costs.
   */
  recorded: boolean;
}

/** Decides the calls of the embedded catalog (Polaris's PolarisAuthorizer; server/ hands in the Ranger-backed one). */
export interface CatalogAuthorizer {
  /**
   * Decides every operation of the call; returns the first refused one (the
   * one Polaris's 403 names), or null when all are allowed. With no usable
   * policies (not loaded, or stale) every operation is refused.
   */
  firstRefused(call: CatalogCall): string | null;
}

/**
 * Polaris's order: every operation is decided (and recorded when the entity
 * exists), then a missing entity is 404 (`missing`), then the first refused
 * operation 403.
 */
export function polarisGate(authorizer: CatalogAuthorizer, call: Omit<CatalogCall, 'recorded'>, missing: CatalogError | null): void {
  const refused = authorizer.firstRefused({ ...call, recorded: missing === null });
  if (missing) throw missing;
  if (refused !== null) throw catalogErrors.forbidden(call.caller.user, refused);
}
