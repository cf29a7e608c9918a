/**
 * Embedded mode end to end: a warehouse written by pyiceberg's SqlCatalog
 * (tests/integration/python/sql_warehouse.py), served by an in-process
 * gateway whose catalog gate is decided on polaris-service policies, read
 * with node-postgres and psql.
 *
 * - What a user reads equals pyiceberg's own scan of the same snapshot
 *   (partitioned table, two snapshots with time travel, renamed and added column).
 * - A table the user may not load answers exactly like a missing one.
 * - The catalog emulation shows each user only what that user may load:
 *   pg_class, pg_namespace, pg_attribute, pg_tables, information_schema,
 *   psql \dt and \dn, ::regclass, to_regclass, has_table_privilege.
 * Controls: carol (role engineer) may load hr.salaries; alice may not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { CatalogService } from '../../catalog/userCatalog.js';
import { EmbeddedCatalog } from '../../catalog/iceberg/embedded.js';
import { RangerPolarisAuthorizer } from '../../policy/polaris/rangerAuthorizer.js';
import { compileSnapshot } from '../../policy/ranger/compile.js';
import { LocalPolicySource } from '../../policy/ranger/sources/localSource.js';
import { loadParser } from '../../sql/parse.js';
import { connect, rejection, run, type PgError } from '../support/clients.js';
import { embeddedLake, startInProcess, type InProcessGateway } from '../support/inProcess.js';
import { REPO_ROOT } from '../support/lakegate.js';

interface Described {
  metadata_location: string;
  current: string;
  snapshots: { id: string; timestamp_ms: number }[];
  scans: Record<string, Record<string, string | null>[]>;
}

const PYTHON = path.join(REPO_ROOT, '.venv', 'bin', 'python');
let gw: InProcessGateway;
let tables: Record<string, Described>;
let root: string;

function policies(dir: string): string {
  const demo = path.join(REPO_ROOT, 'demo', 'polaris');
  const doc = JSON.parse(fs.readFileSync(path.join(demo, 'polaris.json'), 'utf8'));
  const p = (id: number, resources: Record<string, string[]>, accesses: string[], roles: string[]) => ({
    id,
    name: `p${id}`,
    isEnabled: true,
    policyType: 0,
    resources: Object.fromEntries(Object.entries(resources).map(([k, v]) => [k, { values: v }])),
    policyItems: [{ accesses: accesses.map((type) => ({ type, isAllowed: true })), roles, users: [] }],
  });
  const read = ['table-list', 'table-properties-read', 'table-data-read', 'view-list', 'view-properties-read'];
  const ns = ['namespace-list', 'namespace-properties-read', 'table-list', 'view-list'];
  doc.policies = [
    p(1, { root: ['*'], catalog: ['lake'] }, ['namespace-list'], ['analyst']),
    p(2, { root: ['*'], catalog: ['lake'], namespace: ['sales'] }, ns, ['analyst']),
    p(3, { root: ['*'], catalog: ['lake'], namespace: ['sales'], table: ['*'] }, read, ['analyst']),
    p(4, { root: ['*'], catalog: ['lake'], namespace: ['hr'] }, ns, ['engineer']),
    p(5, { root: ['*'], catalog: ['lake'], namespace: ['hr'], table: ['*'] }, read, ['engineer']),
  ];
  const out = path.join(dir, 'polaris');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'polaris.json'), JSON.stringify(doc));
  fs.copyFileSync(path.join(demo, 'polaris_roles.json'), path.join(out, 'polaris_roles.json'));
  return out;
}

/**
 * Iceberg views as Iceberg's JdbcCatalog stores them (pyiceberg's SqlCatalog has
 * none): a row with iceberg_type = 'VIEW' pointing at view metadata (format v1).
 */
