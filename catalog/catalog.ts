/**
 * The user-facing catalog: which schemas and tables exist (for this user).
 * An interface, because the embedded implementation below reads DuckDB's
 * attached data catalog while later ones ask Polaris / Iceberg REST.
 */
import type { CatalogColumn, CatalogTable, CatalogView, RelationCatalog } from '../sql/catalogView.js';

export type { CatalogColumn, CatalogTable, CatalogView };

export interface Catalog extends RelationCatalog {
  /** every table this user may see, for pg_class / information_schema */
  listTables(): CatalogTable[];
  /** every view this user may see (relkind v) */
  listViews?(): CatalogView[];
}

/** DuckDB's own schemas, never shown as PostgreSQL namespaces. */
const HIDDEN_SCHEMAS = new Set(['main', 'pg_catalog', 'information_schema']);

export class StaticCatalog implements Catalog {
  private readonly byKey = new Map<string, CatalogTable>();
  private readonly schemas: string[];

  constructor(schemas: string[], tables: CatalogTable[]) {
    // Every PostgreSQL database has `public`; clients assume it (search_path "$user", public).
    this.schemas = [...new Set(['public', ...schemas])].sort();
    for (const t of tables) this.byKey.set(`${t.schema}\u0000${t.name}`, t);
  }

  listSchemas(): string[] {
    return [...this.schemas];
  }

  getTable(schema: string, name: string): CatalogTable | undefined {
    return this.byKey.get(`${schema}\u0000${name}`);
  }

  listTables(): CatalogTable[] {
    return [...this.byKey.values()].sort((a, b) => (a.schema + '.' + a.name).localeCompare(b.schema + '.' + b.name));
  }
}

/** A table of an attached DuckDB database, read by its qualified name. */
export function duckDbTable(database: string, schema: string, name: string, columns: CatalogColumn[] = []): CatalogTable {
  return {
    schema,
    name,
    columns,
    resource: { database: schema, table: name },
    scan: () => ({
      RangeVar: { catalogname: database, schemaname: schema, relname: name, inh: true, relpersistence: 'p' },
    }),
  };
}

/**
 * What the catalog needs of an engine connection (the gateway's engine
 * process, or DuckDB itself in tests): statements run for their effect, and
 * small results as row objects.
 */
export interface EngineSql {
  run(sql: string): Promise<unknown>;
  rows(sql: string, params?: (string | number | boolean | null)[]): Promise<Record<string, unknown>[]>;
}

/**
 * Read the attached data catalog once (duckdb_schemas/tables/columns). DuckDB
 * gives every column `is_nullable` and its type as text (DECIMAL(10,2)).
 */
export async function loadDuckDbCatalog(conn: EngineSql, database: string): Promise<StaticCatalog> {
  const schemaRows = await conn.rows('SELECT schema_name FROM duckdb_schemas() WHERE database_name = $1 AND NOT internal', [database]);
  const schemas = schemaRows
    .map((r) => String(r['schema_name']))
    .filter((s) => !HIDDEN_SCHEMAS.has(s));
  const colRows = await conn.rows(
    `SELECT c.schema_name, c.table_name, c.column_name, c.data_type, c.is_nullable
       FROM duckdb_columns() c JOIN duckdb_tables() t ON t.table_oid = c.table_oid
      WHERE c.database_name = $1 ORDER BY c.schema_name, c.table_name, c.column_index`,
    [database],
  );
  const tables = new Map<string, CatalogTable>();
  for (const r of colRows) {
    const schema = String(r['schema_name']);
    if (HIDDEN_SCHEMAS.has(schema)) continue;
    const key = `${schema}.${String(r['table_name'])}`;
    let t = tables.get(key);
    if (!t) {
      t = duckDbTable(database, schema, String(r['table_name']));
      tables.set(key, t);
    }
    t.columns.push({ name: String(r['column_name']), duckType: String(r['data_type']), nullable: r['is_nullable'] === true });
  }
  return new StaticCatalog(schemas, [...tables.values()]);
}
