/**
 * Installs the pg_catalog / information_schema emulation into an attached
 * in-memory DuckDB catalog (sql/emulation.ts EMULATION_DB). It must run
 * before the engine is hardened (no ATTACH afterwards). User SQL reaches it
 * only through the planner's pg_catalog/information_schema mapping.
 *
 * What differs per user (pg_namespace, pg_class, pg_attribute, and every view
 * and function over them) reads connection-local temporary tables: a
 * connection belongs to one session, and before a statement that reads the
 * emulation runs, installUserCatalog fills them with what that user may load.
 * A connection that was never filled has no such tables: the statement fails,
 * it never sees another user's rows.
 */
import { EMULATION_DB, INFO_SCHEMA, OWNER_OID, PGC_SCHEMA } from '../sql/emulation.js';
import type { CatalogTable, CatalogView } from '../sql/catalogView.js';
import { informationSchemaStatements } from './informationSchema.js';
import { tableStatisticsStatements } from './tableStatistics.js';
import { macroStatements } from './pgCatalogMacros.js';
import { KEYWORD_COLUMNS, LANGUAGE_ROWS, PROC_TEXT_COLUMNS, procDescriptionRows, procRows, procTextRows } from './pgProc.js';
import { PG_KEYWORDS, PG_PROC_ROWS, PG_PROC_TYPES } from './pgBuiltins.js';
import {
  activityRows,
  AM_ROWS,
  type BackendActivity,
  attributeRows,
  DESCRIPTION_COLUMNS,
  relationDescriptionRows,
  authMemberRows,
  roleRows,
  TABLESPACE_ROWS,
  type RoleIdentity,
  classRows,
  type RelationAcl,
  COLLATION_ROWS,
  databaseRow,
  EMPTY_TABLES,
  namespaceRows,
  POPULATED_COLUMNS,
  typeRows,
  type Value,
} from './pgCatalogTables.js';
import { ownTable } from '../sql/ownNames.js';
import { PSEUDO_TYPES } from '../sql/regTypes.js';

/**
 * What the emulation reads of the user's catalog: its schemas, tables and
 * views, to list. catalog/catalog.ts `Catalog` is one; declared here so that
 * pgcatalog/ needs only sql/ (the rooms beside it are server's to join).
 */
export interface ListedCatalog {
  listSchemas(): string[];
  listTables(): CatalogTable[];
  listViews?(): CatalogView[];
}

/** The catalog emulation only runs statements for their effect (catalog/catalog.ts `EngineSql` is one). */
interface SqlRunner {
  run(sql: string): Promise<unknown>;
}

export interface PgCatalogOptions {
  /** the PostgreSQL database name (also the DuckDB catalog of the data) */
  database: string;
  /** Fill this connection's own tables from this catalog too (tests plan on the admin connection). */
  catalog?: ListedCatalog;
  /** role name shown as owner of every object (pg_get_userbyid(10)) */
  owner?: string;
}

const S = `${EMULATION_DB}.${PGC_SCHEMA}`;

export function sqlLiteral(v: Value): string {
  if (v === null) return 'NULL';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => sqlLiteral(x as Value)).join(', ')}]`;
  return `'${String(v).replace(/'/g, "''")}'`;
}

async function createTable(conn: SqlRunner, name: string, columns: string, rows: Value[][]): Promise<void> {
  await conn.run(`CREATE OR REPLACE TABLE ${S}.${name} (${columns})`);
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    await conn.run(`INSERT INTO ${S}.${name} VALUES ${chunk.map((r) => `(${r.map(sqlLiteral).join(', ')})`).join(', ')}`);
  }
}

/** The owner shown for every object (pg_get_userbyid(10)) unless the options name another. */
export const DEFAULT_OWNER = 'lakegate';

/** The relations' comments of pg_description: a connection-local table, filled with pg_class. */
const RELATION_DESCRIPTIONS = 'lg_rel_description';

/** The per-user relations: connection-local tables behind views of the same name. */
const PER_USER = ['pg_namespace', 'pg_class', 'pg_attribute', 'pg_roles', 'pg_auth_members'] as const;
const userTable = (name: string) => `temp.main.lg_${name}`;