function addViews(dir: string): void {
  const db = new Database(path.join(dir, 'catalog.db'));
  // pyiceberg 0.12 creates the V1 schema with iceberg_type itself; an older file gets it as JdbcCatalog migrates.
  const cols = db.prepare(`SELECT name FROM pragma_table_info('iceberg_tables')`).all() as { name: string }[];
  if (!cols.some((c) => c.name === 'iceberg_type')) db.exec('ALTER TABLE iceberg_tables ADD COLUMN iceberg_type VARCHAR(5)');
  const view = (name: string, sql: string, fields: [number, string, string][]) => {
    const file = path.join(dir, 'warehouse', 'sales', name, 'metadata', '00000-view.metadata.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify({
        'view-uuid': `00000000-0000-0000-0000-00000000000${name.length}`,
        'format-version': 1,
        location: path.dirname(path.dirname(file)),
        'current-version-id': 1,
        versions: [
          {
            'version-id': 1,
            'timestamp-ms': 1700000000000,
            'schema-id': 0,
            summary: { operation: 'create' },
            representations: [{ type: 'sql', sql, dialect: 'spark' }],
            'default-namespace': ['sales'],
          },
        ],
        'version-log': [{ 'version-id': 1, 'timestamp-ms': 1700000000000 }],
        schemas: [{ type: 'struct', 'schema-id': 0, fields: fields.map(([id, n, type]) => ({ id, name: n, type, required: false })) }],
        properties: {},
      }),
    );
    db.prepare(`INSERT INTO iceberg_tables VALUES ('lake', 'sales', ?, ?, NULL, 'VIEW')`).run(name, file);
  };
  view('eu_orders', "SELECT id, amount FROM orders WHERE region = 'EU'", [[1, 'id', 'long'], [2, 'amount', 'decimal(10,2)']]);
  view('peek_salaries', 'SELECT id, salary FROM hr.salaries', [[1, 'id', 'long'], [2, 'salary', 'long']]);
  db.close();
}

/**
 * The data gate's policies (query service): select on every table for the
 * demo roles, no masks or filters, so what a user reads is the catalog gate's
 * doing alone and compares with pyiceberg's scans as stored.
 */
function queryPolicies(dir: string): string {
  const demo = path.join(REPO_ROOT, 'demo', 'ranger');
  const doc = JSON.parse(fs.readFileSync(path.join(demo, 'lakehouse.json'), 'utf8'));
  doc.policies = [
    {
      id: 1,
      name: 'the demo roles read everything',
      isEnabled: true,
      policyType: 0,
      resources: { database: { values: ['*'] }, table: { values: ['*'] }, column: { values: ['*'] } },
      policyItems: [{ accesses: [{ type: 'select', isAllowed: true }], roles: ['analyst', 'engineer'], users: [] }],
    },
  ];
  const out = path.join(dir, 'ranger');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'lakehouse.json'), JSON.stringify(doc));
  fs.copyFileSync(path.join(demo, 'lakehouse_roles.json'), path.join(out, 'lakehouse_roles.json'));
  return out;
}

beforeAll(async () => {
  await loadParser();
  if (!fs.existsSync(PYTHON)) throw new Error('.venv missing: run scripts/setup-python.sh');
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-lake-'));
  const written = await run(PYTHON, [path.join(REPO_ROOT, 'tests', 'integration', 'python', 'sql_warehouse.py'), root], { timeoutMs: 120_000 });
  if (written.code !== 0) throw new Error(`sql_warehouse.py failed: ${written.stderr}`);
  tables = JSON.parse(written.stdout);
  addViews(root);
  const polarisDir = policies(root);
  const rangerDir = queryPolicies(root);
  gw = await startInProcess(() => ({
    ...embeddedLake(root, rangerDir, polarisDir),
  }));
}, 300_000);

afterAll(async () => {
  await gw?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const target = () => ({ host: '127.0.0.1', port: gw.server.port });
const as = (user: string) => connect(target(), { user, password: user, database: 'lake' });
const strings = (rows: Record<string, unknown>[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : String(v)])));

