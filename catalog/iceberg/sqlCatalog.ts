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
 * without any) or holds a table. Reading is all the gateway does; `register`
 * and `createNamespace` exist for the demo's own table.
 */
import Database from 'better-sqlite3';
import { ownRecord } from '../../sql/ownNames.js';

export interface SqlCatalogEntry {
  namespace: string[];
  name: string;
  metadataLocation: string;
  kind: 'table' | 'view';
}

const DDL = [
  `CREATE TABLE IF NOT EXISTS iceberg_tables (
     catalog_name VARCHAR(255) NOT NULL, table_namespace VARCHAR(255) NOT NULL, table_name VARCHAR(255) NOT NULL,
     metadata_location VARCHAR(1000), previous_metadata_location VARCHAR(1000),
     PRIMARY KEY (catalog_name, table_namespace, table_name))`,
  `CREATE TABLE IF NOT EXISTS iceberg_namespace_properties (
     catalog_name VARCHAR(255) NOT NULL, namespace VARCHAR(255) NOT NULL, property_key VARCHAR(255) NOT NULL,
     property_value VARCHAR(1000), PRIMARY KEY (catalog_name, namespace, property_key))`,
];

const joinNs = (ns: readonly string[]): string => ns.join('.');
const splitNs = (s: string): string[] => s.split('.');

export class SqlCatalogFile {
  private readonly db: Database.Database;
  private readonly hasType: boolean;

  /** Opens read-only unless `create` (the demo's seed). */
  constructor(
    readonly file: string,
    readonly catalogName: string,
    opts: { create?: boolean } = {},
  ) {
    this.db = new Database(file, { readonly: !opts.create, fileMustExist: !opts.create });
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

  /** Points a table at new metadata, keeping the previous location as the layout does. */
  register(ns: readonly string[], name: string, metadataLocation: string): void {
    const prev = this.entry(ns, name)?.metadataLocation ?? null;
    this.db
      .prepare(
        `INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, previous_metadata_location)
         VALUES (?, ?, ?, ?, ?) ON CONFLICT (catalog_name, table_namespace, table_name)
         DO UPDATE SET metadata_location = excluded.metadata_location, previous_metadata_location = excluded.previous_metadata_location`,
      )
      .run(this.catalogName, joinNs(ns), name, metadataLocation, prev);
  }
}
