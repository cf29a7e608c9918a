/**
 * What the access-control suites (tests/integration/grants*.test.ts,
 * setTag.test.ts) share: a warehouse written by pyiceberg's SqlCatalog
 * (python/sql_warehouse.py), catalog-gate policies on the demo's polaris def,
 * data-gate policies that let everyone select (so a read is the catalog gate's
 * doing alone), an embedded gateway's configuration over them, and a few ways
 * of asking and answering.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { rejection, run } from './clients.js';
import { REPO_ROOT } from './lakegate.js';
import { P, tagServiceDef } from './rangerPolicies.js';

export interface Described {
  current: string;
  scans: Record<string, Record<string, string | null>[]>;
}

export const PYTHON = path.join(REPO_ROOT, '.venv', 'bin', 'python');

/** Writes the warehouse into `root` (catalog.db, warehouse/); the reference scans of every table. */
export async function writeWarehouse(root: string): Promise<Record<string, Described>> {
  if (!fs.existsSync(PYTHON)) throw new Error('.venv missing: run scripts/setup-python.sh');
  const written = await run(PYTHON, [path.join(REPO_ROOT, 'tests', 'integration', 'python', 'sql_warehouse.py'), root], { timeoutMs: 120_000 });
  if (written.code !== 0) throw new Error(`sql_warehouse.py failed: ${written.stderr}`);
  return JSON.parse(written.stdout) as Record<string, Described>;
}

/**
 * An Iceberg view as Iceberg's JdbcCatalog stores it in the warehouse's SQL
 * catalog (a row with iceberg_type = 'VIEW' and view metadata, format v1).
 */
export function writeView(root: string, ns: string, name: string, sql: string, fields: [number, string, string][]): void {
  const db = new Database(path.join(root, 'catalog.db'));
  try {
    const cols = db.prepare(`SELECT name FROM pragma_table_info('iceberg_tables')`).all() as { name: string }[];
    if (!cols.some((c) => c.name === 'iceberg_type')) db.exec('ALTER TABLE iceberg_tables ADD COLUMN iceberg_type VARCHAR(5)');
    const file = path.join(root, 'warehouse', ns, name, 'metadata', '00000-view.metadata.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const version = { 'version-id': 1, 'timestamp-ms': 1700000000000, 'schema-id': 0, summary: { operation: 'create' }, representations: [{ type: 'sql', sql, dialect: 'spark' }], 'default-namespace': [ns] };
    fs.writeFileSync(
      file,
      JSON.stringify({
        'view-uuid': '00000000-0000-0000-0000-0000000000aa',
        'format-version': 1,
        location: path.dirname(path.dirname(file)),
        'current-version-id': 1,
        versions: [version],
        'version-log': [{ 'version-id': 1, 'timestamp-ms': 1700000000000 }],
        schemas: [{ type: 'struct', 'schema-id': 0, fields: fields.map(([id, n, type]) => ({ id, name: n, type, required: false })) }],
        properties: {},
      }),
    );
    db.prepare(`INSERT INTO iceberg_tables VALUES ('lake', ?, ?, ?, NULL, 'VIEW')`).run(ns, name, file);
  } finally {
    db.close();
  }
}

/** A polaris-service access policy in the local files' shape. */
export function polarisAllow(id: number, resources: Record<string, string[]>, accesses: string[], roles: string[]) {
  return {
    id,
    name: `p${id}`,
    isEnabled: true,
    policyType: 0,
    resources: Object.fromEntries(Object.entries(resources).map(([k, v]) => [k, { values: v }])),
    policyItems: [{ accesses: accesses.map((type) => ({ type, isAllowed: true })), roles, users: [] }],
  };
}

/** `<root>/polaris`: the demo's polaris def and roles with these policies. */
export function writeCatalogGate(root: string, policies: unknown[]): string {
  const demo = path.join(REPO_ROOT, 'demo', 'polaris');
  const doc = JSON.parse(fs.readFileSync(path.join(demo, 'polaris.json'), 'utf8'));
  doc.policies = policies;
  const out = path.join(root, 'polaris');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'polaris.json'), JSON.stringify(doc));
  fs.copyFileSync(path.join(demo, 'polaris_roles.json'), path.join(out, 'polaris_roles.json'));
  return out;
}

