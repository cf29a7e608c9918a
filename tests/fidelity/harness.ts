/**
 * Runs the fidelity corpus against lakegate (in this process, on the demo's
 * configuration plus the corpus tables) and a real PostgreSQL holding the
 * same rows, and compares each answer: column type OIDs, every value as
 * PostgreSQL's text, and the SQLSTATE of errors. Both sides are queried by
 * node-postgres with no type parsing, the user `carol` (unmasked) on lakegate.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { DuckDBInstance } from '@duckdb/node-api';
import { SqlCatalogFile } from '../../catalog/iceberg/sqlCatalog.js';
import { writeTable } from '../../catalog/iceberg/writer.js';
import { parseConfig } from '../../server/config.js';
import { demoAssetDir, demoConfig, demoWarehouse, DEMO_DATABASE, DEMO_RANGER_SERVICE } from '../../server/demo.js';
import { startGateway } from '../../server/gateway.js';
import type { RunningServer } from '../../server/listener.js';
import { createPlanner } from '../../server/planner.js';
import { startPostgres, type RealPostgres } from '../support/realPostgres.js';
import { CORPUS, type CorpusEntry } from './corpus.js';
import { fidelityTables, icebergFields, NAMESPACE, postgresDdl, valuesSql } from './data.js';

export interface Answer {
  oids?: number[];
  rows?: (string | null)[][];
  /** position and hint where the server sent them (the verdict compares the code only) */
  error?: { code: string; message: string; position?: string; hint?: string };
}

export interface Outcome {
  entry: CorpusEntry;
  verdict: 'identical' | 'different' | 'error';
  pg: Answer;
  lakegate: Answer;
  /** what differs, for the report */
  why?: string;
}

