/**
 * The data gate through sql/'s planner onto a DuckDB connection, for unit
 * tests of policy/rewrite/: plan a statement as a user under a policy engine,
 * run it, or catch its refusal.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import pino from 'pino';
import type { PolicyEngine } from '../../policy/ranger/engine.js';
import type { FenceMode } from '../../policy/rewrite/apply.js';
import type { ColumnTagSource } from '../../policy/rewrite/columnTags.js';
import { DataGate, type DataGateOptions } from '../../policy/rewrite/dataGate.js';
import { installMaskMacros } from '../../policy/rewrite/macros.js';
import { builtinMacroStatements } from '../../sql/dialect/builtinMacros.js';
import { numericMacroStatements } from '../../sql/dialect/numericMacros.js';
import { EMULATION_DB, PGC_SCHEMA } from '../../sql/emulation.js';
import type { CatalogTable, RelationCatalog } from '../../sql/catalogView.js';
import { SqlError } from '../../sql/errors.js';
import { loadParser, parseStatements } from '../../sql/parse.js';
import { planQuery, type QueryContext } from '../../sql/query.js';

export interface GateSetup {
  engine: PolicyEngine | null;
  fence?: FenceMode;
  leakproofPushdown?: boolean;
  maskPrecedence?: DataGateOptions['maskPrecedence'];
  columnTags?: ColumnTagSource | null;
  beforeApply?: (t: CatalogTable) => void;
  hashAvailable?: boolean;
  /** the session's settings (lower-case names), e.g. { timezone: 'Asia/Tokyo' } */
  settings?: Readonly<Record<string, string>>;
}

export function gateContext(user: string, cat: RelationCatalog, settings: Readonly<Record<string, string>> = {}): QueryContext {
  return { database: 'demo', searchPath: ['sales', 'public'], user, settings: (n) => settings[n.toLowerCase()], backendPid: 1, catalog: cat };
}

export function planWithGate(catalog: RelationCatalog, sql: string, user: string, s: GateSetup) {
  const gate = new DataGate(
    { current: () => s.engine },
    {
      maskPrecedence: s.maskPrecedence ?? 'tag',
      fence: s.fence ?? 'case',
      ...(s.leakproofPushdown !== undefined ? { leakproofPushdown: s.leakproofPushdown } : {}),
      hashAvailable: s.hashAvailable ?? true,
      columnTags: s.columnTags ?? null,
      log: pino({ level: 'silent' }),
      ...(s.beforeApply ? { beforeApply: s.beforeApply } : {}),
    },
  );
  const roles = new Set(s.engine?.roleStore.rolesFor(user, new Set()) ?? []);
  const sg = gate.begin({ user, roles, groups: new Set() });
  const plan = planQuery(parseStatements(sql)[0]!, gateContext(user, sg.catalog(catalog), s.settings), { rewriteTables: (t, c, tree) => sg.rewrite(t, c, tree) });
  return { plan, statement: sg, gate };
}

/** Rows as plain values: BIGINT and DECIMAL as text. */
export async function gateRows(conn: DuckDBConnection, catalog: RelationCatalog, sql: string, user: string, s: GateSetup): Promise<unknown[][]> {
  const { plan } = planWithGate(catalog, sql, user, s);
  const result = await conn.runAndReadAll(plan.sql);
  return result.getRows().map((r) => r.map((v) => (v === null ? null : typeof v === 'object' ? String(v) : typeof v === 'bigint' ? v.toString() : v)));
}

export function gateRefusal(catalog: RelationCatalog, sql: string, user: string, s: GateSetup): SqlError {
  try {
    planWithGate(catalog, sql, user, s);
  } catch (e) {
    if (e instanceof SqlError) return e;
    throw e;
  }
  throw new Error(`planned for ${user}: ${sql}`);
}

/** An in-memory DuckDB with the database `demo` and its schema `sales`, for the tables a suite creates. */
export async function demoDuckDb(): Promise<{ instance: DuckDBInstance; conn: DuckDBConnection }> {
  await loadParser();
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  await conn.run(`ATTACH ':memory:' AS demo`);
  await conn.run('CREATE SCHEMA demo.sales');
  return { instance, conn };
}

/**
 * The engine's macros a gate suite's plans call: the mask macros (keyed by
 * `maskKey`) and the emulation's typed arithmetic (sum, avg and / are planned
 * as sql/dialect/numericMacros.ts's macros) and built-ins (concat's arguments,
 * sql/dialect/builtinMacros.ts), in the emulation database.
 */
export async function installGateMacros(conn: DuckDBConnection, maskKey: string): Promise<void> {
  await conn.run(`ATTACH ':memory:' AS ${EMULATION_DB}`);
  await installMaskMacros((sql) => conn.run(sql), maskKey);
  const schema = `${EMULATION_DB}.${PGC_SCHEMA}`;
  await conn.run(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  for (const stmt of numericMacroStatements((sig) => `CREATE OR REPLACE MACRO ${schema}.${sig}`, schema)) await conn.run(stmt);
  for (const stmt of builtinMacroStatements((sig) => `CREATE OR REPLACE MACRO ${schema}.${sig}`, schema)) await conn.run(stmt);
}