async function fillTable(conn: SqlRunner, target: string, rows: Value[][]): Promise<void> {
  await conn.run(`DELETE FROM ${target}`);
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    await conn.run(`INSERT INTO ${target} VALUES ${chunk.map((r) => `(${r.map(sqlLiteral).join(', ')})`).join(', ')}`);
  }
}

/**
 * pg_stat_activity: a connection-local table like the per-user ones, filled
 * before each run of a statement that reads it (its rows change with every
 * statement of every session).
 */
const ACTIVITY = userTable('pg_stat_activity');

async function createActivityTable(conn: SqlRunner): Promise<void> {
  await conn.run(`CREATE TEMP TABLE IF NOT EXISTS lg_pg_stat_activity (${POPULATED_COLUMNS.pg_stat_activity})`);
}

/** Make this connection's pg_stat_activity show `backends` (the session's own user's sessions). */
export async function fillActivity(conn: SqlRunner, database: string, backends: readonly BackendActivity[]): Promise<void> {
  await createActivityTable(conn);
  await fillTable(conn, ACTIVITY, activityRows(database, backends));
}

const installed = new WeakMap<SqlRunner, { version: object; user: string | undefined; keys: readonly unknown[]; temp: string }>();

/** The session's temporary tables as its catalog shows them: in its own temporary schema (`pg_temp_N`), to that session only. */
export interface SessionTemp {
  schema: string;
  tables: readonly { name: string; columns: readonly { name: string; duckType: string; nullable: boolean }[] }[];
}

/**
 * Which tables the data gate lets the user read: the others are left out of
 * pg_class and information_schema as they are out of name resolution, so the
 * listing does not contradict a 42P01. `keys` change whenever the answer may.
 */
export interface TableVisibility {
  keys: readonly unknown[];
  visible(table: CatalogTable): boolean;
  /** What the gates let the user do with a table it may read (default: SELECT only). */
  privileges?(table: CatalogTable): RelationAcl;
  /** Whether the user may create relations in a schema (default: no). */
  schemaCreate?(schema: string): boolean;
}

const sameKeys = (a: readonly unknown[], b: readonly unknown[]): boolean => a.length === b.length && a.every((k, i) => k === b[i]);

/**
 * Make this connection's pg_namespace / pg_class / pg_attribute show exactly
 * `catalog` (what one user may load), and pg_roles / pg_auth_members / relacl
 * the session's own identity (`who`; a connection serves one session). `version`
 * identifies the catalog's content: the same object twice is filled once.
 */
export async function installUserCatalog(
  conn: SqlRunner,
  catalog: ListedCatalog,
  version: object = catalog,
  who?: RoleIdentity,
  visibility?: TableVisibility,
  temp?: SessionTemp,
): Promise<void> {
  const keys = visibility?.keys ?? [];
  const tempKey = temp && temp.tables.length > 0 ? JSON.stringify(temp) : '';
  const filled = installed.get(conn);
  if (filled?.version === version && filled.user === who?.user && sameKeys(filled.keys, keys) && filled.temp === tempKey) return;
  installed.delete(conn);
  const owner = DEFAULT_OWNER;
  // Views are no security boundary (their base tables are gated when read): listed as the catalog gate lets them.
  const readable = visibility ? catalog.listTables().filter((t) => visibility.visible(t)) : catalog.listTables();
  // The session's temporary tables, in its own temporary schema (PostgreSQL creates it with the first one).
  const temporary = tempKey ? temp!.tables.map((t) => ({ schema: temp!.schema, name: t.name, columns: [...t.columns], temporary: true })) : [];
  const tables = [...readable, ...(catalog.listViews?.() ?? []).map((v) => ({ ...v, relkind: 'v' as const })), ...temporary];
  const schemas = tempKey ? [...catalog.listSchemas(), temp!.schema] : catalog.listSchemas();
  for (const name of PER_USER) await conn.run(`CREATE TEMP TABLE IF NOT EXISTS lg_${name} (${POPULATED_COLUMNS[name]})`);
  const grantee = who ? { user: who.user, owner, acl: relationAcl(readable, visibility), schemaCreate: (s: string) => visibility?.schemaCreate?.(s) ?? false } : undefined;
  await fillTable(conn, userTable('pg_namespace'), namespaceRows(schemas, grantee));
  await fillTable(conn, userTable('pg_class'), classRows(tables, grantee));
  await fillTable(conn, userTable('pg_attribute'), attributeRows(tables, grantee));
  await conn.run(`CREATE TEMP TABLE IF NOT EXISTS ${RELATION_DESCRIPTIONS} (${DESCRIPTION_COLUMNS})`);
  await fillTable(conn, `temp.main.${RELATION_DESCRIPTIONS}`, relationDescriptionRows(tables));
  await fillTable(conn, userTable('pg_roles'), roleRows(owner, who));
  await fillTable(conn, userTable('pg_auth_members'), authMemberRows(owner, who));
  installed.set(conn, { version, user: who?.user, keys, temp: tempKey });
}

