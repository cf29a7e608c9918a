/**
 * The SQL catalog layout pyiceberg's `SqlCatalog` and Iceberg's Java
 * `JdbcCatalog` share, in a SQLite file:
 *
 *   iceberg_tables(catalog_name, table_namespace, table_name, metadata_location,
 *                  previous_metadata_location [, iceberg_type  -- JdbcCatalog V1: TABLE | VIEW])
 *   iceberg_namespace_properties(catalog_name, namespace, property_key, property_value)
 *
 * Namespaces are stored as their levels joined with '.'; a namespace exists
 * when it has properties (pyiceberg writes `exists` = `true` for one created
 * without any) or holds a table. Views are JdbcCatalog V1 rows with
 * iceberg_type = 'VIEW' (pyiceberg's SqlCatalog in its v1 mode skips them);
 * a file without the column gets it the way both libraries migrate it.
 *
 * Writes run in `BEGIN IMMEDIATE` transactions (one writer at a time across
 * processes, others wait up to the busy timeout), and a commit moves a row
 * only from the metadata location it was based on (`UPDATE … WHERE
 * metadata_location = <expected>`, as pyiceberg and JdbcCatalog do): two
 * processes on one file never lose a commit, the later one gets 409.
 */
import Database from 'better-sqlite3';
import { ownRecord } from '../../sql/ownNames.js';
import { catalogErrors, CatalogError } from './api.js';

export interface SqlCatalogEntry {
  namespace: string[];
  name: string;
  metadataLocation: string;
  kind: 'table' | 'view';
}

const DDL = [
  `CREATE TABLE IF NOT EXISTS iceberg_tables (
     catalog_name VARCHAR(255) NOT NULL, table_namespace VARCHAR(255) NOT NULL, table_name VARCHAR(255) NOT NULL,
     metadata_location VARCHAR(1000), previous_metadata_location VARCHAR(1000), iceberg_type VARCHAR(5),
     PRIMARY KEY (catalog_name, table_namespace, table_name))`,
  `CREATE TABLE IF NOT EXISTS iceberg_namespace_properties (
     catalog_name VARCHAR(255) NOT NULL, namespace VARCHAR(255) NOT NULL, property_key VARCHAR(255) NOT NULL,
     property_value VARCHAR(1000), PRIMARY KEY (catalog_name, namespace, property_key))`,
];

const joinNs = (ns: readonly string[]): string => ns.join('.');
const splitNs = (s: string): string[] => s.split('.');
/** LIKE pattern for the namespaces below one (pyiceberg's escaping). */
const below = (ns: readonly string[]): string => `${joinNs(ns).replace(/[!_%]/g, (c) => `!${c}`)}.%`;

export type EntryKind = 'table' | 'view';

export class SqlCatalogFile {
  private readonly db: Database.Database;
  private hasType: boolean;

  /** Opens read-only unless `create` (the demo's seed) or `writable` (an existing file, written through the methods below). */
  constructor(
    readonly file: string,
    readonly catalogName: string,
    opts: { create?: boolean; writable?: boolean; busyTimeoutMs?: number } = {},
  ) {
    const write = opts.create === true || opts.writable === true;
    this.db = new Database(file, { readonly: !write, fileMustExist: !opts.create, timeout: opts.busyTimeoutMs ?? 10_000 });
    if (opts.create) for (const ddl of DDL) this.db.exec(ddl);
    const cols = this.db.prepare(`SELECT name FROM pragma_table_info('iceberg_tables')`).all() as { name: string }[];
    if (cols.length === 0) throw new Error(`${file} has no iceberg_tables table: not a SQL catalog`);
    this.hasType = cols.some((c) => c.name === 'iceberg_type');
  }

  close(): void {
    this.db.close();
  }

  /** Every namespace of the catalog (all levels, each as its list of levels). */
  namespaces(): string[][] {
    const rows = this.db
      .prepare(
        `SELECT table_namespace AS ns FROM iceberg_tables WHERE catalog_name = ?
         UNION SELECT namespace AS ns FROM iceberg_namespace_properties WHERE catalog_name = ?`,
      )
      .all(this.catalogName, this.catalogName) as { ns: string }[];
    const all = new Map<string, string[]>();
    for (const { ns } of rows) {
      const levels = splitNs(ns);
      // A nested namespace implies its parents, as in JdbcCatalog's listing.
      for (let i = 1; i <= levels.length; i++) all.set(joinNs(levels.slice(0, i)), levels.slice(0, i));
    }
    return [...all.values()];
  }

