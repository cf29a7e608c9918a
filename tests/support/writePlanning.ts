/**
 * The write planner (sql/write/) over a DuckDB catalog, for unit tests: the
 * data gate and the write policy as server/planner.ts wires them, the
 * attached DuckDB database standing for the session's Iceberg catalog
 * (`writeAlias` is its name, so a plan's SQL runs on the same connection).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import pino from 'pino';
import type { Catalog, CatalogTable, CatalogView } from '../../catalog/catalog.js';
import { DataGate } from '../../policy/rewrite/dataGate.js';
import { StatementWritePolicy } from '../../policy/rewrite/writePolicy.js';
import { SqlError } from '../../sql/errors.js';
import { parseStatements } from '../../sql/parse.js';
import type { WriteContext } from '../../sql/write/context.js';
import type { TempTable } from '../../sql/write/plan.js';
import { planWriteStatement, type WriteStatementPlan } from '../../sql/write/statement.js';
import type { GateSetup } from './dataGate.js';

export interface WriteSetup extends GateSetup {
  temp?: TempTable[];
  searchPath?: string[];
  /** The DuckDB database standing for the attached catalog (default `demo`). */
  writeAlias?: string;
}

export function writeContext(catalog: Catalog, user: string, s: WriteSetup): { ctx: WriteContext; policy: StatementWritePolicy } {
  const gate = new DataGate(
    { current: () => s.engine },
    {
      maskPrecedence: s.maskPrecedence ?? 'tag',
      fence: s.fence ?? 'case',
      hashAvailable: s.hashAvailable ?? true,
      columnTags: s.columnTags ?? null,
      log: pino({ level: 'silent' }),
    },
  );
  const roles = new Set(s.engine?.roleStore.rolesFor(user, new Set()) ?? []);
  const subject = { user, roles, groups: new Set<string>() };
  const policy = new StatementWritePolicy(gate.begin(subject), subject);
  const settings = s.settings ?? {};
  const schemas = catalog.listSchemas().filter((x) => x !== 'public');
  const ctx: WriteContext = {
    database: 'demo',
    searchPath: s.searchPath ?? ['sales', 'public'],
    user,
    settings: (n) => settings[n.toLowerCase()],
    backendPid: 7,
    catalog: policy.gate.catalog(catalog),
    temp: { schema: 'pg_temp_7', tables: s.temp ?? [] },
    writeAlias: s.writeAlias ?? 'demo',
    namespaceOf: (schema) => (schemas.includes(schema) ? [schema] : null),
    listing: { tables: catalog.listTables(), views: catalog.listViews?.() ?? [] },
    policy,
  };
  return { ctx, policy };
}

export function planWriteAs(catalog: Catalog, sql: string, user: string, s: WriteSetup): WriteStatementPlan {
  return planWriteStatement(parseStatements(sql)[0]!, writeContext(catalog, user, s).ctx);
}

export function writeRefusal(catalog: Catalog, sql: string, user: string, s: WriteSetup): SqlError {
  try {
    planWriteAs(catalog, sql, user, s);
  } catch (e) {
    if (e instanceof SqlError) return e;
    throw e;
  }
  throw new Error(`planned for ${user}: ${sql}`);
}

/** A catalog with views besides the DuckDB database's tables (a view's columns named in `columns`). */
export function withViews(catalog: Catalog, views: { schema: string; name: string; sql: string; columns: string[] }[]): Catalog {
  const made: CatalogView[] = views.map((v) => ({
    schema: v.schema,
    name: v.name,
    columns: v.columns.map((name) => ({ name, duckType: 'VARCHAR', nullable: true })),
    query: parseStatements(v.sql)[0]!.node,
    defaultSchema: v.schema,
  }));
  return {
    listSchemas: () => catalog.listSchemas(),
    getTable: (schema, name) => catalog.getTable(schema, name),
    getView: (schema, name) => made.find((v) => v.schema === schema && v.name === name),
    listTables: () => catalog.listTables(),
    listViews: () => made,
  };
}

/** Tables of a catalog with column tags of their own (as a table's `sqe.column-tags` gives them), by `schema.name`. */
export function withTags(catalog: Catalog, tags: Record<string, Record<string, string[]> | null>): Catalog {
  const tagged = new Map<string, CatalogTable>();
  const table = (t: CatalogTable | undefined): CatalogTable | undefined => {
    if (!t) return t;
    const key = `${t.schema}.${t.name}`;
    if (!Object.hasOwn(tags, key)) return t;
    if (!tagged.has(key)) tagged.set(key, { ...t, columnTags: tags[key] ?? null });
    return tagged.get(key);
  };
  return {
    listSchemas: () => catalog.listSchemas(),
    getTable: (schema, name) => table(catalog.getTable(schema, name)),
    ...(catalog.getView ? { getView: (schema: string, name: string) => catalog.getView!(schema, name) } : {}),
    listTables: () => catalog.listTables().map((t) => table(t)!),
    ...(catalog.listViews ? { listViews: () => catalog.listViews!() } : {}),
  };
}

/**
 * What the session does with a plan, on one DuckDB connection standing for
 * the engine and the catalog: an engine write runs its SQL; CREATE TABLE AS
 * creates the table from the query under the plan's column names. Returns the
 * rows changed (null for a catalog write, which is not carried out here).
 */
export async function runWrite(conn: DuckDBConnection, plan: WriteStatementPlan): Promise<number | null> {
  if (plan.kind === 'engine') return Number((await conn.run(plan.sql)).rowsChanged);
  if (plan.kind === 'table-as') {
    const names = plan.columnNames.map((n) => `"${n.replace(/"/g, '""')}"`).join(', ');
    const create = plan.target.kind === 'temp' ? 'CREATE TEMP TABLE' : 'CREATE TABLE';
    const source = `SELECT * FROM (${plan.querySql}) AS lg_source(${names})`;
    // created first, then filled, as the session does (so the insert counts the rows)
    await conn.run(`${create} ${plan.target.engineName} AS ${source} LIMIT 0`);
    return plan.withData ? Number((await conn.run(`INSERT INTO ${plan.target.engineName} ${source}`)).rowsChanged) : 0;
  }
  return null;
}

/** A temporary table of the connection as the session describes it (WriteSession.tempTables), with the tags it recorded. */
export async function tempTableOf(conn: DuckDBConnection, name: string, tags: Record<string, string[]> = {}): Promise<TempTable> {
  const r = await conn.runAndReadAll(
    `SELECT column_name, data_type, is_nullable FROM duckdb_columns() WHERE database_name = 'temp' AND table_name = '${name.replace(/'/g, "''")}' ORDER BY column_index`,
  );
  return {
    name,
    columns: r.getRowObjects().map((c) => {
      const column = String(c['column_name']);
      return { name: column, duckType: String(c['data_type']), nullable: c['is_nullable'] === true, ...(tags[column] ? { tags: tags[column] } : {}) };
    }),
  };
}