/** The session user's privileges on each relation of its catalog: a table's from the gates, a view's SELECT, a temporary table's all. */
function relationAcl(readable: readonly CatalogTable[], visibility: TableVisibility | undefined): (t: { schema: string; name: string; relkind?: string; temporary?: boolean }) => RelationAcl {
  const byName = new Map<string, RelationAcl>();
  if (visibility?.privileges) for (const t of readable) byName.set(`${t.schema}\u0000${t.name}`, visibility.privileges(t));
  return (t) => {
    if (t.temporary) return { table: 'arwdD', columns: null };
    if (t.relkind === 'v') return { table: 'r', columns: null };
    return byName.get(`${t.schema}\u0000${t.name}`) ?? { table: 'r', columns: null };
  };
}

const TYPE_ALIASES: Record<string, string> = ownTable({
  int: 'int4', integer: 'int4', smallint: 'int2', bigint: 'int8', real: 'float4', float: 'float8',
  'double precision': 'float8', decimal: 'numeric', dec: 'numeric', boolean: 'bool', char: 'bpchar',
  character: 'bpchar', 'character varying': 'varchar', 'timestamp without time zone': 'timestamp',
  'timestamp with time zone': 'timestamptz', 'time without time zone': 'time', 'time with time zone': 'timetz',
});

function typeLookupRows(typeRowsOf: Value[][], names: Value[][]): Value[][] {
  const oidOf = new Map<string, number>();
  for (const r of typeRowsOf) oidOf.set(String(r[1]), Number(r[0]));
  for (const [oid, formatted] of names) if (!oidOf.has(String(formatted))) oidOf.set(String(formatted), Number(oid));
  for (const [alias, typname] of Object.entries(TYPE_ALIASES)) if (oidOf.has(typname)) oidOf.set(alias, oidOf.get(typname)!);
  const rows: Value[][] = [];
  for (const [name, oid] of oidOf) {
    rows.push([name, oid]);
    // an array type by its element's name: int4[], integer[]
    const arrayOid = typeRowsOf.find((r) => Number(r[0]) === oid)?.[14];
    if (!name.endsWith('[]') && !name.startsWith('_') && typeof arrayOid === 'number' && arrayOid !== 0) rows.push([`${name}[]`, arrayOid]);
  }
  return rows;
}