  namespaceProperties(ns: readonly string[]): Record<string, string> | null {
    const rows = this.db
      .prepare(`SELECT property_key AS k, property_value AS v FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ?`)
      .all(this.catalogName, joinNs(ns)) as { k: string; v: string | null }[];
    const exists = rows.length > 0 || this.namespaces().some((n) => joinNs(n) === joinNs(ns));
    if (!exists) return null;
    const props: Record<string, string> = ownRecord();
    for (const r of rows) if (r.k !== 'exists') props[r.k] = r.v ?? '';
    return props;
  }

  entries(ns: readonly string[]): SqlCatalogEntry[] {
    const typeCol = this.hasType ? 'iceberg_type' : 'NULL';
    const rows = this.db
      .prepare(
        `SELECT table_name AS name, metadata_location AS loc, ${typeCol} AS type FROM iceberg_tables
          WHERE catalog_name = ? AND table_namespace = ? ORDER BY table_name`,
      )
      .all(this.catalogName, joinNs(ns)) as { name: string; loc: string | null; type: string | null }[];
    return rows
      .filter((r) => r.loc !== null)
      .map((r) => ({ namespace: [...ns], name: r.name, metadataLocation: r.loc!, kind: r.type === 'VIEW' ? 'view' : 'table' }));
  }

  entry(ns: readonly string[], name: string): SqlCatalogEntry | undefined {
    return this.entries(ns).find((e) => e.name === name);
  }

  createNamespace(ns: readonly string[]): void {
    this.db
      .prepare(`INSERT OR IGNORE INTO iceberg_namespace_properties VALUES (?, ?, 'exists', 'true')`)
      .run(this.catalogName, joinNs(ns));
  }

  /** Points a table at new metadata, keeping the previous location as the layout does (the demo's seed; no check). */
  register(ns: readonly string[], name: string, metadataLocation: string): void {
    const prev = this.entry(ns, name)?.metadataLocation ?? null;
    const type = this.hasType ? ", iceberg_type" : '';
    this.db
      .prepare(
        `INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, previous_metadata_location${type})
         VALUES (?, ?, ?, ?, ?${this.hasType ? ", 'TABLE'" : ''}) ON CONFLICT (catalog_name, table_namespace, table_name)
         DO UPDATE SET metadata_location = excluded.metadata_location, previous_metadata_location = excluded.previous_metadata_location`,
      )
      .run(this.catalogName, joinNs(ns), name, metadataLocation, prev);
  }

  // ------------------------------------------------------------ writes

  /** Runs `fn` in one `BEGIN IMMEDIATE` transaction: all of it or none, one writer at a time. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  namespaceExists(ns: readonly string[]): boolean {
    const hit = (sql: string) => this.db.prepare(sql).get(this.catalogName, joinNs(ns), below(ns)) !== undefined;
    return (
      hit(`SELECT 1 FROM iceberg_tables WHERE catalog_name = ? AND (table_namespace = ? OR table_namespace LIKE ? ESCAPE '!') LIMIT 1`) ||
      hit(`SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ? AND (namespace = ? OR namespace LIKE ? ESCAPE '!') LIMIT 1`)
    );
  }

  /** A new namespace with its properties (and `exists`, as JdbcCatalog writes); 409 if it exists. */
  addNamespace(ns: readonly string[], properties: Record<string, string>): void {
    this.transaction(() => {
      if (this.namespaceExists(ns)) throw catalogErrors.namespaceExists(ns);
      const insert = this.db.prepare(`INSERT INTO iceberg_namespace_properties VALUES (?, ?, ?, ?)`);
      for (const [k, v] of Object.entries({ ...properties, exists: 'true' })) insert.run(this.catalogName, joinNs(ns), k, v);
    });
  }

  /** 404 if missing, 409 while any table, view or namespace is inside it. */
  removeNamespace(ns: readonly string[]): void {
    this.transaction(() => {
      if (!this.namespaceExists(ns)) throw catalogErrors.noSuchNamespace(ns);
      const inside = this.db
        .prepare(
          `SELECT 1 FROM iceberg_tables WHERE catalog_name = ? AND (table_namespace = ? OR table_namespace LIKE ? ESCAPE '!')
           UNION ALL SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace LIKE ? ESCAPE '!' LIMIT 1`,
        )
        .get(this.catalogName, joinNs(ns), below(ns), this.catalogName, below(ns));
      if (inside !== undefined) throw catalogErrors.namespaceNotEmpty(ns);
      this.db.prepare(`DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ?`).run(this.catalogName, joinNs(ns));
    });
  }

