/**
 * The engine's own lock-down, under the planner's allowlist: even a statement
 * that got past sql/ could not read files, attach databases, load extensions
 * or change settings. Each refusal has a control that shows the same
 * connection works.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { EngineConnection } from './engine/connection.js';
import { startTestPool } from '../tests/support/enginePool.js';

/** A DuckDB file with the demo's rows, attached read-only as database `demo`. */
async function duckDbDemoFile(dir: string): Promise<string> {
  const file = path.join(dir, 'demo.duckdb');
  const instance = await DuckDBInstance.create(file);
  const c = await instance.connect();
  await c.run('CREATE SCHEMA sales');
  await c.run('CREATE TABLE sales.orders (id INTEGER, ssn VARCHAR, amount DECIMAL(10,2), region VARCHAR)');
  await c.run(`INSERT INTO sales.orders VALUES (1, '111-11-1111', 100.00, 'EU'), (2, '222-22-2222', 250.50, 'US')`);
  c.closeSync();
  instance.closeSync();
  return file;
}

let dir: string;
let engine: Awaited<ReturnType<typeof startTestPool>>;
let conn: EngineConnection;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-engine-'));
  const file = await duckDbDemoFile(dir);
  fs.writeFileSync(path.join(dir, 'secret.csv'), 'a\nleaked\n');
  engine = await startTestPool({ databases: { demo: file } });
  conn = await engine.pool.connect('alice');
});

afterAll(async () => {
  conn?.close();
  await engine?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const refusal = async (sql: string): Promise<string> => {
  try {
    await conn.run(sql);
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

describe('engine lock-down', () => {
  it('control: the attached data is readable, read-only, with PostgreSQL integer division', async () => {
    expect(await conn.rows('SELECT count(*)::INTEGER AS n, 7 / 2 AS q FROM demo.sales.orders')).toEqual([{ n: 2, q: 3 }]);
    expect(await refusal("INSERT INTO demo.sales.orders VALUES (3, 'x', 1, 'EU')")).toMatch(/read-only/i);
  });

  it('reads no file, even one next to the attached database', async () => {
    const file = path.join(dir, 'secret.csv');
    expect(await refusal(`SELECT * FROM read_csv('${file}')`)).toMatch(/disabled by configuration/);
    expect(await refusal(`SELECT * FROM '${file}'`)).toMatch(/disabled by configuration|does not exist/);
    expect(await refusal(`COPY (SELECT 1) TO '${path.join(dir, 'out.csv')}'`)).toMatch(/disabled by configuration/);
    expect(fs.existsSync(path.join(dir, 'out.csv'))).toBe(false);
  });

  it('attaches nothing, loads nothing, changes no setting', async () => {
    expect(await refusal(`ATTACH '${path.join(dir, 'other.duckdb')}' AS other`)).not.toBe('no error');
    expect(fs.existsSync(path.join(dir, 'other.duckdb'))).toBe(false);
    expect(await refusal('INSTALL httpfs')).not.toBe('no error');
    expect(await refusal('LOAD httpfs')).not.toBe('no error');
    expect(await refusal('SET enable_external_access = true')).toMatch(/configuration has been locked/);
    expect(await refusal('SET lock_configuration = false')).toMatch(/configuration has been locked/);
    expect(await refusal("SET TimeZone = 'Europe/Berlin'")).toMatch(/configuration has been locked/);
  });
});
