/**
 * The data gate on tables read as of an older snapshot, on the scan's
 * virtual columns, and on names that are members of Object.prototype — an
 * embedded warehouse written by pyiceberg (python/time_travel_warehouse.py),
 * an in-process gateway, node-postgres and psql.
 *
 * sales.people was written as (id, ssn, area, nick, email); then ssn became
 * tax_id, area region, email contact, nick was dropped and tier added. The
 * policies name today's columns only:
 *   - tax_id masked MASK_SHOW_LAST_4 for alice;
 *   - contact denied to alice;
 *   - region tagged GEO (the data gate's tag file, by today's name), and the
 *     tag policy redacts GEO (MASK) for alice;
 *   - row filters: erin `region = 'EU'`, bob `tier = 'gold'`.
 * carol has none of them: the control for every masked or filtered answer.
 * Expected values come from pyiceberg's scan of each snapshot with the masks
 * computed here (Hive's mask functions as Ranger documents them).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';
import type { AuthzAuditEvent } from '../../server/audit/event.js';
import { connect, psqlEnv, rejection, run } from '../support/clients.js';
import { embeddedLake, startInProcess, type InProcessGateway } from '../support/inProcess.js';
import { REPO_ROOT } from '../support/lakegate.js';
import { P, servicePolicies } from '../support/rangerPolicies.js';

interface Described {
  metadata_location: string;
  current: string;
  snapshots: { id: string; timestamp_ms: number }[];
  scans: Record<string, Record<string, string | null>[]>;
}
type Row = Record<string, string | null>;

const PYTHON = path.join(REPO_ROOT, '.venv', 'bin', 'python');
let gw: InProcessGateway;
let tables: Record<string, Described>;
let root: string;
let auditFile: string;

const READ = P.allow('analysts read sales', 'sales', '*', '*', { roles: ['analyst', 'engineer'] });
const DENY_CONTACT = P.deny('contact hidden from alice', 'sales', 'people', 'contact', { users: ['alice'] });
const MASK_TAX_ID = P.mask('tax ids', 'sales', 'people', 'tax_id', [[{ users: ['alice'] }, 'MASK_SHOW_LAST_4']]);
const FILTERS = P.filter('people rows', 'sales', 'people', [
  [{ users: ['erin'] }, "region = 'EU'"],
  [{ users: ['bob'] }, "tier = 'gold'"],
]);
const GEO_MASK = P.tagMask('GEO redacted', 'GEO', [[{ users: ['alice'] }, 'MASK']]);

/** Ranger's MASK_SHOW_LAST_4: every letter and digit but the last four becomes x, the rest stays. */
const showLast4 = (s: string) => s.slice(0, -4).replace(/[A-Za-z0-9]/g, 'x') + s.slice(-4);
/** Hive's mask(): upper case → X, lower case → x, digits → n. */
const hiveMask = (s: string) => s.replace(/[A-Z]/g, 'X').replace(/[a-z]/g, 'x').replace(/[0-9]/g, 'n');

/** The catalog gate: analysts may load everything in sales (Polaris's Ranger authorizer policies). */
function polarisPolicies(dir: string): string {
  const demo = path.join(REPO_ROOT, 'demo', 'polaris');
  const doc = JSON.parse(fs.readFileSync(path.join(demo, 'polaris.json'), 'utf8'));
  const p = (id: number, resources: Record<string, string[]>, accesses: string[]) => ({
    id,
    name: `p${id}`,
    isEnabled: true,
    policyType: 0,
    resources: Object.fromEntries(Object.entries(resources).map(([k, v]) => [k, { values: v }])),
    policyItems: [{ accesses: accesses.map((type) => ({ type, isAllowed: true })), roles: ['analyst'], users: [] }],
  });
  doc.policies = [
    p(1, { root: ['*'], catalog: ['lake'] }, ['namespace-list']),
    p(2, { root: ['*'], catalog: ['lake'], namespace: ['sales'] }, ['namespace-list', 'namespace-properties-read', 'table-list', 'view-list']),
    p(3, { root: ['*'], catalog: ['lake'], namespace: ['sales'], table: ['*'] }, ['table-list', 'table-properties-read', 'table-data-read', 'view-list', 'view-properties-read']),
  ];
  const out = path.join(dir, 'polaris');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'polaris.json'), JSON.stringify(doc));
  fs.copyFileSync(path.join(demo, 'polaris_roles.json'), path.join(out, 'polaris_roles.json'));
  return out;
}