  private row(ns: readonly string[], name: string): { loc: string | null; kind: EntryKind } | undefined {
    const typeCol = this.hasType ? 'iceberg_type' : 'NULL';
    const r = this.db
      .prepare(`SELECT metadata_location AS loc, ${typeCol} AS type FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?`)
      .get(this.catalogName, joinNs(ns), name) as { loc: string | null; type: string | null } | undefined;
    return r && { loc: r.loc, kind: r.type === 'VIEW' ? 'view' : 'table' };
  }

  private taken(ns: readonly string[], name: string, existing: EntryKind): CatalogError {
    return existing === 'view' ? catalogErrors.viewExists(ns, name) : catalogErrors.tableExists(ns, name);
  }

  private missing(ns: readonly string[], name: string, kind: EntryKind): CatalogError {
    return kind === 'view' ? catalogErrors.noSuchView(ns, name) : catalogErrors.noSuchTable(ns, name);
  }

  /** JdbcCatalog V1's iceberg_type column, added where the file predates it (views need it). */
  ensureTypeColumn(): void {
    if (this.hasType) return;
    this.transaction(() => {
      const cols = this.db.prepare(`SELECT name FROM pragma_table_info('iceberg_tables')`).all() as { name: string }[];
      if (!cols.some((c) => c.name === 'iceberg_type')) this.db.exec(`ALTER TABLE iceberg_tables ADD COLUMN iceberg_type VARCHAR(5)`);
    });
    this.hasType = true;
  }

  /** A new table or view row; 404 without its namespace, 409 when the name is taken (by a table or a view). */
  insertEntry(ns: readonly string[], name: string, metadataLocation: string, kind: EntryKind): void {
    if (kind === 'view') this.ensureTypeColumn();
    this.transaction(() => {
      if (!this.namespaceExists(ns)) throw catalogErrors.noSuchNamespace(ns);
      const existing = this.row(ns, name);
      if (existing) throw this.taken(ns, name, existing.kind);
      const type = this.hasType ? ', iceberg_type' : '';
      this.db
        .prepare(
          `INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, previous_metadata_location${type})
           VALUES (?, ?, ?, ?, NULL${this.hasType ? ', ?' : ''})`,
        )
        .run(this.catalogName, joinNs(ns), name, metadataLocation, ...(this.hasType ? [kind === 'view' ? 'VIEW' : 'TABLE'] : []));
    });
  }

  /**
   * Moves rows to new metadata, each only from the location its commit was
   * based on; all in one transaction, so either every row moves or none:
   * 404 for a row that is gone, 409 CommitFailed for one moved by another commit.
   */
  swapLocations(swaps: readonly { ns: readonly string[]; name: string; kind: EntryKind; from: string; to: string }[]): void {
    this.transaction(() => {
      for (const s of swaps) {
        const typeFilter = !this.hasType ? '' : s.kind === 'view' ? ` AND iceberg_type = 'VIEW'` : ` AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)`;
        const changed = this.db
          .prepare(
            `UPDATE iceberg_tables SET metadata_location = ?, previous_metadata_location = ?
              WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND metadata_location = ?${typeFilter}`,
          )
          .run(s.to, s.from, this.catalogName, joinNs(s.ns), s.name, s.from).changes;
        if (changed === 1) continue;
        const now = this.row(s.ns, s.name);
        if (!now || now.kind !== s.kind) throw this.missing(s.ns, s.name, s.kind);
        throw catalogErrors.commitFailed(`Commit failed: ${[...s.ns, s.name].join('.')} was changed by another commit since ${s.from}`);
      }
    });
  }

  /** Renames a table or view; 404 for a missing source or destination namespace, 409 for a taken name. */
  renameEntry(from: { ns: readonly string[]; name: string }, to: { ns: readonly string[]; name: string }, kind: EntryKind): void {
    this.transaction(() => {
      const source = this.row(from.ns, from.name);
      if (!source || source.kind !== kind) throw this.missing(from.ns, from.name, kind);
      if (!this.namespaceExists(to.ns)) throw catalogErrors.noSuchNamespace(to.ns);
      const existing = this.row(to.ns, to.name);
      if (existing) throw this.taken(to.ns, to.name, existing.kind);
      this.db
        .prepare(`UPDATE iceberg_tables SET table_namespace = ?, table_name = ? WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?`)
        .run(joinNs(to.ns), to.name, this.catalogName, joinNs(from.ns), from.name);
    });
  }

  /** Removes a table or view row and answers the metadata location it had; 404 if there is none of that kind. */
  deleteEntry(ns: readonly string[], name: string, kind: EntryKind): string | null {
    return this.transaction(() => {
      const existing = this.row(ns, name);
      if (!existing || existing.kind !== kind) throw this.missing(ns, name, kind);
      this.db.prepare(`DELETE FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?`).run(this.catalogName, joinNs(ns), name);
      return existing.loc;
    });
  }
}
