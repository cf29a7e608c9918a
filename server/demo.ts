/**
 * The demo: no external service. Seeds a local Iceberg warehouse with the
 * demo table the first time, and points the server at the demo users file,
 * the demo's Ranger policies and roles (demo/ranger/, the same JSON Ranger
 * Admin serves to a plugin) and its catalog-gate policies (demo/polaris/, the
 * polaris service Polaris's Ranger authorizer reads).
 */
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Logger } from 'pino';
import { parseConfig, type Config } from './config.js';
import { SqlCatalogFile } from '../catalog/iceberg/sqlCatalog.js';
import { writeTable } from '../catalog/iceberg/writer.js';

export const DEMO_DATABASE = 'demo';
export const DEMO_USERS = ['alice', 'bob', 'carol', 'dave', 'erin'];
export const DEMO_RANGER_SERVICE = 'lakehouse';
export const DEMO_POLARIS_SERVICE = 'polaris';
/** The demo's MASK_HASH key (a real deployment keeps its own out of sight). */
export const DEMO_MASK_KEY = 'lakegate-demo-mask-key';
/** The schema engineers build in (dbt's target): seeded empty, since Polaris checks CREATE_NAMESPACE on the whole catalog. */
export const DEMO_WORK_SCHEMA = 'analytics';

/** What each demo user reads from sales.orders under the demo's policies (demo/ranger/lakehouse.json). */
export const DEMO_BANNER: readonly string[] = [
  'select id, ssn, amount, region from sales.orders order by id -- what each user reads:',
  '  alice (analyst)                       ssn as xxx-xx-1111 (MASK_SHOW_LAST_4), amount, both rows',
  '  bob   (analyst, engineer)             ssn as HMAC-SHA256 hex (MASK_HASH), amount NULL (MASK_NULL)',
  '  carol (analyst, engineer, sqe_admin)  everything as stored (MASK_NONE)',
  '  dave  (no role)                       ERROR: relation "sales.orders" does not exist',
  '        after carol: GRANT SELECT ON sales.orders TO dave   both rows, ssn as nnn-nn-nnnn (MASK)',
  "  erin  (analyst)                       only the EU row (row filter region = 'EU'), ssn as alice",
  'explain (policy) <query> shows the policies behind it',
  'schema analytics: engineers (bob, carol) create, write, alter and drop there; analysts read it; dave nothing',
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

/** The demo's Iceberg warehouse under DATA_DIR, in pyiceberg's SqlCatalog layout. */
export function demoWarehouse(dataDir: string): { warehouse: string; sqliteFile: string } {
  const root = resolve(dataDir);
  return { warehouse: join(root, 'warehouse'), sqliteFile: join(root, 'catalog.db') };
}

/**
 * Create the demo's Iceberg table `sales.orders` and the empty schema
 * `analytics` in DATA_DIR unless they exist:
 * DuckDB writes the Parquet file with Iceberg field ids, lakegate writes the
 * manifests and metadata, and the SQL catalog (SQLite) points at it, exactly
 * where pyiceberg's SqlCatalog("demo", uri="sqlite:///DATA_DIR/catalog.db",
 * warehouse="file://DATA_DIR/warehouse") would put it.
 */
/** `log`: where the first start says what it creates and when it is done. */
export async function seedDemo(dataDir: string, log?: Logger): Promise<{ warehouse: string; sqliteFile: string }> {
  const paths = demoWarehouse(dataDir);
  mkdirSync(paths.warehouse, { recursive: true });
  // Two demos started at once on one data dir: one writes the table, the other waits and finds it.
  const release = await seedLock(join(resolve(dataDir), '.seeding'));
  try {
    await seedTable(paths, log);
  } finally {
    release();
  }
  return paths;
}

/** An exclusive lock file; one left behind by a crashed start is taken over after a minute. */
async function seedLock(file: string): Promise<() => void> {
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      return () => {
        closeSync(fd);
        unlinkSync(file);
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      try {
        if (Date.now() - statSync(file).mtimeMs > 60000) unlinkSync(file);
      } catch {
        // released meanwhile
      }
      await sleep(100);
    }
  }
}