function queryPolicies(dir: string): string {
  const out = path.join(dir, 'ranger');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'lakehouse.json'), JSON.stringify(servicePolicies('lakehouse', [READ, DENY_CONTACT, MASK_TAX_ID, FILTERS], [GEO_MASK])));
  fs.copyFileSync(path.join(REPO_ROOT, 'demo', 'ranger', 'lakehouse_roles.json'), path.join(out, 'lakehouse_roles.json'));
  return out;
}

/** Iceberg views as Iceberg's JdbcCatalog stores them (format v1 metadata, iceberg_type VIEW). */
function addViews(dir: string, views: { name: string; sql: string; fields: [number, string, string][] }[]): void {
  const db = new Database(path.join(dir, 'catalog.db'));
  const cols = db.prepare(`SELECT name FROM pragma_table_info('iceberg_tables')`).all() as { name: string }[];
  if (!cols.some((c) => c.name === 'iceberg_type')) db.exec('ALTER TABLE iceberg_tables ADD COLUMN iceberg_type VARCHAR(5)');
  for (const { name, sql, fields } of views) {
    const file = path.join(dir, 'warehouse', 'sales', name, 'metadata', '00000-view.metadata.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify({
        'view-uuid': `00000000-0000-0000-0000-0000000000${String(name.length).padStart(2, '0')}`,
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
  }
  db.close();
}

const people = () => tables['sales.people']!;
const oldId = () => people().snapshots[0]!.id;
const oldRows = () => people().scans[oldId()]!;
const currentRows = () => people().scans[people().current]!;

beforeAll(async () => {
  if (!fs.existsSync(PYTHON)) throw new Error('.venv missing: run scripts/setup-python.sh');
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-tt-'));
  const written = await run(PYTHON, [path.join(REPO_ROOT, 'tests', 'integration', 'python', 'time_travel_warehouse.py'), root], { timeoutMs: 120_000 });
  if (written.code !== 0) throw new Error(`time_travel_warehouse.py failed: ${written.stderr}`);
  tables = JSON.parse(written.stdout);
  expect(people().snapshots).toHaveLength(2);
  addViews(root, [
    { name: 'people_then', sql: `SELECT id, ssn, area FROM sales."people@${oldId()}"`, fields: [[1, 'id', 'long'], [2, 'ssn', 'string'], [3, 'area', 'string']] },
    { name: 'people_files', sql: 'SELECT id, filename FROM people', fields: [[1, 'id', 'long'], [2, 'filename', 'string']] },
  ]);
  const tagsFile = path.join(root, 'column_tags.json');
  fs.writeFileSync(tagsFile, JSON.stringify({ 'sales.people': { region: ['GEO'] } }));
  auditFile = path.join(root, 'audit.jsonl');
  const polarisDir = polarisPolicies(root);
  const rangerDir = queryPolicies(root);
  gw = await startInProcess(() => ({
    ...embeddedLake(root, rangerDir, polarisDir),
    dataGate: { maskKey: 'time-travel-test-mask-key', maskPrecedence: 'tag', columnTagsFile: tagsFile, fence: 'case' },
    audit: { destination: 'file', file: auditFile },
  }));
}, 300_000);

afterAll(async () => {
  await gw?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const clients: pg.Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.end().catch(() => {});
});

async function as(user: string): Promise<pg.Client> {
  const c = await connect({ host: '127.0.0.1', port: gw.server.port }, { user, password: user, database: 'lake' });
  clients.push(c);
  return c;
}

async function query(c: pg.Client, sql: string): Promise<Row[]> {
  const r = await c.query({ text: sql, types: { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig });
  return r.rows as Row[];
}

const ids = (rows: Row[]) => rows.map((r) => r['id']);

/** The complete lines of the audit file, decoded (written asynchronously). */
function auditEvents(): AuthzAuditEvent[] {
  const text = fs.existsSync(auditFile) ? fs.readFileSync(auditFile, 'utf8') : '';
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as AuthzAuditEvent);
}

describe('time travel is decided by today’s column of each field id', () => {
  /** alice at the old snapshot: the old names, today's decisions. */
  const aliceOld = () =>
    oldRows().map((r) => ({ id: r['id']!, ssn: showLast4(r['ssn']!), area: hiveMask(r['area']!), nick: null, email: null }));

  it('alice by snapshot id: ssn masked as tax_id, area redacted by region’s tag, email denied as contact, nick (dropped) NULL', async () => {
    const alice = await as('alice');
    const rows = await query(alice, `SELECT * FROM sales."people@${oldId()}" ORDER BY id`);
    expect(rows).toEqual(aliceOld());
    // not a typo: the values really were stored raw at that snapshot
    expect(oldRows()[1]!['ssn']).toBe('333-33-3333');
    expect(rows[1]!['ssn']).toBe('xxx-xx-3333');
  });

  it('alice by timestamp reads the same snapshot, decided the same way', async () => {
    const alice = await as('alice');
    const at = new Date(people().snapshots[0]!.timestamp_ms).toISOString();
    expect(await query(alice, `SELECT * FROM sales."people@${at}" ORDER BY id`)).toEqual(aliceOld());
  });

  it('control: carol (no mask, no deny, no tag policy) reads the old snapshot raw; the dropped nick is NULL for her too', async () => {
    const carol = await as('carol');
    const rows = await query(carol, `SELECT * FROM sales."people@${oldId()}" ORDER BY id`);
    expect(rows).toEqual(oldRows().map((r) => ({ ...r, nick: null })));
    expect(oldRows().every((r) => r['nick'] !== null)).toBe(true);
  });

  it('control: the current snapshot is masked for alice and raw for carol', async () => {
    const alice = await as('alice');
    expect(await query(alice, 'SELECT * FROM sales.people ORDER BY id')).toEqual(
      currentRows().map((r) => ({ id: r['id']!, tax_id: showLast4(r['tax_id']!), region: hiveMask(r['region']!), contact: null, tier: r['tier']! })),
    );
    const carol = await as('carol');
    expect(await query(carol, 'SELECT * FROM sales.people ORDER BY id')).toEqual(currentRows());
  });

  it('a row filter naming today’s column applies to the old snapshot through the field id (erin: region = EU over area)', async () => {
    const erin = await as('erin');
    const old = await query(erin, `SELECT id, area FROM sales."people@${oldId()}" ORDER BY id`);
    expect(old).toEqual(oldRows().filter((r) => r['area'] === 'EU').map((r) => ({ id: r['id']!, area: r['area']! })));
    expect(old.length).toBeLessThan(oldRows().length);
    expect(ids(await query(erin, 'SELECT id FROM sales.people ORDER BY id'))).toEqual(ids(currentRows().filter((r) => r['region'] === 'EU')));
  });

  it('a row filter naming a column the old snapshot lacks fails closed (bob: tier = gold): no rows; the current snapshot filters', async () => {
    const bob = await as('bob');
    expect(await query(bob, `SELECT * FROM sales."people@${oldId()}"`)).toEqual([]);
    expect(ids(await query(bob, 'SELECT id FROM sales.people ORDER BY id'))).toEqual(ids(currentRows().filter((r) => r['tier'] === 'gold')));
  });

  it('an Iceberg view reading people@<old snapshot> is gated the same way (alice masked, carol raw)', async () => {
    const alice = await as('alice');
    expect(await query(alice, 'SELECT * FROM sales.people_then ORDER BY id')).toEqual(
      oldRows().map((r) => ({ id: r['id']!, ssn: showLast4(r['ssn']!), area: hiveMask(r['area']!) })),
    );
    const carol = await as('carol');
    expect(await query(carol, 'SELECT * FROM sales.people_then ORDER BY id')).toEqual(oldRows().map((r) => ({ id: r['id']!, ssn: r['ssn']!, area: r['area']! })));
  });

  it('EXPLAIN (POLICY) at the old snapshot shows the decisions taken, under the names the snapshot has', async () => {
    const alice = await as('alice');
    const r = await alice.query({ text: `EXPLAIN (POLICY) SELECT * FROM sales."people@${oldId()}"`, rowMode: 'array' });
    const rows = (r.rows as unknown[][]).map((row) => row.map((v) => (v === null ? null : String(v))));
    const rel = 'sales.people';
    expect(rows).toEqual([
      [rel, null, 'select allowed', String(READ['id']), READ['name'], 'policy resource sales.people'],
      [rel, 'id', 'readable', null, null, null],
      [rel, 'ssn', 'mask MASK_SHOW_LAST_4', String(MASK_TAX_ID['id']), MASK_TAX_ID['name'], 'decided as column tax_id'],
      [rel, 'area', 'mask MASK', String(GEO_MASK['id']), GEO_MASK['name'], 'decided as column region; tag GEO'],
      [rel, 'nick', 'restricted', null, null, 'the column is no longer in the table (dropped since this snapshot)'],
      [rel, 'email', 'restricted', String(DENY_CONTACT['id']), DENY_CONTACT['name'], 'decided as column contact; select on the column is not allowed'],
    ]);
  });

  it('the audit trail records the snapshot read and the column decided', async () => {
    const before = auditEvents().reduce((m, e) => Math.max(m, e.seq_num), -1);
    const alice = await as('alice');
    await query(alice, `SELECT id, ssn FROM sales."people@${oldId()}" WHERE id = 1`);
    await query(alice, 'SELECT id, tax_id FROM sales.people WHERE id = 3');
    const end = Date.now() + 5000;
    let events: AuthzAuditEvent[] = [];
    const mine = (e: AuthzAuditEvent) => e.seq_num > before && e.reqUser === 'alice' && e.resource.startsWith('sales/people');
    for (;;) {
      events = auditEvents().filter(mine);
      if (events.filter((e) => e.access === 'MASK_SHOW_LAST_4').length >= 2 || Date.now() > end) break;
      await new Promise((res) => setTimeout(res, 50));
    }
    const info = (e: AuthzAuditEvent) => (e.additional_info === null ? null : JSON.parse(e.additional_info));
    const masks = events.filter((e) => e.access === 'MASK_SHOW_LAST_4');
    expect(masks.map((e) => [e.resource, e.policy, info(e)])).toEqual([
      ['sales/people/tax_id', MASK_TAX_ID['id'], { 'snapshot-id': oldId(), column: 'ssn' }],
      ['sales/people/tax_id', MASK_TAX_ID['id'], { 'snapshot-id': people().current }],
    ]);
    const reads = events.filter((e) => e.access === 'select' && e.resType === '@table');
    expect(reads.map((e) => info(e))).toEqual([{ 'snapshot-id': oldId() }, { 'snapshot-id': people().current }]);
    expect(oldId()).not.toBe(people().current);
  });
});

describe('the scan’s virtual columns are not part of the table', () => {
  const missing = (name: string) => ({ code: '42703', message: `column ${name} does not exist` });
  const answer = async (c: pg.Client, sql: string) => {
    const e = await rejection(c.query(sql));
    return { code: e.code, message: e.message };
  };

  it('control: an unknown column is 42703 in PostgreSQL’s words', async () => {
    const carol = await as('carol');
    expect(await answer(carol, 'SELECT nosuch FROM sales.people')).toEqual(missing('"nosuch"'));
  });

  it('carol (no policy applies): filename, file_row_number, file_index are missing columns, in the list, qualified and in WHERE', async () => {
    const carol = await as('carol');
    expect(await answer(carol, 'SELECT filename, file_row_number FROM sales.people')).toEqual(missing('"filename"'));
    expect(await answer(carol, 'SELECT file_row_number FROM sales.people')).toEqual(missing('"file_row_number"'));
    expect(await answer(carol, 'SELECT file_index FROM sales.people')).toEqual(missing('"file_index"'));
    expect(await answer(carol, 'SELECT p.filename FROM sales.people p')).toEqual(missing('p.filename'));
    expect(await answer(carol, "SELECT id FROM sales.people WHERE filename LIKE '%'")).toEqual(missing('"filename"'));
    expect(await answer(carol, `SELECT filename FROM sales."people@${oldId()}"`)).toEqual(missing('"filename"'));
  });

  it('SELECT * shows the table’s columns only', async () => {
    const carol = await as('carol');
    const r = await carol.query('SELECT * FROM sales.people LIMIT 1');
    expect(r.fields.map((f) => f.name)).toEqual(Object.keys(currentRows()[0]!));
  });

  it('alice (masked) and erin (filtered) get the same answer', async () => {
    for (const user of ['alice', 'erin']) {
      const c = await as(user);
      expect(await answer(c, 'SELECT filename FROM sales.people')).toEqual(missing('"filename"'));
      expect(await answer(c, 'SELECT t.file_row_number FROM sales.people t')).toEqual(missing('t.file_row_number'));
    }
  });

  it('through an Iceberg view', async () => {
    const carol = await as('carol');
    expect(await answer(carol, 'SELECT * FROM sales.people_files')).toEqual(missing('"filename"'));
  });

  it('through COPY (psql), as an unknown column is', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-tt-psql-'));
    try {
      const env = psqlEnv(home, '127.0.0.1', gw.server.port, 'carol', 'carol', { PGDATABASE: 'lake' });
      const copy = async (sql: string) => {
        const r = await run('psql', ['-X', '-v', 'ON_ERROR_STOP=1', '-c', sql], { env, timeoutMs: 30_000 });
        return { code: r.code, stdout: r.stdout, stderr: r.stderr.trim() };
      };
      const q = await copy('COPY (SELECT filename FROM sales.people) TO STDOUT');
      // with PostgreSQL's position, as PostgreSQL 15 reports an unknown column in COPY's query
      expect(q).toEqual({
        code: 1,
        stdout: '',
        stderr: 'ERROR:  column "filename" does not exist\nLINE 1: COPY (SELECT filename FROM sales.people) TO STDOUT\n                     ^',
      });
      const listed = await copy('COPY sales.people (filename) TO STDOUT');
      const unknown = await copy('COPY sales.people (nosuch) TO STDOUT');
      expect(listed).toEqual({ ...unknown, stderr: unknown.stderr.replace('nosuch', 'filename') });
      expect(listed.code).toBe(1);
      // control: the table's own columns copy
      const ok = await copy('COPY sales.people (id) TO STDOUT');
      expect(ok.stdout.trim().split('\n').sort()).toEqual(ids(currentRows()).sort());
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('a real column called filename still reads (carol and alice)', async () => {
    const t = tables['sales.files']!;
    for (const user of ['carol', 'alice']) {
      const c = await as(user);
      expect(await query(c, 'SELECT id, filename FROM sales.files ORDER BY id')).toEqual(t.scans[t.current]);
      expect(await query(c, "SELECT f.filename FROM sales.files f WHERE filename LIKE '%.pdf'")).toEqual([{ filename: 'report.pdf' }]);
    }
  });
});

describe('a ref name that is a member of Object.prototype is an unknown ref', () => {
  it('__proto__, constructor, toString, hasOwnProperty, valueOf: the same 22023 as any unknown ref', async () => {
    const alice = await as('alice');
    for (const ref of ['nosuchref', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']) {
      const e = await rejection(alice.query(`SELECT * FROM sales."people@${ref}"`));
      expect([ref, e.code, e.message]).toEqual([ref, '22023', `sales.people: branch or tag "${ref}" does not exist`]);
    }
  });

  it('control: a ref that exists reads (main)', async () => {
    const carol = await as('carol');
    expect(await query(carol, 'SELECT * FROM sales."people@main" ORDER BY id')).toEqual(currentRows());
  });
});