export async function installPgCatalog(conn: SqlRunner, opts: PgCatalogOptions): Promise<void> {
  const owner = opts.owner ?? DEFAULT_OWNER;
  await conn.run(`ATTACH IF NOT EXISTS ':memory:' AS ${EMULATION_DB}`);
  await conn.run(`CREATE SCHEMA IF NOT EXISTS ${S}`);
  await conn.run(`CREATE SCHEMA IF NOT EXISTS ${EMULATION_DB}.${INFO_SCHEMA}`);

  const types = typeRows();
  // format_type's names: the types pg_type holds, then every other type a built-in's signature names (anyarray,
  // "any", money, inet …: PostgreSQL's own names, so regtype and pgcli's completion print them), then the pseudo-types
  const named = new Set(types.names.map((n) => Number(n[0])));
  const more: Value[][] = [];
  const add = (oid: number, formatted: string) => {
    if (named.has(oid)) return;
    named.add(oid);
    more.push([oid, formatted]);
  };
  for (const [oid, formatted] of PG_PROC_TYPES) add(oid, formatted);
  for (const [name, oid] of Object.entries(PSEUDO_TYPES)) add(oid, name === 'any' ? '"any"' : name);
  await createTable(conn, 'lg_type_names', 'oid BIGINT, formatted VARCHAR', [...types.names, ...more]);
  await createTable(conn, 'pg_type', POPULATED_COLUMNS.pg_type, types.rows);
  // Views over the connection's own tables; created here (empty) so the views can be defined.
  for (const name of PER_USER) {
    await conn.run(`CREATE TEMP TABLE IF NOT EXISTS lg_${name} (${POPULATED_COLUMNS[name]})`);
    await conn.run(`CREATE OR REPLACE VIEW ${S}.${name} AS SELECT * FROM ${userTable(name)}`);
  }
  await createActivityTable(conn);
  await conn.run(`CREATE OR REPLACE VIEW ${S}.pg_stat_activity AS SELECT * FROM ${ACTIVITY}`);
  await createTable(conn, 'pg_database', POPULATED_COLUMNS.pg_database, [databaseRow(opts.database)]);
  await createTable(conn, 'pg_am', POPULATED_COLUMNS.pg_am, AM_ROWS);
  await createTable(conn, 'pg_collation', POPULATED_COLUMNS.pg_collation, COLLATION_ROWS);
  await createTable(conn, 'pg_proc', POPULATED_COLUMNS.pg_proc, procRows(PG_PROC_ROWS));
  await createTable(conn, 'lg_proc_text', PROC_TEXT_COLUMNS, procTextRows(PG_PROC_ROWS));
  await createTable(conn, 'lg_keywords', KEYWORD_COLUMNS, PG_KEYWORDS.map((k) => [...k]));
  await createTable(conn, 'pg_language', POPULATED_COLUMNS.pg_language, LANGUAGE_ROWS);
  await createTable(conn, 'pg_tablespace', POPULATED_COLUMNS.pg_tablespace, TABLESPACE_ROWS);
  // type names to_regtype accepts: typname, the formatted name, and the grammar's aliases
  await createTable(conn, 'lg_type_lookup', 'name VARCHAR, oid BIGINT', typeLookupRows(types.rows, types.names));
  await createTable(conn, 'pg_user', POPULATED_COLUMNS.pg_user, [
    [owner, OWNER_OID, true, true, false, true, '********', null, null],
  ]);
  for (const t of EMPTY_TABLES) await createTable(conn, t.name, t.columns, []);
  // pg_description: the functions' descriptions for everyone, the relations' comments per user (filled with pg_class)
  await createTable(conn, 'lg_proc_description', DESCRIPTION_COLUMNS, procDescriptionRows(PG_PROC_ROWS));
  await conn.run(`CREATE TEMP TABLE IF NOT EXISTS ${RELATION_DESCRIPTIONS} (${DESCRIPTION_COLUMNS})`);
  await conn.run(`CREATE OR REPLACE VIEW ${S}.pg_description AS SELECT * FROM ${S}.lg_proc_description UNION ALL SELECT * FROM temp.main.${RELATION_DESCRIPTIONS}`);
  for (const sql of macroStatements(owner)) await conn.run(sql);
  await conn.run(`CREATE OR REPLACE VIEW ${S}.pg_tables AS SELECT n.nspname AS schemaname, c.relname AS tablename,
      ${S}.pg_get_userbyid(c.relowner) AS tableowner, CAST(NULL AS VARCHAR) AS tablespace, c.relhasindex AS hasindexes,
      c.relhasrules AS hasrules, c.relhastriggers AS hastriggers, c.relrowsecurity AS rowsecurity
      FROM ${S}.pg_class c JOIN ${S}.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p')`);
  await conn.run(`CREATE OR REPLACE VIEW ${S}.pg_views AS SELECT n.nspname AS schemaname, c.relname AS viewname,
      ${S}.pg_get_userbyid(c.relowner) AS viewowner, CAST(NULL AS VARCHAR) AS definition
      FROM ${S}.pg_class c JOIN ${S}.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'v'`);
  for (const sql of tableStatisticsStatements()) await conn.run(sql);
  // pg_settings is built per statement from the session (sql/settings.ts); this table only keeps the name resolvable.
  await conn.run(`CREATE OR REPLACE TABLE ${S}.pg_settings (name VARCHAR, setting VARCHAR)`);
  for (const sql of informationSchemaStatements(opts.database)) await conn.run(sql);
  if (opts.catalog) await installUserCatalog(conn, opts.catalog);
}