async function seedTable(paths: { warehouse: string; sqliteFile: string }, log?: Logger): Promise<void> {
  const catalog = new SqlCatalogFile(paths.sqliteFile, DEMO_DATABASE, { create: true });
  try {
    // Engineers may create tables in it but not the schema itself: a right to CREATE SCHEMA is checked
    // on the catalog, so it would be a right to create any schema. It is there from the first start.
    catalog.createNamespace([DEMO_WORK_SCHEMA]);
    if (catalog.entry(['sales'], 'orders')) return;
    const started = Date.now();
    log?.info({ event: 'demo-warehouse', warehouse: paths.warehouse }, `first start: creating the demo's Iceberg table sales.orders in ${paths.warehouse} (catalog ${paths.sqliteFile})`);
    const instance = await DuckDBInstance.create(':memory:');
    try {
      const conn = await instance.connect();
      const metadata = await writeTable(conn, {
        location: join(paths.warehouse, 'sales', 'orders'),
        fields: [
          { id: 1, name: 'id', type: 'int', required: false },
          { id: 2, name: 'ssn', type: 'string', required: false },
          { id: 3, name: 'amount', type: 'decimal(10,2)', required: false },
          { id: 4, name: 'region', type: 'string', required: false },
        ],
        rows: `VALUES (1, '111-11-1111', CAST(100.00 AS DECIMAL(10,2)), 'EU'), (2, '222-22-2222', CAST(250.50 AS DECIMAL(10,2)), 'US')`,
      });
      catalog.createNamespace(['sales']);
      catalog.register(['sales'], 'orders', metadata);
      log?.info({ event: 'demo-warehouse', ms: Date.now() - started }, `demo table sales.orders created in ${Date.now() - started} ms`);
    } finally {
      instance.closeSync();
    }
  } finally {
    catalog.close();
  }
}

/**
 * The demo's catalog-gate policies live in DATA_DIR (copied from demo/polaris
 * the first time): GRANT / REVOKE write them, never the package's own files.
 * A copy no GRANT has written (its policyVersion is still the package's) is
 * replaced when the package's policies change, so a data dir made by an
 * earlier version gets the new ones; a copy GRANT wrote is kept as it is.
 */
export function demoPolicyFolder(dataDir: string): string {
  const folder = join(resolve(dataDir), 'policies', DEMO_POLARIS_SERVICE);
  mkdirSync(folder, { recursive: true });
  const from = join(demoAssetDir(), 'polaris');
  for (const f of readdirSync(from)) {
    const to = join(folder, f);
    if (!existsSync(to) || (f === `${DEMO_POLARIS_SERVICE}.json` && unwrittenOlderCopy(join(from, f), to))) copyFileSync(join(from, f), to);
  }
  return folder;
}

/** The copy differs from the package's file, and no policy store write has bumped its version since it was copied. */
function unwrittenOlderCopy(packaged: string, copy: string): boolean {
  const [ours, theirs] = [readFileSync(packaged, 'utf8'), readFileSync(copy, 'utf8')];
  if (ours === theirs) return false;
  try {
    const version = (text: string) => (JSON.parse(text) as { policyVersion?: unknown }).policyVersion;
    return version(theirs) === version(ours);
  } catch {
    return false; // not JSON: left for the policy source to report
  }
}

/** `opsListen`: the admin listener's address (`lakegate demo` serves it on 127.0.0.1:9187 unless told otherwise). */
/** What the demo serves, as a configuration file would say it; `rangerFolder` replaces the demo's data-gate policy folder. */
export async function demoConfigInput(opts: { host: string; port: number; dataDir: string; opsListen?: string; log?: Logger; rangerFolder?: string }): Promise<Record<string, unknown>> {
  const { warehouse, sqliteFile } = await seedDemo(opts.dataDir, opts.log);
  return {
    host: opts.host,
    port: opts.port,
    ...(opts.opsListen ? { ops: { listen: opts.opsListen } } : {}),
    catalog: {
      database: DEMO_DATABASE,
      source: {
        kind: 'embedded',
        sqliteFile,
        warehouse: [warehouse],
        policies: { source: { kind: 'local', path: demoPolicyFolder(opts.dataDir), serviceName: DEMO_POLARIS_SERVICE } },
      },
    },
    usersFile: join(demoAssetDir(), 'users.json'),
    serverSecretFile: join(opts.dataDir, 'lakegate.secret'),
    ranger: { source: { kind: 'local', path: opts.rangerFolder ?? join(demoAssetDir(), 'ranger'), serviceName: DEMO_RANGER_SERVICE } },
    dataGate: { maskKey: DEMO_MASK_KEY },
  };
}

export async function demoConfig(opts: { host: string; port: number; dataDir: string; opsListen?: string; log?: Logger }): Promise<Config> {
  return parseConfig(await demoConfigInput(opts));
}
