/**
 * What planning a write needs besides the read context: where the session
 * attached its Iceberg catalog, its temporary tables, what the catalog lets
 * the user see, and the policy decisions (policy/rewrite/, wired in by
 * server/planner.ts: sql/ may not import policy/).
 */
import type { CatalogTable, CatalogView } from '../catalogView.js';
import type { SqlError } from '../errors.js';
import type { QueryContext } from '../query.js';
import type { TableReference } from '../resolve.js';
import type { TempScope } from '../tempTables.js';
import type { PgNode } from '../walk.js';
import type { OutputColumn } from './sources.js';

/** Ranger's hive access types a write asks for, as the Hive plugin maps statements to them. */
export type HiveAccess = 'update' | 'create' | 'drop' | 'alter';

/** One access check of a write. */
export interface WriteCheck {
  access: HiveAccess;
  /** The query service's resource: the namespace path and, for a table-level check, the table (or view). */
  resource: { database: string; table?: string };
  /** What the user is told when it is refused: PostgreSQL's words for the case (42501). */
  denial: SqlError;
}

/** The policy side of a write (policy/rewrite/ behind server/planner.ts). */
export interface WritePolicy {
  /** Every check decided as Ranger's Hive plugin would: the first refused one is thrown (its denial); all are audited with the write. */
  require(checks: readonly WriteCheck[]): void;
  /**
   * The target of UPDATE / DELETE / MERGE / TRUNCATE, which the engine reads as
   * stored: refused (42501 `permission denied for table t`, the reason as
   * DETAIL) unless the user sees it so (no row filter, no mask but MASK_NONE,
   * no restricted column).
   */
  requireStored(table: CatalogTable): void;
  /** The data gate's rewrite of every table the statement reads (planQuery's rewriteTables). */
  rewriteTables(tables: TableReference[], ctx: QueryContext, tree: PgNode): void;
  /** The tags of each output column (lineage, policy/rewrite/lineage.ts), by name. */
  tagsOf(outputs: readonly OutputColumn[]): Record<string, string[]>;
  /** The tags the columns of an existing table carry now (an INSERT's target keeps them). */
  tableTags(table: CatalogTable): Readonly<Record<string, readonly string[]>>;
}

export interface WriteContext extends QueryContext {
  /** The DuckDB catalog the session attached its Iceberg catalog under. */
  writeAlias: string;
  temp: TempScope;
  /** A schema the user may see → its Iceberg namespace levels; null when there is no such namespace (PostgreSQL's `public` may be only a name). */
  namespaceOf(schema: string): string[] | null;
  /** What the catalog lets the user load (not narrowed by the data gate): a schema's content, for DROP SCHEMA. */
  listing: { tables: readonly CatalogTable[]; views: readonly CatalogView[] } | null;
  policy: WritePolicy;
}
