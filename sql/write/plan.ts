/**
 * What a write statement becomes once it is checked, resolved and gated: the
 * contract between the write planner (sql/write/, policy/rewrite/, the
 * server's planner) and the session that carries it out (server/write/).
 *
 * A write is done one of three ways:
 * - `engine`: one DuckDB statement on the session's engine connection, against
 *   the Iceberg catalog the session attached (`ctx.writeAlias`, the loopback
 *   endpoint as the session's user) or the session's own temporary tables.
 *   It runs inside the session's DuckDB transaction (committed at COMMIT, or at
 *   once outside a block); DuckDB commits each table through the endpoint.
 * - `table-as`: CREATE TABLE … AS / SELECT … INTO: the session learns the
 *   query's column types from the engine (prepare), creates the table with
 *   Iceberg's types, and fills it with `INSERT … SELECT` in one DuckDB
 *   transaction.
 * - `catalog`: what DuckDB cannot do (schemas, views, renames, drops with
 *   purge, comments): the session calls the Iceberg catalog itself, as the user.
 *
 * Every name in a plan was resolved as the session's user: what the user may
 * not load was answered 42P01 while planning, as a read answers it. The data
 * gate has decided the write (Ranger's hive access types) and rewritten every
 * table the statement reads; a DML statement whose target the user sees
 * through a row filter or mask was refused (42501), never planned.
 */

/** A relation a write names, resolved as the user sees it. */
export interface WriteTarget {
  /** `iceberg`: a table of the catalog; `temp`: one of the session's temporary tables (in its engine connection). */
  kind: 'iceberg' | 'temp';
  /** The namespace levels (empty for a temporary table). */
  namespace: string[];
  name: string;
  /** The name in the plan's DuckDB SQL: `"<writeAlias>"."ns"."t"`, or `temp.main."t"`. */
  engineName: string;
}

/** A column as a write creates it: its PostgreSQL type as declared or computed, and what the engine stores. */
export interface WriteColumn {
  name: string;
  /** The DuckDB type written (within what DuckDB's iceberg extension accepts): e.g. INTEGER for int2, VARCHAR for jsonb. */
  duckType: string;
  /** The PostgreSQL type it is read back as when the engine type alone would not say (jsonb kept as a column property), else undefined. */
  pgType?: string;
  nullable: boolean;
  /** Tags this column takes on from the columns it is computed from (policy/rewrite lineage). */
  tags?: string[];
}

export interface EngineWrite {
  kind: 'engine';
  /** PostgreSQL's command tag without its count: INSERT, UPDATE, DELETE, MERGE, TRUNCATE TABLE, ALTER TABLE, CREATE TABLE … */
  tag: string;
  /** One DuckDB statement, produced from the checked and rewritten tree only. */
  sql: string;
  /** The statement's changed-row count is the tag's count (INSERT 0 n, UPDATE n …). */
  counts: boolean;
  target: WriteTarget;
  /** A DDL statement (CREATE TABLE, ALTER TABLE): the session commits pending work before it and after it. */
  ddl: boolean;
  /** Columns of a table this statement creates (CREATE TABLE (…)); their kept PostgreSQL types and tags are set on it. */
  created?: WriteColumn[];
  /** Tags the target's columns take on from what the statement reads (INSERT … SELECT, MERGE): merged into its `sqe.column-tags`. */
  columnTags?: Record<string, string[]>;
  /** An INSERT's columns, in the order its values are given (COPY FROM reads its rows' fields in this order). */
  columns?: string[];
}

export interface TableAsWrite {
  kind: 'table-as';
  /** CREATE TABLE AS, or SELECT INTO (tag SELECT n). */
  tag: 'CREATE TABLE AS' | 'SELECT';
  target: WriteTarget;
  ifNotExists: boolean;
  /** WITH NO DATA: create only. */
  withData: boolean;
  /** The gated query in DuckDB SQL (prepared by the session to learn its types, then inserted from). */
  querySql: string;
  /** The new table's column names, in order (the query's, or the statement's column list). */
  columnNames: string[];
  /** What the planner knows of each column that the engine's type does not say (jsonb, name …), by position. */
  pgTypes: (string | undefined)[];
  /** Tags of each column, by name (lineage), set as the new table's `sqe.column-tags`. */
  columnTags?: Record<string, string[]>;
}

export type CatalogOp =
  /** Nothing to do: the statement's `notice` says why (CREATE … IF NOT EXISTS of one that exists, DROP … IF EXISTS of missing ones). */
  | { op: 'nothing' }
  | { op: 'create-schema'; namespace: string[]; ifNotExists: boolean }
  | { op: 'drop-schema'; namespace: string[]; ifExists: boolean; cascade: boolean }
  | {
      op: 'create-view';
      namespace: string[];
      name: string;
      orReplace: boolean;
      /**
       * The view's query as stored (PostgreSQL SQL, the `postgresql` representation), bound as PostgreSQL binds a
       * view when it is created: each relation qualified with the schema it resolved to (a `"db".` part dropped),
       * each `*` written out as the columns it stood for.
       */
      viewSql: string;
      /** Where the stored query's unqualified names resolve. */
      defaultNamespace: string[];
      /** The gated query in DuckDB SQL, prepared by the session only to learn the view's column types. */
      probeSql: string;
      columnNames: string[];
      pgTypes: (string | undefined)[];
    }
  /** Names already checked: a missing one was an error unless IF EXISTS, and is left out. */
  | { op: 'drop'; what: 'table' | 'view'; targets: WriteTarget[]; cascade: boolean }
  | { op: 'rename'; what: 'table' | 'view'; from: WriteTarget; to: { namespace: string[]; name: string } }
  | { op: 'comment'; what: 'table' | 'view' | 'column'; target: WriteTarget; column?: string; text: string | null };

export interface CatalogWrite {
  kind: 'catalog';
  /** CREATE SCHEMA, DROP SCHEMA, CREATE VIEW, DROP TABLE, DROP VIEW, ALTER TABLE (a rename), COMMENT … */
  tag: string;
  op: CatalogOp;
  /** A statement that did nothing and says so (CREATE SCHEMA IF NOT EXISTS of one that exists): PostgreSQL's NOTICE; `op` is then `nothing`. */
  notice?: string;
  /** NOTICEs a statement that does work sends first (DROP TABLE IF EXISTS a, b where a is missing: `table "a" does not exist, skipping`). */
  notices?: string[];
}

/** What every plan carries besides its work. */
export interface PlanFacts {
  /**
   * Records the write in the audit trail once it is done or has failed (Ranger
   * audit JSON: access type, resource, result, row count where known).
   */
  audit?(outcome: { rows: number | null; error?: { code: string; message: string } }): void;
}

export type WritePlan = (EngineWrite | TableAsWrite | CatalogWrite) & PlanFacts;

/** What the session tells the write planner besides the read context. */
export interface WriteSession {
  /** The DuckDB catalog name under which the session attached its Iceberg catalog (never reachable from user SQL). */
  writeAlias: string;
  /** The session's temporary tables (its engine connection's `temp.main`), by name, with their columns. */
  tempTables(): readonly TempTable[];
}

export interface TempTable {
  name: string;
  /**
   * `tags`: what the column's values were computed from (lineage), as the plan
   * that created or filled the table said (TableAsWrite.columnTags,
   * EngineWrite.columnTags: the session keeps them, merged, for the table's
   * life), so tags follow data through a temporary table into a permanent one.
   */
  columns: { name: string; duckType: string; nullable: boolean; tags?: readonly string[] }[];
}
