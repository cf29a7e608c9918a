/**
 * What the planner needs to know about the user's tables. catalog/ implements
 * it (catalog/catalog.ts `Catalog` extends it); it lives here because sql/
 * may not import catalog/.
 */
import type { PgNode } from './walk.js';

export interface CatalogColumn {
  name: string;
  /** DuckDB type as DuckDB prints it, e.g. DECIMAL(10,2): sql/pgTypes.ts maps it */
  duckType: string;
  nullable: boolean;
  /** Iceberg field id, where the table has them (tags follow the field, not the name) */
  fieldId?: number;
  /**
   * The column the policies decide this one as, when that is not `name`: a
   * table read as of an older snapshot holds that snapshot's names, but
   * policies name today's columns, so each is decided as the current
   * schema's column with its field id. null: the field is no longer in the
   * table (dropped), and the column is restricted whatever a policy says.
   */
  policyName?: string | null;
  /** COMMENT ON COLUMN (the Iceberg field's doc): col_description, psql's \d+. */
  comment?: string;
  /**
   * A PostgreSQL json / jsonb column kept as an Iceberg string (the table's
   * `lakegate.pg-types`): its duckType is JSON, the scan reads text, and the
   * column is presented as this type.
   */
  pgType?: 'json' | 'jsonb';
}

/** The name the policies decide a column by (its current name); null: restricted, no policy applies. */
export function policyNameOf(c: CatalogColumn): string | null {
  return c.policyName === undefined ? c.name : c.policyName;
}

/** The table in the query service's policy terms (Ranger hive service type). */
export interface PolicyResource {
  /** the namespace path, levels joined with '.' */
  database: string;
  table: string;
}

export interface CatalogTable {
  schema: string;
  name: string;
  columns: CatalogColumn[];
  /** Which Ranger resource governs this table's rows and columns (the data gate). */
  resource: PolicyResource;
  /**
   * The stored rows as the engine reads them: a FROM item without an alias
   * (a qualified RangeVar, or a RangeFunction over iceberg_scan). Built by the
   * catalog and trusted; only the data gate's derived table may contain it.
   * Returns a fresh tree each call.
   */
  scan(): PgNode;
  /** The snapshot the scan reads (decimal), for the audit trail; null: the table has none yet. */
  snapshotId?: string | null;
  /**
   * Column → tags, keyed by the name the policies decide the column by
   * (policyNameOf), when the table carries its own (Iceberg property).
   * undefined: this catalog does not know (the data gate asks its configured
   * tag source); null: the tags could not be read (fail closed: no rows).
   */
  columnTags?: Readonly<Record<string, readonly string[]>> | null;
  /** COMMENT ON TABLE (Iceberg's `comment` property): obj_description, psql's \d+. */
  comment?: string;
  /**
   * An Iceberg metadata table (`orders$files`): the data gate decides it as
   * `base` and reads its rows from `rows`, built with what the decision hides
   * (its `scan()` is a placeholder that never runs). `rows` may throw a
   * SqlError (the metadata could not be read, too many rows).
   */
  metadataOf?: { base: CatalogTable; rows(hiding: MetadataHiding): PgNode };
}

/** What a metadata table hides, from the data gate's decision on its base table. */
export interface MetadataHiding {
  /** the base table's columns (by their current names) the user reads as stored: neither masked nor restricted */
  visibleColumns: ReadonlySet<string>;
  /** the user reads the base table through a row filter (or may see no row): counts and statistics describe rows hidden from them */
  rowFiltered: boolean;
}

/**
 * A view from the catalog. It is not a security boundary: its query is
 * checked like the user's own and its base tables are resolved and gated as
 * the querying user.
 */
export interface CatalogView {
  schema: string;
  name: string;
  /** the view's output columns (its stored schema), names applied to the query's output */
  columns: CatalogColumn[];
  /** the parsed SelectStmt wrapper of the view's SQL; resolution works on a copy */
  query: PgNode;
  /** where the view's unqualified names are looked up */
  defaultSchema: string;
  /** COMMENT ON VIEW (the view's `comment` property). */
  comment?: string;
}

export interface RelationCatalog {
  /** schemas this user may see, in the PostgreSQL database the session is connected to */
  listSchemas(): string[];
  /** undefined when missing or not visible to this user: the two are indistinguishable */
  getTable(schema: string, name: string): CatalogTable | undefined;
  /** A view of that name, when the catalog has views (tables are looked up first). */
  getView?(schema: string, name: string): CatalogView | undefined;
}