async function query(c: pg.Client, sql: string): Promise<Record<string, string | null>[]> {
  const r = await c.query({ text: sql, types: { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig });
  return strings(r.rows);
}

describe('reads equal pyiceberg', () => {
  let alice: pg.Client;
  beforeAll(async () => {
    alice = await as('alice');
  });
  afterAll(async () => alice?.end());

  it('a partitioned table, current snapshot', async () => {
    const t = tables['sales.orders']!;
    expect(await query(alice, 'SELECT id, region, amount FROM sales.orders ORDER BY id')).toEqual(t.scans[t.current]);
  });

  it('time travel: by snapshot id, by timestamp, and an unknown snapshot is 22023', async () => {
    const t = tables['sales.orders']!;
    const first = t.snapshots[0]!;
    expect(t.scans[first.id]).toHaveLength(2);
    expect(await query(alice, `SELECT id, region, amount FROM sales."orders@${first.id}" ORDER BY id`)).toEqual(t.scans[first.id]);
    const at = new Date(first.timestamp_ms).toISOString();
    expect(await query(alice, `SELECT id, region, amount FROM sales."orders@${at}" ORDER BY id`)).toEqual(t.scans[first.id]);
    const e = await rejection(alice.query('SELECT * FROM sales."orders@1"'));
    expect([e.code, e.message]).toEqual(['22023', 'sales.orders: snapshot 1 does not exist']);
  });

  it('a renamed and an added column, read by field id', async () => {
    const t = tables['sales.evolved']!;
    expect(await query(alice, 'SELECT id, label, discount FROM sales.evolved ORDER BY id')).toEqual(t.scans[t.current]);
    expect(t.scans[t.current]![0]).toEqual({ id: '1', label: 'ann', discount: null });
  });

  it('column tags follow the field id through the rename', async () => {
    const engine = await new LocalPolicySource({ path: path.join(root, 'polaris'), serviceName: 'polaris' }).fetch(null);
    if (!engine.changed) throw new Error('policies not loaded');
    const compiled = compileSnapshot(engine.snapshot);
    const service = new CatalogService(
      new EmbeddedCatalog({ sqliteFile: path.join(root, 'catalog.db'), catalogName: 'lake', realm: 'POLARIS', warehouseRoots: [], authorizer: new RangerPolarisAuthorizer(() => compiled) }),
      { ttlMs: 1000, loadConcurrency: 2 },
    );
    const e = (await service.forUser('alice').lookup({ user: 'alice' }, 'sales', 'evolved')).value;
    expect(e?.kind === 'table' && e.table.columnTags).toEqual({ label: ['PII'] });
    service.close();
  });
});

describe('Iceberg views', () => {
  it('a view reads its base table as the user; the names are the view schema', async () => {
    const alice = await as('alice');
    const t = tables['sales.orders']!;
    const expected = t.scans[t.current]!.filter((r) => r['region'] === 'EU').map((r) => ({ id: r['id'], amount: r['amount'] }));
    expect(await query(alice, 'SELECT * FROM sales.eu_orders ORDER BY id')).toEqual(expected);
    expect(await query(alice, "SELECT relkind FROM pg_class WHERE relname = 'eu_orders'")).toEqual([{ relkind: 'v' }]);
    await alice.end();
  });

  it('a view is not a security boundary: its base table is gated as the querying user', async () => {
    const carol = await as('carol');
    expect(await query(carol, 'SELECT * FROM sales.peek_salaries')).toEqual([{ id: '1', salary: '100000' }]);
    await carol.end();
    const alice = await as('alice');
    // alice may load the view but not hr.salaries: the base table does not exist for her
    const e = await rejection(alice.query('SELECT * FROM sales.peek_salaries'));
    expect([e.code, e.message]).toEqual(['42P01', 'relation "hr.salaries" does not exist']);
    await alice.end();
    const dave = await as('dave');
    expect((await rejection(dave.query('SELECT * FROM sales.eu_orders'))).message).toBe('relation "sales.eu_orders" does not exist');
    await dave.end();
  });
});

describe('denied is missing', () => {
  const fields = (e: PgError) => ({ code: e.code, severity: e.severity, message: e.message, position: e.position, detail: (e as { detail?: string }).detail, hint: (e as { hint?: string }).hint });

  it('control: carol (engineer) reads hr.salaries', async () => {
    const carol = await as('carol');
    expect(await query(carol, 'SELECT id, salary FROM hr.salaries')).toEqual(tables['hr.salaries']!.scans[tables['hr.salaries']!.current]);
    await carol.end();
  });

  it('alice gets for hr.salaries exactly what she gets for a table that does not exist', async () => {
    const alice = await as('alice');
    const denied = fields(await rejection(alice.query('SELECT * FROM hr.salaries')));
    const missingTable = fields(await rejection(alice.query('SELECT * FROM hr.salariez')));
    const missingSchema = fields(await rejection(alice.query('SELECT * FROM hx.salaries')));
    expect(denied).toEqual({ ...missingTable, message: 'relation "hr.salaries" does not exist' });
    expect(missingTable.message).toBe('relation "hr.salariez" does not exist');
    expect(denied).toEqual({ ...missingSchema, message: 'relation "hr.salaries" does not exist' });
    // unqualified through the search path, and inside a subquery, a join, a CTE
    await alice.query('SET search_path = hr, sales');
    expect(fields(await rejection(alice.query('SELECT * FROM salaries')))).toEqual({ ...missingTable, message: 'relation "salaries" does not exist', position: '15' });
    for (const sql of ['SELECT (SELECT count(*) FROM hr.salaries)', 'SELECT * FROM sales.orders o JOIN hr.salaries s ON o.id = s.id', 'WITH x AS (SELECT * FROM hr.salaries) SELECT * FROM x']) {
      expect((await rejection(alice.query(sql))).code).toBe('42P01');
    }
    await alice.end();
  });

  it('dave, with no grant at all, sees no table', async () => {
    const dave = await as('dave');
    expect((await rejection(dave.query('SELECT * FROM sales.orders'))).message).toBe('relation "sales.orders" does not exist');
    expect(await query(dave, "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')")).toEqual([]);
    expect(await query(dave, 'SELECT count(*) AS n FROM information_schema.columns')).toEqual([{ n: '0' }]);
    await dave.end();
  });
});

describe('the catalog emulation shows only what the user may load', () => {
  const probes = async (c: pg.Client) => ({
    classes: (await query(c, "SELECT n.nspname || '.' || c.relname AS r FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1")).map((r) => r['r']),
    namespaces: (await query(c, "SELECT nspname FROM pg_namespace WHERE nspname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1")).map((r) => r['nspname']),
    infoTables: (await query(c, "SELECT table_schema || '.' || table_name AS t FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1")).map((r) => r['t']),
    infoColumns: (await query(c, "SELECT DISTINCT table_schema FROM information_schema.columns ORDER BY 1")).map((r) => r['table_schema']),
    pgTables: (await query(c, "SELECT schemaname || '.' || tablename AS t FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1")).map((r) => r['t']),
    attributes: (await query(c, "SELECT count(*) AS n FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'hr'"))[0]!['n'],
    schemata: (await query(c, "SELECT schema_name FROM information_schema.schemata WHERE schema_name = 'hr'")).length,
  });

  it('carol (control) sees hr everywhere; alice sees it nowhere', async () => {
    const carol = await as('carol');
    const alice = await as('alice');
    const c = await probes(carol);
    expect(c.classes).toContain('hr.salaries');
    expect(c.namespaces).toContain('hr');
    expect(c.infoTables).toContain('hr.salaries');
    expect(c.infoColumns).toContain('hr');
    expect(c.pgTables).toContain('hr.salaries');
    expect(c.attributes).toBe('2');
    expect(c.schemata).toBe(1);
    const a = await probes(alice);
    expect(a).toEqual({
      classes: ['sales.evolved', 'sales.orders'],
      namespaces: ['public', 'sales'],
      infoTables: ['sales.eu_orders', 'sales.evolved', 'sales.orders', 'sales.peek_salaries'],
      infoColumns: ['sales'],
      pgTables: ['sales.evolved', 'sales.orders'],
      attributes: '0',
      schemata: 0,
    });
    await carol.end();
    await alice.end();
  });

  it('::regclass, to_regclass and has_table_privilege: a hidden table is an unknown one', async () => {
    const carol = await as('carol');
    const alice = await as('alice');
    const oid = (await query(carol, "SELECT 'hr.salaries'::regclass::int8 AS o"))[0]!['o'];
    expect(await query(carol, "SELECT to_regclass('hr.salaries')::int8 AS o, has_table_privilege('hr.salaries', 'select') AS p")).toEqual([{ o: oid, p: 't' }]);
    expect((await rejection(alice.query("SELECT 'hr.salaries'::regclass"))).message).toBe('relation "hr.salaries" does not exist');
    expect((await rejection(alice.query("SELECT has_table_privilege('hr.salaries', 'select')"))).message).toBe('relation "hr.salaries" does not exist');
    expect(await query(alice, "SELECT to_regclass('hr.salaries') AS a, to_regclass('hr.nosuch') AS b")).toEqual([{ a: null, b: null }]);
    // by OID: alice's catalog has no such relation
    expect(await query(alice, `SELECT has_table_privilege(${oid}, 'select') AS p, (SELECT ${oid})::regclass::text AS r`)).toEqual([{ p: null, r: oid }]);
    expect(await query(carol, `SELECT has_table_privilege(${oid}, 'select') AS p, (SELECT ${oid})::regclass::text AS r`)).toEqual([{ p: 't', r: 'hr.salaries' }]);
    await carol.end();
    await alice.end();
  });

  it('psql \\dt and \\dn list only what the user may load', async () => {
    const psql = (user: string, cmd: string) =>
      run('psql', [`host=127.0.0.1 port=${gw.server.port} dbname=lake user=${user}`, '-X', '-A', '-t', '-c', cmd], {
        env: { ...process.env, PGPASSWORD: user },
        timeoutMs: 30_000,
      });
    const carol = await psql('carol', '\\dt *.*');
    expect(carol.stderr).toBe('');
    expect(carol.stdout).toContain('hr|salaries|table');
    const alice = await psql('alice', '\\dt *.*');
    expect(alice.stderr).toBe('');
    expect(alice.stdout).toContain('sales|orders|table');
    expect(alice.stdout).not.toContain('salaries');
    expect((await psql('alice', '\\dn')).stdout).not.toContain('hr');
    expect((await psql('alice', '\\d hr.salaries')).stderr).toContain('Did not find any relation named "hr.salaries".');
  });
});
