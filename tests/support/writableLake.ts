/**
 * A warehouse lakegate writes into, for the write-path tests: an empty SQL
 * catalog in the layout pyiceberg's SqlCatalog reads (`<dir>/catalog.db`,
 * catalog `lakegate`, tables under `<dir>`), the embedded catalog over it
 * deciding with polaris-service policies (Ranger 2.9.0's def, through the
 * Polaris front's compiler), a DuckDB 1.5.5 with the iceberg extension locked
 * down as server/engine.ts locks the engine, and pyiceberg's view of a table
 * (tests/fixtures/iceberg/table_state.py) as the independent reference.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { EmbeddedCatalog } from '../../catalog/iceberg/embedded.js';
import { RangerPolarisAuthorizer } from '../../policy/polaris/rangerAuthorizer.js';
import { SqlCatalogFile } from '../../catalog/iceberg/sqlCatalog.js';
import { defaultExtensionDirectory, ensureExtensions } from '../../server/extensions.js';
import { compilePolarisEngine, polarisPolicy, type GrantSpec } from '../fixtures/polaris/policies.js';
import { icebergPython } from './icebergTables.js';
import { REPO_ROOT } from './lakegate.js';

/** The name tests/fixtures/iceberg/lakecatalog.py opens a SQL catalog under. */
export const LAKE_CATALOG = 'lakegate';

const READ_NS = ['namespace-list', 'namespace-properties-read', 'table-list', 'view-list'];
const READ_TABLE = ['table-list', 'table-properties-read', 'table-data-read', 'view-list', 'view-properties-read'];

/**
 * carol manages the catalog; bob reads and writes table data (table-data-write
 * and what it implies, no DDL); alice reads; dave may list namespaces and look
 * into them but load no table.
 */
export function lakeGrants(catalog = LAKE_CATALOG): GrantSpec[] {
  const all = (resource: GrantSpec['resource']): GrantSpec => ({ resource, users: ['carol'], accessTypes: ['catalog-content-manage'] });
  return [
    all({ catalog }),
    all({ catalog, namespace: '*' }),
    all({ catalog, namespace: '*', table: '*' }),
    { resource: { catalog }, users: ['alice', 'bob', 'dave'], accessTypes: ['namespace-list'] },
    { resource: { catalog, namespace: '*' }, users: ['alice', 'bob', 'dave'], accessTypes: READ_NS },
    { resource: { catalog, namespace: '*', table: '*' }, users: ['alice', 'bob'], accessTypes: READ_TABLE },
    { resource: { catalog, namespace: '*', table: '*' }, users: ['bob'], accessTypes: ['table-data-write'] },
  ];
}

export interface WritableLake {
  /** the warehouse folder; catalog.db is in it */
  dir: string;
  sqliteFile: string;
  catalog: EmbeddedCatalog;
  setGrants(grants: GrantSpec[]): void;
  close(): void;
}

export function startWritableLake(grants: GrantSpec[] = lakeGrants()): WritableLake {
  const dir = mkdtempSync(join(tmpdir(), 'lakegate-writes-'));
  const sqliteFile = join(dir, 'catalog.db');
  new SqlCatalogFile(sqliteFile, LAKE_CATALOG, { create: true }).close();
  let version = 1;
  let engine = compilePolarisEngine(grants.map(polarisPolicy), null, version);
  const catalog = new EmbeddedCatalog({ sqliteFile, catalogName: LAKE_CATALOG, realm: 'POLARIS', warehouseRoots: [dir], authorizer: new RangerPolarisAuthorizer(() => engine) });
  return {
    dir,
    sqliteFile,
    catalog,
    setGrants: (g) => (engine = compilePolarisEngine(g.map(polarisPolicy), null, ++version)),
    close: () => {
      catalog.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A DuckDB with iceberg and httpfs loaded, then locked as the engine is: only `allowed` readable and writable. */
export async function lockedDuckDb(allowed: readonly string[]): Promise<DuckDBInstance> {
  const extensionDirectory = defaultExtensionDirectory();
  await ensureExtensions(extensionDirectory, ['avro', 'iceberg', 'httpfs']);
  const instance = await DuckDBInstance.create(':memory:', {
    extension_directory: extensionDirectory,
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    allow_community_extensions: 'false',
    allow_unsigned_extensions: 'false',
    allow_persistent_secrets: 'false',
    threads: '2',
  });
  const admin = await instance.connect();
  try {
    await admin.run('LOAD iceberg');
    await admin.run('LOAD httpfs');
    await admin.run(`SET GLOBAL allowed_directories = [${allowed.map((d) => `'${d.replace(/\/?$/, '/')}'`).join(', ')}]`);
    await admin.run('SET GLOBAL enable_external_access = false');
    await admin.run('SET GLOBAL lock_configuration = true');
  } finally {
    admin.closeSync();
  }
  return instance;
}

/** ATTACH of a loopback session's endpoint, as the SQL side makes it (no credentials: the endpoint holds them). */
export async function attachLoopback(conn: DuckDBConnection, url: string, as = 'lake'): Promise<void> {
  await conn.run(`ATTACH '${LAKE_CATALOG}' AS ${as} (TYPE iceberg, ENDPOINT '${url}', AUTHORIZATION_TYPE 'none')`);
}

/** The message of what `sql` throws ('no error' if it does not). */
export async function failureOf(conn: DuckDBConnection, sql: string): Promise<string> {
  try {
    await conn.run(sql);
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

export interface TableState {
  metadataLocation: string;
  location: string;
  formatVersion: number;
  currentSnapshotId: string | null;
  fields: { id: number; name: string; type: string; required: boolean; doc: string | null }[];
  properties: Record<string, string>;
  snapshots: { snapshotId: string; parentSnapshotId: string | null; sequenceNumber: number; operation: string | null; summary: Record<string, string> }[];
  rows: unknown[][];
  files: string[];
}

/** pyiceberg's SqlCatalog reading `table` (dotted) of the warehouse in `dir` (or through a REST catalog: `catalogArgs`). */
export function tableState(dir: string | string[], table: string): Promise<TableState> {
  const catalogArgs = typeof dir === 'string' ? ['--catalog', 'sql', '--warehouse-dir', dir] : dir;
  return new Promise((resolve, reject) => {
    const child = spawn(icebergPython(), [join(REPO_ROOT, 'tests', 'fixtures', 'iceberg', 'table_state.py'), ...catalogArgs, '--table', table], {
      cwd: join(REPO_ROOT, 'tests', 'fixtures', 'iceberg'),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`table_state.py ${table} failed (${code}):\n${err.slice(-3000)}`));
      try {
        resolve(JSON.parse(out) as TableState);
      } catch (e) {
        reject(new Error(`table_state.py printed no JSON: ${(e as Error).message}\n${out.slice(-2000)}`));
      }
    });
  });
}