/** `<root>/ranger`: the demo's hive def and roles, `select` for everyone, optional tag policies. */
/** The data gate's tag service for SET TAG suites: PII is hidden from everyone but sqe_admin. */
export const PII_HIDDEN_TAG_POLICIES = {
  serviceName: 'lakehouse_tag',
  serviceId: 101,
  policyVersion: 1,
  serviceDef: tagServiceDef(),
  policies: [P.tagMask('PII is hidden', 'PII', [[{ roles: ['sqe_admin'] }, 'MASK_NONE'], [{ groups: ['public'] }, 'MASK_NULL']])],
};

export function writeDataGate(root: string, tagPolicies?: unknown): string {
  const demo = path.join(REPO_ROOT, 'demo', 'ranger');
  const doc = JSON.parse(fs.readFileSync(path.join(demo, 'lakehouse.json'), 'utf8'));
  doc.policies = [
    {
      id: 1,
      name: 'everyone selects; the catalog gate decides the tables',
      isEnabled: true,
      policyType: 0,
      resources: { database: { values: ['*'] }, table: { values: ['*'] }, column: { values: ['*'] } },
      policyItems: [{ accesses: [{ type: 'select', isAllowed: true }], groups: ['public'], users: [], roles: [] }],
    },
  ];
  if (tagPolicies) doc.tagPolicies = tagPolicies;
  const out = path.join(root, 'ranger');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'lakehouse.json'), JSON.stringify(doc));
  fs.copyFileSync(path.join(demo, 'lakehouse_roles.json'), path.join(out, 'lakehouse_roles.json'));
  return out;
}

type PolicySourceConfig =
  | { kind: 'local'; path: string; serviceName: string }
  | { kind: 'admin'; url: string; serviceName: string; username: string; password: string; timeoutMs: number; retries: number; tagService: boolean };

/** An embedded gateway over `root`'s warehouse; the catalog gate from `catalogGate`. */
export function embeddedConfig(
  root: string,
  catalogGate: PolicySourceConfig,
  accessControl: { grantAuthority: 'admin-role' | 'ranger-delegate'; projectTags?: boolean; projectWrites?: boolean },
) {
  return {
    ranger: { source: { kind: 'local' as const, path: path.join(root, 'ranger'), serviceName: 'lakehouse' }, refreshMs: 30_000, maxStalenessMs: 300_000 },
    catalog: {
      database: 'lake',
      cacheTtlMs: 30_000,
      loadConcurrency: 4,
      source: {
        kind: 'embedded' as const,
        sqliteFile: path.join(root, 'catalog.db'),
        warehouse: [path.join(root, 'warehouse')],
        realm: 'POLARIS',
        policies: { source: catalogGate, refreshMs: 30_000, maxStalenessMs: 300_000 },
      },
    },
    accessControl: {
      grantAuthority: accessControl.grantAuthority,
      adminRoles: ['sqe_admin'],
      realm: '*',
      projectTags: accessControl.projectTags ?? false,
      projectWrites: accessControl.projectWrites ?? false,
    },
  };
}

/** Rows with every value as PostgreSQL's text (null stays null). */
export async function textRows(c: pg.Client, sql: string | pg.QueryConfig): Promise<Record<string, string | null>[]> {
  const q = typeof sql === 'string' ? { text: sql } : sql;
  const r = await c.query({ ...q, types: { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig });
  return r.rows as Record<string, string | null>[];
}

/** The error's SQLSTATE and text. */
export async function failure(p: Promise<unknown>): Promise<{ code: string | undefined; message: string }> {
  const e = await rejection(p);
  return { code: e.code, message: e.message };
}

export const missingRelation = (name: string) => ({ code: '42P01', message: `relation "${name}" does not exist` });
