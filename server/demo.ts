/**
 * The demo: no external service. Seeds a DuckDB warehouse file with the
 * demo table the first time, and points the server at the demo users file and
 * the demo's Ranger policies and roles (demo/ranger/, the same JSON Ranger
 * Admin serves to a plugin).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { parseConfig, type Config } from './config.js';
import { quoteLiteral } from './engine.js';

export const DEMO_DATABASE = 'demo';
export const DEMO_USERS = ['alice', 'bob', 'carol', 'dave', 'erin'];
export const DEMO_RANGER_SERVICE = 'lakehouse';
/** The demo's MASK_HASH key (a real deployment keeps its own out of sight). */
export const DEMO_MASK_KEY = 'lakegate-demo-mask-key';

/** What each demo user reads from sales.orders under the demo's policies (demo/ranger/lakehouse.json). */
export const DEMO_BANNER: readonly string[] = [
  'select id, ssn, amount, region from sales.orders order by id -- what each user reads:',
  '  alice (analyst)                       ssn as xxx-xx-1111 (MASK_SHOW_LAST_4), amount, both rows',
  '  bob   (analyst, engineer)             ssn as HMAC-SHA256 hex (MASK_HASH), amount NULL (MASK_NULL)',
  '  carol (analyst, engineer, sqe_admin)  everything as stored (MASK_NONE)',
  '  dave  (no role)                       ERROR: relation "sales.orders" does not exist',
  "  erin  (analyst)                       only the EU row (row filter region = 'EU'), ssn as alice",
  'explain (policy) <query> shows the policies behind it',
];

/** demo/ at the package root, found from this module's location (src or dist). */
export function demoAssetDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, 'demo', 'users.json'))) return join(dir, 'demo');
    dir = dirname(dir);
  }
  throw new Error('demo/users.json not found next to the lakegate package');
}

/** Create DIR/demo.duckdb with schema sales and table orders unless it exists. */
export async function seedDemo(dataDir: string): Promise<string> {
  mkdirSync(dataDir, { recursive: true });
  const file = resolve(dataDir, `${DEMO_DATABASE}.duckdb`);
  const instance = await DuckDBInstance.create(file);
  const conn = await instance.connect();
  try {
    await conn.run('CREATE SCHEMA IF NOT EXISTS public');
    await conn.run('CREATE SCHEMA IF NOT EXISTS sales');
    const exists = await conn.runAndReadAll(
      `SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'sales' AND table_name = 'orders' AND database_name = ${quoteLiteral(DEMO_DATABASE)}`,
    );
    if (Number(exists.getRows()[0]![0]) === 0) {
      await conn.run('CREATE TABLE sales.orders (id INTEGER, ssn VARCHAR, amount DECIMAL(10,2), region VARCHAR)');
      await conn.run(`INSERT INTO sales.orders VALUES (1, '111-11-1111', 100.00, 'EU'), (2, '222-22-2222', 250.50, 'US')`);
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  return file;
}

export async function demoConfig(opts: { host: string; port: number; dataDir: string }): Promise<Config> {
  const file = await seedDemo(opts.dataDir);
  return parseConfig({
    host: opts.host,
    port: opts.port,
    databases: { [DEMO_DATABASE]: file },
    usersFile: join(demoAssetDir(), 'users.json'),
    ranger: { source: { kind: 'local', path: join(demoAssetDir(), 'ranger'), serviceName: DEMO_RANGER_SERVICE } },
    dataGate: { maskKey: DEMO_MASK_KEY },
  });
}
