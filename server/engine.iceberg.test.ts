/**
 * The engine with DuckDB's iceberg extension loaded (the read path of every
 * table): iceberg_scan reads inside the warehouse roots and nowhere else, the
 * extension cannot be used to write or to reach the network, and the
 * statements DuckDB itself would still accept there (COPY … TO into an
 * allowed directory, CREATE SECRET and ATTACH with httpfs) never get past
 * lakegate's parser and router. Each refusal has a control.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqlCatalogFile } from '../catalog/iceberg/sqlCatalog.js';
import { loadParser, parseStatements } from '../sql/parse.js';
import { planQuery } from '../sql/query.js';
import { StaticCatalog } from '../catalog/catalog.js';
import { seedDemo } from './demo.js';
import type { EngineConnection } from './engine/connection.js';
import { startTestPool } from '../tests/support/enginePool.js';
import { copySource } from '../sql/utilityStatements.js';
import { defaultExtensionDirectory, ensureExtensions } from './extensions.js';
import { route } from './router.js';

let dir: string;
let warehouse: string;
let metadata: string;
let engine: Awaited<ReturnType<typeof startTestPool>>;
let conn: EngineConnection;

beforeAll(async () => {
  await loadParser();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-engine-ice-'));
  const seeded = await seedDemo(path.join(dir, 'data'));
  warehouse = seeded.warehouse;
  const cat = new SqlCatalogFile(seeded.sqliteFile, 'demo');
  metadata = cat.entry(['sales'], 'orders')!.metadataLocation;
  cat.close();
  fs.writeFileSync(path.join(dir, 'secret.csv'), 'a\nleaked\n');
  const extensionDirectory = defaultExtensionDirectory();
  await ensureExtensions(extensionDirectory, ['avro', 'iceberg', 'httpfs']);
  engine = await startTestPool({
    config: { threads: '2', extension_directory: extensionDirectory },
    extensions: ['avro', 'iceberg', 'httpfs'],
    allowedDirectories: [warehouse],
  });
  conn = await engine.pool.connect('alice');
}, 300_000);

afterAll(async () => {
  conn?.close();
  await engine?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const refusal = async (sql: string): Promise<string> => {
  try {
    await conn.run(sql);
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

const catalog = new StaticCatalog([], []);
const plannerRefusal = (sql: string): { code: string; message: string } => {
  try {
    const [stmt] = parseStatements(sql);
    const r = route(stmt!);
    if (r.kind === 'refused') return { code: r.error.code, message: r.error.message };
    planQuery(stmt!, { database: 'demo', searchPath: ['public'], user: 'alice', settings: () => undefined, backendPid: 1, catalog });
  } catch (e) {
    return { code: String((e as { code?: string }).code), message: (e as Error).message };
  }
  return { code: 'accepted', message: '' };
};

describe('engine with the iceberg extension', () => {
  it('control: iceberg_scan reads the warehouse table after the lock-down', async () => {
    const r = await conn.rows(`SELECT id, region FROM iceberg_scan('${metadata}') ORDER BY id`);
    expect(r.map((x) => [x['id'], x['region']])).toEqual([[1, 'EU'], [2, 'US']]);
  });

  it('allows the warehouse root and DuckDB temp directory only', async () => {
    const r = await conn.rows("SELECT value FROM duckdb_settings() WHERE name = 'allowed_directories'");
    const value = String(r[0]!['value']);
    const listed = value.replace(/^\[|\]$/g, '').split(',').map((s) => s.trim()).filter(Boolean);
    expect(listed).toContain(`${warehouse}/`);
    // DuckDB adds its own temp directory; nothing else is there.
    expect(listed.filter((d) => d !== `${warehouse}/`).every((d) => d.includes('lakegate-pool-'))).toBe(true);
  });

  it('reads nothing outside the warehouse, not even through iceberg_scan or a ../ escape', async () => {
    expect(await refusal(`SELECT * FROM read_csv('${path.join(dir, 'secret.csv')}')`)).toMatch(/disabled by configuration/);
    expect(await refusal(`SELECT * FROM read_csv('${warehouse}/../../secret.csv')`)).toMatch(/disabled by configuration/);
    expect(await refusal(`SELECT * FROM iceberg_scan('${path.join(dir, 'secret.csv')}')`)).toMatch(/disabled by configuration/);
    expect(await refusal(`SELECT * FROM read_text('/etc/passwd')`)).toMatch(/disabled by configuration/);
    expect(await refusal(`SELECT * FROM read_csv('http://127.0.0.1:1/x.csv')`)).toMatch(/disabled by configuration/);
  });

  it('DuckDB itself would write into the warehouse: lakegate refuses COPY before it gets there', async () => {
    const target = path.join(warehouse, 'leak.csv');
    // the engine-level fact the router must cover (reference/iceberg-duckdb.md: an allowed directory is writable)
    // the session answers COPY to a file as PostgreSQL answers a non-superuser (sql/utilityStatements.ts) …
    for (const sql of [`COPY (SELECT 1) TO '${target}'`, `COPY sales.orders TO '${target}'`]) {
      const stmt = parseStatements(sql)[0]!;
      expect(route(stmt).kind).toBe('copy');
      expect(() => copySource(stmt)).toThrow(/must be superuser or have privileges of the pg_write_server_files role to COPY to a file/);
    }
    // … and the query planner never takes a COPY as a query
    expect(plannerRefusal(`COPY (SELECT 1) TO '${target}'`).code).toBe('0A000');
    expect(fs.existsSync(target)).toBe(false);
  });

  it('never admits iceberg_* or read_* functions, nor file-name scans, for users', () => {
    for (const sql of [
      `SELECT * FROM iceberg_scan('${metadata}')`,
      `SELECT * FROM iceberg_metadata('${metadata}')`,
      `SELECT * FROM iceberg_snapshots('${metadata}')`,
      `SELECT iceberg_bucket(4, 1)`,
      `SELECT * FROM read_parquet('${warehouse}/x.parquet')`,
      `SELECT * FROM read_csv('${warehouse}/x.csv')`,
      `SELECT * FROM read_text('${warehouse}/x')`,
      `SELECT * FROM parquet_scan('${warehouse}/x.parquet')`,
      `SELECT * FROM glob('${warehouse}/*')`,
    ]) {
      expect([sql, plannerRefusal(sql).code]).toEqual([sql, '42883']);
    }
    expect(plannerRefusal(`SELECT * FROM '${metadata}'`).code).toBe('42601');
    // control: an allowed table function passes the same path
    expect(plannerRefusal('SELECT * FROM generate_series(1, 2)').code).toBe('accepted');
  });

  it('with httpfs loaded, CREATE SECRET and ATTACH of a REST catalog never reach DuckDB', async () => {
    // What DuckDB itself accepts even when locked (the measured caveat) …
    expect(await refusal(`CREATE SECRET s (TYPE s3, KEY_ID 'k', SECRET 'x')`)).toBe('no error');
    await conn.run('DROP SECRET s');
    // … is not SQL lakegate's parser accepts, and what parses is refused by the router.
    for (const sql of [
      `CREATE SECRET s (TYPE s3, KEY_ID 'k', SECRET 'x')`,
      `CREATE SECRET s (TYPE iceberg, CLIENT_ID 'a', CLIENT_SECRET 'b', OAUTH2_SERVER_URI 'http://127.0.0.1:1/t')`,
      `ATTACH 'wh' AS cat (TYPE iceberg, ENDPOINT 'http://127.0.0.1:1', SECRET s)`,
      `INSTALL httpfs`,
    ]) {
      expect([sql, plannerRefusal(sql).code]).toEqual([sql, '42601']);
    }
    expect(plannerRefusal(`LOAD 'httpfs'`).code).toBe('0A000');
    expect(plannerRefusal(`SELECT * FROM duckdb_secrets()`).code).toBe('42883');
  });
});