const rawTypes = { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig;

async function ask(client: pg.Client, sql: string): Promise<Answer> {
  try {
    const res = (await client.query({ text: sql, rowMode: 'array', types: rawTypes })) as unknown as pg.QueryResult<(string | null)[]>;
    const last = Array.isArray(res) ? (res as pg.QueryResult<(string | null)[]>[]).at(-1)! : res;
    return { oids: last.fields.map((f) => f.dataTypeID), rows: last.rows };
  } catch (e) {
    const err = e as { code?: string; message?: string; position?: string; hint?: string };
    if (!err.code) throw e;
    return { error: { code: err.code, message: String(err.message), ...(err.position ? { position: err.position } : {}), ...(err.hint ? { hint: err.hint } : {}) } };
  }
}

const sortRows = (rows: (string | null)[][]) => rows.map((r) => JSON.stringify(r)).sort();

export function compare(entry: CorpusEntry, pgA: Answer, lg: Answer): Outcome {
  const out = (verdict: Outcome['verdict'], why?: string): Outcome => ({ entry, verdict, pg: pgA, lakegate: lg, why });
  if (pgA.error || lg.error) {
    if (pgA.error && lg.error && pgA.error.code === lg.error.code) return out('identical');
    return out('error', `PostgreSQL ${pgA.error ? pgA.error.code : 'answers'}, lakegate ${lg.error ? `${lg.error.code} ${lg.error.message}` : 'answers'}`);
  }
  if (JSON.stringify(pgA.oids) !== JSON.stringify(lg.oids)) return out('different', `types ${JSON.stringify(pgA.oids)} vs ${JSON.stringify(lg.oids)}`);
  if (entry.compare === 'types') return pgA.rows!.length === lg.rows!.length ? out('identical') : out('different', 'row count');
  const a = entry.ordered ? pgA.rows!.map((r) => JSON.stringify(r)) : sortRows(pgA.rows!);
  const b = entry.ordered ? lg.rows!.map((r) => JSON.stringify(r)) : sortRows(lg.rows!);
  if (a.length !== b.length) return out('different', `${a.length} rows vs ${b.length}`);
  const i = a.findIndex((row, k) => row !== b[k]);
  return i < 0 ? out('identical') : out('different', `row ${i}: ${a[i]} vs ${b[i]}`);
}

export interface Sides {
  pg: pg.Client;
  lakegate: pg.Client;
  stop(): Promise<void>;
}

/** Iceberg tables of the corpus next to the demo's, and a policy letting analysts read them. */
async function seedLakegate(dataDir: string, rangerDir: string): Promise<void> {
  const { warehouse, sqliteFile } = demoWarehouse(dataDir);
  const catalog = new SqlCatalogFile(sqliteFile, DEMO_DATABASE, { create: true });
  const instance = await DuckDBInstance.create(':memory:');
  try {
    const conn = await instance.connect();
    catalog.createNamespace([NAMESPACE]);
    for (const t of fidelityTables()) {
      const metadata = await writeTable(conn, { location: path.join(warehouse, NAMESPACE, t.name), fields: icebergFields(t), rows: valuesSql(t) });
      catalog.register([NAMESPACE], t.name, metadata);
    }
  } finally {
    instance.closeSync();
    catalog.close();
  }
  const src = path.join(demoAssetDir(), 'ranger');
  fs.mkdirSync(rangerDir, { recursive: true });
  for (const f of fs.readdirSync(src)) fs.copyFileSync(path.join(src, f), path.join(rangerDir, f));
  const file = path.join(rangerDir, `${DEMO_RANGER_SERVICE}.json`);
  const policies = JSON.parse(fs.readFileSync(file, 'utf8')) as { policies: { policyType?: number; resources: { database: { values: string[] } } }[] };
  const read = policies.policies.find((p) => (p.policyType ?? 0) === 0 && p.resources.database.values.includes('sales'));
  if (!read) throw new Error('the demo has no access policy on database sales');
  read.resources.database.values.push(NAMESPACE);
  fs.writeFileSync(file, JSON.stringify(policies));
}

export async function startSides(): Promise<Sides> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-fidelity-'));
  let postgres: RealPostgres | undefined;
  let server: RunningServer | undefined;
  const clients: pg.Client[] = [];
  const stop = async () => {
    for (const c of clients) await c.end().catch(() => {});
    await server?.close();
    await postgres?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    postgres = await startPostgres();
    const admin = new pg.Client({ host: postgres.host, port: postgres.port, user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DEMO_DATABASE}`);
    await admin.end();
    const ref = new pg.Client({ host: postgres.host, port: postgres.port, user: 'postgres', database: DEMO_DATABASE });
    ref.on('error', () => {});
    clients.push(ref);
    await ref.connect();
    for (const stmt of postgresDdl(fidelityTables())) await ref.query(stmt);

    const dataDir = path.join(dir, 'data');
    const base = await demoConfig({ host: '127.0.0.1', port: 0, dataDir });
    const rangerDir = path.join(dir, 'ranger');
    await seedLakegate(dataDir, rangerDir);
    const config = parseConfig({ ...base, ranger: { source: { kind: 'local', path: rangerDir, serviceName: DEMO_RANGER_SERVICE } } });
    server = await startGateway(config, pino({ level: 'silent' }), createPlanner);
    const lg = new pg.Client({ host: server.host, port: server.port, user: 'carol', password: 'carol', database: DEMO_DATABASE, query_timeout: 30000 });
    lg.on('error', () => {});
    clients.push(lg);
    await lg.connect();
    return { pg: ref, lakegate: lg, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

export async function runCorpus(sides: Sides, corpus: readonly CorpusEntry[] = CORPUS): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const entry of corpus) {
    const pgA = await ask(sides.pg, entry.sql);
    const lg = await ask(sides.lakegate, entry.sql);
    outcomes.push(compare(entry, pgA, lg));
  }
  return outcomes;
}

export function summary(outcomes: Outcome[]): string {
  const n = (v: Outcome['verdict']) => outcomes.filter((o) => o.verdict === v).length;
  return `pg-fidelity: ${n('identical')} identical, ${n('different')} different, ${n('error')} errors of ${outcomes.length}`;
}
