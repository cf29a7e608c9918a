/**
 * The Iceberg test tables, written and scanned by pyiceberg 0.12 and Iceberg's Java
 * library (tests/fixtures/iceberg/*.py, run with the .venv that scripts/setup-python.sh
 * makes, or LAKEGATE_PYTHON). These are the independent references tests compare
 * lakegate's answers with: never lakegate's own output.
 *
 * Snapshot ids are strings throughout: they exceed 2^53, and JSON.parse would round them.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { S3Access } from './icebergRest.js';
import { REPO_ROOT } from './lakegate.js';

const SCRIPTS = join(REPO_ROOT, 'tests', 'fixtures', 'iceberg');
const SETUP = join(REPO_ROOT, 'scripts', 'setup-python.sh');

/** The catalog to write through or scan from. */
export type CatalogRef =
  /** An Iceberg REST catalog: the plain server's root, or the Polaris front's `/api/catalog` with a warehouse and token. */
  | { kind: 'rest'; uri: string; warehouse?: string; token?: string; s3?: S3Access }
  /** pyiceberg's SqlCatalog: `<warehouseDir>/catalog.db` (SQLite) and the tables under warehouseDir. */
  | { kind: 'sql'; warehouseDir: string; s3?: S3Access };

export interface SnapshotEntry {
  snapshotId: string;
  /** The snapshot's timestamp-ms (for time travel by timestamp). */
  timestampMs: number;
  operation: string | null;
  what: string;
  deleteFiles?: string[];
}

export interface TableEntry {
  identifier: string[];
  metadataLocation: string;
  location: string;
  fields: { id: number; name: string; type: string }[];
  properties: Record<string, string>;
  /** Every snapshot the writer made, oldest first. */
  snapshots: SnapshotEntry[];
  partitionedBy?: string[];
  columnTags?: Record<string, string[]>;
  renamed?: { from: string; to: string; fieldId: number };
  added?: { name: string; fieldId: number };
}

export interface ViewEntry {
  identifier: string[];
  sql: string;
  dialect: string;
  baseTables: string[][];
  location: string;
}

export interface TablesManifest {
  catalog: 'rest' | 'sql';
  namespaces: string[][];
  /** Keyed by the dotted identifier: lake.orders_part, lake.history, lake.deletes, lake.evolved, lake.customers, lake.emea.orders, lake.emea.nordics.orders. */
  tables: Record<string, TableEntry>;
  /** lake.big_orders (REST catalogs only). */
  views: Record<string, ViewEntry>;
}

export interface ReferenceScan {
  snapshotId: string;
  columns: { id: number; name: string; type: string }[];
  /** Sorted by their JSON text; values as tests/fixtures/iceberg/scan.py documents. */
  rows: unknown[][];
}

/** The venv's Python; runs scripts/setup-python.sh once if it is missing. */
export function icebergPython(): string {
  const env = process.env['LAKEGATE_PYTHON'];
  if (env) return env;
  const venv = join(REPO_ROOT, '.venv', 'bin', 'python');
  const ok = (): boolean => existsSync(venv) && spawnSync(venv, ['-c', 'import pyiceberg, duckdb'], { timeout: 60_000 }).status === 0;
  if (!ok()) {
    const r = spawnSync('bash', [SETUP], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 900_000 });
    if (r.status !== 0 || !ok()) throw new Error(`scripts/setup-python.sh failed; pyiceberg is required for these tests:\n${r.stderr ?? ''}`);
  }
  return venv;
}

function s3Args(s3: S3Access | undefined): string[] {
  if (!s3) return [];
  // name=value: a random key may begin with '-', which argparse would read as an option
  return [`--s3-endpoint=${s3.endpoint}`, `--s3-access-key-id=${s3.accessKeyId}`, `--s3-secret-access-key=${s3.secretAccessKey}`, `--s3-region=${s3.region}`];
}

function catalogArgs(c: CatalogRef): string[] {
  const args =
    c.kind === 'rest'
      ? ['--catalog', 'rest', '--uri', c.uri, ...(c.warehouse ? ['--warehouse', c.warehouse] : []), ...(c.token ? ['--token', c.token] : [])]
      : ['--catalog', 'sql', '--warehouse-dir', c.warehouseDir];
  return [...args, ...s3Args(c.s3)];
}

/** Runs one of the scripts and parses the JSON object it prints last; rejects with its stderr on failure. */
function runScript(script: string, args: string[], timeoutMs: number): Promise<unknown> {
  const py = icebergPython();
  return new Promise((resolve, reject) => {
    const child = spawn(py, [join(SCRIPTS, script), ...args], {
      cwd: SCRIPTS,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`${script} ${args.join(' ')} failed (${code ?? signal}):\n${err.slice(-4000)}`));
      try {
        resolve(parseWithBigIds(out));
      } catch (e) {
        reject(new Error(`${script} printed no JSON: ${(e as Error).message}\n${out.slice(-2000)}`));
      }
    });
  });
}

/** The scripts print ids as strings; a bare integer beyond 2^53 would be a bug there, so refuse it. */
function parseWithBigIds(text: string): unknown {
  const start = text.indexOf('{');
  if (start < 0) throw new Error('no JSON object');
  return JSON.parse(text.slice(start), (_k, v: unknown) => {
    if (typeof v === 'number' && !Number.isSafeInteger(v) && Number.isInteger(v)) throw new Error(`integer ${v} lost precision`);
    return v;
  });
}

/**
 * Writes the test tables through the catalog (see write_tables.py): all of them, or the
 * keys in `only` (e.g. ['lake.customers']); `replace` drops them first.
 */
export async function writeTestTables(c: CatalogRef, opts: { replace?: boolean; only?: string[]; timeoutMs?: number } = {}): Promise<TablesManifest> {
  const args = catalogArgs(c);
  if (opts.replace) args.push('--replace');
  if (opts.only) args.push('--only', opts.only.join(','));
  return (await runScript('write_tables.py', args, opts.timeoutMs ?? 300_000)) as TablesManifest;
}

/**
 * The reference scan of a table (dotted identifier) at a snapshot (default current):
 * pyiceberg's own, or Iceberg Java's (`reader: 'java'`, which also applies equality deletes).
 */
export async function referenceScan(
  c: CatalogRef,
  table: string,
  opts: { snapshotId?: string; reader?: 'pyiceberg' | 'java'; timeoutMs?: number } = {},
): Promise<ReferenceScan> {
  const args = [...catalogArgs(c), '--table', table, '--reader', opts.reader ?? 'pyiceberg'];
  if (opts.snapshotId) args.push('--snapshot-id', opts.snapshotId);
  return (await runScript('scan.py', args, opts.timeoutMs ?? 180_000)) as ReferenceScan;
}

/**
 * DuckDB 1.5.5's own iceberg_scan of a metadata file (duck_scan.py: a privileged,
 * test-only DuckDB with the signed extensions from the venv's wheels; httpfs for s3://).
 */
export async function duckScan(
  metadataLocation: string,
  opts: { snapshotId?: string; s3?: S3Access; timeoutMs?: number } = {},
): Promise<{ columns: { name: string; type: string }[]; rows: unknown[][] }> {
  const args = ['--metadata-location', metadataLocation, ...s3Args(opts.s3)];
  if (opts.snapshotId) args.push('--snapshot-id', opts.snapshotId);
  return (await runScript('duck_scan.py', args, opts.timeoutMs ?? 120_000)) as { columns: { name: string; type: string }[]; rows: unknown[][] };
}
