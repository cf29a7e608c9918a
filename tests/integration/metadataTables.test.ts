/**
 * Iceberg's metadata tables through both gates (issue 22): `orders$snapshots`,
 * `$history`, `$refs`, `$files`, `$manifests`, `$partitions` — an embedded
 * warehouse written by pyiceberg (python/metadata_tables_warehouse.py), an
 * in-process gateway, node-postgres.
 *
 * sales.orders (id 1, region 2, customer 3, amount 4) is partitioned by region.
 * Policies:
 *   - alice: customer masked (MASK_SHOW_LAST_4), amount denied;
 *   - bob: region masked (MASK) — the partition column;
 *   - erin: row filter `region = 'EU'`;
 *   - carol: none — the control for every hidden value;
 *   - dave: the catalog lets him load sales.orders, Ranger gives him no read right;
 *   - sales.hidden: the catalog gate lets nobody load it.
 * Expected rows are pyiceberg's own (`table.inspect.*`, the manifest list it
 * reads, bounds decoded with pyiceberg's conversions), never lakegate's output.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { connect, rawTypes, rejection, run } from '../support/clients.js';
import { embeddedLake, startInProcess, type InProcessGateway } from '../support/inProcess.js';
import { REPO_ROOT } from '../support/lakegate.js';
import { P, servicePolicies } from '../support/rangerPolicies.js';

type Row = Record<string, string | null>;
type Json = Record<string, unknown>;
interface Expected {
  fields: Record<string, number>;
  current: string;
  snapshots: { snapshot_id: string; parent_id: string | null; operation: string; manifest_list: string; summary: Record<string, string>; committed_at_ms: number }[];
  history: { snapshot_id: string; parent_id: string | null; is_current_ancestor: boolean }[];
  refs: { name: string; type: string; snapshot_id: string; max_reference_age_in_ms: null; min_snapshots_to_keep: null; max_snapshot_age_in_ms: null }[];
  files: {
    content: number;
    file_path: string;
    file_format: string;
    spec_id: number;
    partition: Record<string, string>;
    record_count: string;
    file_size_in_bytes: string;
    column_sizes: Record<string, string>;
    value_counts: Record<string, string>;
    null_value_counts: Record<string, string>;
    lower_bounds: Record<string, string>;
    upper_bounds: Record<string, string>;
  }[];
  manifests: Record<string, string | number>[];
  partitions: { partition: Record<string, string>; record_count: string; file_count: string; total_size: string }[];
  scans: Record<string, string[]>;
}

const PYTHON = path.join(REPO_ROOT, '.venv', 'bin', 'python');
let gw: InProcessGateway;
let orders: Expected;
let root: string;

const READ = P.allow('analysts read sales', 'sales', '*', '*', { roles: ['analyst'] });
const MASK_CUSTOMER = P.mask('customer masked', 'sales', 'orders', 'customer', [[{ users: ['alice'] }, 'MASK_SHOW_LAST_4']]);
const MASK_REGION = P.mask('region masked', 'sales', 'orders', 'region', [[{ users: ['bob'] }, 'MASK']]);
const DENY_AMOUNT = P.deny('amount hidden from alice', 'sales', 'orders', 'amount', { users: ['alice'] });
const FILTER = P.filter('orders rows', 'sales', 'orders', [[{ users: ['erin'] }, "region = 'EU'"]]);

/** The catalog gate: analysts and dave may load sales.orders; nobody may load sales.hidden. */
function polarisPolicies(dir: string): string {
  const demo = path.join(REPO_ROOT, 'demo', 'polaris');
  const doc = JSON.parse(fs.readFileSync(path.join(demo, 'polaris.json'), 'utf8'));
  const p = (id: number, resources: Record<string, string[]>, accesses: string[]) => ({
    id,
    name: `p${id}`,
    isEnabled: true,
    policyType: 0,
    resources: Object.fromEntries(Object.entries(resources).map(([k, v]) => [k, { values: v }])),
    policyItems: [{ accesses: accesses.map((type) => ({ type, isAllowed: true })), roles: ['analyst'], users: ['dave'] }],
  });
  doc.policies = [
    p(1, { root: ['*'], catalog: ['lake'] }, ['namespace-list']),
    p(2, { root: ['*'], catalog: ['lake'], namespace: ['sales'] }, ['namespace-list', 'namespace-properties-read', 'table-list', 'view-list']),
    p(3, { root: ['*'], catalog: ['lake'], namespace: ['sales'], table: ['orders'] }, ['table-list', 'table-properties-read', 'table-data-read']),
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
  fs.writeFileSync(path.join(out, 'lakehouse.json'), JSON.stringify(servicePolicies('lakehouse', [READ, MASK_CUSTOMER, MASK_REGION, DENY_AMOUNT, FILTER])));
  fs.copyFileSync(path.join(REPO_ROOT, 'demo', 'ranger', 'lakehouse_roles.json'), path.join(out, 'lakehouse_roles.json'));
  return out;
}

beforeAll(async () => {
  if (!fs.existsSync(PYTHON)) throw new Error('.venv missing: run scripts/setup-python.sh');
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-meta-'));
  const written = await run(PYTHON, [path.join(REPO_ROOT, 'tests', 'integration', 'python', 'metadata_tables_warehouse.py'), root], { timeoutMs: 120_000 });
  if (written.code !== 0) throw new Error(`metadata_tables_warehouse.py failed: ${written.stderr}`);
  orders = (JSON.parse(written.stdout) as Record<string, Expected>)['sales.orders']!;
  expect(orders.snapshots).toHaveLength(2);
  expect(orders.files).toHaveLength(3);
  const polarisDir = polarisPolicies(root);
  const rangerDir = queryPolicies(root);
  gw = await startInProcess(() => ({
    ...embeddedLake(root, rangerDir, polarisDir),
    dataGate: { maskKey: 'metadata-tables-test-mask-key', maskPrecedence: 'tag', fence: 'case' },
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
  return (await c.query({ text: sql, types: rawTypes })).rows as Row[];
}

const json = (v: string | null): Json | null => (v === null ? null : (JSON.parse(v) as Json));
/** PostgreSQL's timestamptz text (TimeZone UTC) as epoch milliseconds. */
const epochMs = (v: string) => Date.parse(v.replace(' ', 'T').replace(/\+00$/, 'Z'));
/** A pyiceberg map with the given field ids' entries NULL. */
const nulled = (m: Record<string, string>, ids: number[]) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, ids.includes(Number(k)) ? null : v]));
const byPath = (rows: Row[]) => [...rows].sort((a, b) => String(a['file_path']).localeCompare(String(b['file_path'])));
const expectedFiles = () => [...orders.files].sort((a, b) => a.file_path.localeCompare(b.file_path));

describe('the metadata tables hold what pyiceberg reads of the table', () => {
  test('$snapshots: ids, parents, operation, manifest list, summary, commit time', async () => {
    const c = await as('carol');
    const rows = await query(c, 'select * from sales."orders$snapshots" order by committed_at');
    expect(rows.map((r) => Object.keys(r))[0]).toEqual(['committed_at', 'snapshot_id', 'parent_id', 'operation', 'manifest_list', 'summary']);
    expect(rows.map((r) => ({ ...r, committed_at: epochMs(r['committed_at']!), summary: json(r['summary']) }))).toEqual(
      orders.snapshots.map((s) => ({
        committed_at: s.committed_at_ms,
        snapshot_id: s.snapshot_id,
        parent_id: s.parent_id,
        operation: s.operation,
        manifest_list: s.manifest_list,
        summary: s.summary,
      })),
    );
    const types = await c.query({ text: 'select * from sales."orders$snapshots"', types: rawTypes });
    // timestamptz, int8, int8, text, text, json
    expect(types.fields.map((f) => f.dataTypeID)).toEqual([1184, 20, 20, 25, 25, 114]);
  });

  test('$history and $refs', async () => {
    const c = await as('carol');
    const history = await query(c, 'select snapshot_id, parent_id, is_current_ancestor from sales."orders$history" order by made_current_at');
    expect(history).toEqual(orders.history.map((h) => ({ ...h, is_current_ancestor: h.is_current_ancestor ? 't' : 'f' })));
    const refs = await query(c, 'select * from sales."orders$refs" order by name');
    expect(refs).toEqual([...orders.refs].sort((a, b) => a.name.localeCompare(b.name)));
  });

  test('$files: paths, counts, sizes, partition, statistics and bounds', async () => {
    const c = await as('carol');
    const rows = byPath(await query(c, 'select * from sales."orders$files"'));
    expect(
      rows.map((r) => ({
        content: Number(r['content']),
        file_path: r['file_path'],
        file_format: r['file_format'],
        spec_id: Number(r['spec_id']),
        partition: json(r['partition']),
        record_count: r['record_count'],
        file_size_in_bytes: r['file_size_in_bytes'],
        column_sizes: json(r['column_sizes']),
        value_counts: json(r['value_counts']),
        null_value_counts: json(r['null_value_counts']),
        lower_bounds: json(r['lower_bounds']),
        upper_bounds: json(r['upper_bounds']),
      })),
    ).toEqual(
      expectedFiles().map((f) => ({
        ...f,
        column_sizes: Object.fromEntries(Object.entries(f.column_sizes).map(([k, v]) => [k, Number(v)])),
        value_counts: Object.fromEntries(Object.entries(f.value_counts).map(([k, v]) => [k, Number(v)])),
        null_value_counts: Object.fromEntries(Object.entries(f.null_value_counts).map(([k, v]) => [k, Number(v)])),
      })),
    );
  });

  test('$manifests and $partitions', async () => {
    const c = await as('carol');
    const manifests = await query(
      c,
      'select path, length, partition_spec_id, added_snapshot_id, added_data_files_count, added_rows_count, existing_data_files_count, existing_rows_count, deleted_data_files_count, deleted_rows_count from sales."orders$manifests" order by path',
    );
    const asText = (m: Record<string, string | number>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, String(v)]));
    expect(manifests).toEqual(orders.manifests.map(asText).sort((a, b) => a['path']!.localeCompare(b['path']!)));
    const summaries = await query(c, 'select partition_summaries from sales."orders$manifests" order by path');
    expect(summaries.every((r) => Array.isArray(JSON.parse(r['partition_summaries']!)))).toBe(true);
    const partitions = await query(c, 'select * from sales."orders$partitions"');
    const key = (p: unknown) => JSON.stringify(p);
    expect(partitions.map((r) => ({ ...r, partition: json(r['partition']) })).sort((a, b) => key(a.partition).localeCompare(key(b.partition)))).toEqual(
      [...orders.partitions].sort((a, b) => key(a.partition).localeCompare(key(b.partition))),
    );
  });

  test('a snapshot id read from $snapshots time-travels in "orders@<id>"', async () => {
    for (const user of ['carol', 'alice']) {
      const c = await as(user);
      const ids = (await query(c, 'select snapshot_id from sales."orders$snapshots" order by committed_at')).map((r) => r['snapshot_id']!);
      expect(ids).toEqual(orders.snapshots.map((s) => s.snapshot_id));
      for (const id of ids) {
        const rows = await query(c, `select id from sales."orders@${id}" order by id`);
        expect(rows.map((r) => r['id'])).toEqual(orders.scans[id]);
      }
    }
  });
});

describe('a metadata table in other statements', () => {
  test('with parameters (extended protocol), joined with its table under a row filter, in a CTE', async () => {
    const erin = await as('erin');
    const first = orders.snapshots[0]!.snapshot_id;
    const r = await erin.query({ text: 'select snapshot_id, operation from sales."orders$snapshots" where snapshot_id = $1', values: [first], types: rawTypes });
    expect(r.rows).toEqual([{ snapshot_id: first, operation: 'append' }]);
    const joined = await query(
      erin,
      'with s as (select snapshot_id from sales."orders$history" where parent_id is null) select o.id, s.snapshot_id from sales.orders o cross join s order by o.id',
    );
    // erin's row filter still applies to the table; the history row is the first snapshot
    expect(joined).toEqual([
      { id: '1', snapshot_id: first },
      { id: '3', snapshot_id: first },
    ]);
  });

  test('EXPLAIN (POLICY) names the base table’s policies', async () => {
    const rows = await query(await as('alice'), 'explain (policy) select * from sales."orders$files"');
    expect(JSON.stringify(rows)).toContain('customer masked');
  });
});

describe('what the data gate hides of the base table is hidden in its metadata', () => {
  const f = () => orders.fields;

  test('alice (customer masked, amount denied): their bounds and counts are NULL, id and region as pyiceberg reads them', async () => {
    const c = await as('alice');
    const rows = byPath(await query(c, 'select file_path, lower_bounds, upper_bounds, value_counts, null_value_counts, column_sizes, partition, record_count from sales."orders$files"'));
    const hidden = [f()['customer']!, f()['amount']!];
    expect(rows.map((r) => ({ lower: json(r['lower_bounds']), upper: json(r['upper_bounds']), values: json(r['value_counts']), partition: json(r['partition']), records: r['record_count'] }))).toEqual(
      expectedFiles().map((e) => ({
        lower: nulled(e.lower_bounds, hidden),
        upper: nulled(e.upper_bounds, hidden),
        values: Object.fromEntries(Object.entries(nulled(e.value_counts, hidden)).map(([k, v]) => [k, v === null ? null : Number(v)])),
        partition: e.partition,
        records: e.record_count,
      })),
    );
    // the values themselves are in pyiceberg's bounds: not a typo in the field ids
    expect(expectedFiles().some((e) => e.lower_bounds[String(f()['customer'])] === 'Ann Lee' || e.lower_bounds[String(f()['customer'])] === 'Cy Ng')).toBe(true);
    // the control: carol reads the customer's bounds
    const carol = byPath(await query(await as('carol'), 'select file_path, lower_bounds from sales."orders$files"'));
    expect(carol.map((r) => json(r['lower_bounds'])![String(f()['customer'])])).toEqual(expectedFiles().map((e) => e.lower_bounds[String(f()['customer'])]));
  });

  test('bob (the partition column masked): partition values and their summaries NULL, $partitions grouped after hiding', async () => {
    const c = await as('bob');
    // by the lowest id of each file (bob sees ids as stored)
    const idOf = (b: Record<string, unknown>) => Number(b[String(f()['id'])]);
    const files = (await query(c, 'select file_path, partition, lower_bounds from sales."orders$files"')).sort((a, b) => idOf(json(a['lower_bounds'])!) - idOf(json(b['lower_bounds'])!));
    const expected = [...orders.files].sort((a, b) => idOf(a.lower_bounds) - idOf(b.lower_bounds));
    expect(files.map((r) => json(r['partition']))).toEqual(expected.map(() => ({ region: null })));
    expect(files.map((r) => json(r['lower_bounds']))).toEqual(expected.map((e) => nulled(e.lower_bounds, [f()['region']!])));
    // the paths name the partition (data/region=EU/…): hidden too
    expect(files.map((r) => r['file_path'])).toEqual(expected.map(() => null));
    expect(expected.every((e) => /\/region=(EU|US)\//.test(e.file_path))).toBe(true);
    const partitions = await query(c, 'select * from sales."orders$partitions"');
    const sum = (k: 'record_count' | 'file_count' | 'total_size') => String(orders.partitions.reduce((n, p) => n + BigInt(p[k]), 0n));
    expect(partitions.map((r) => ({ ...r, partition: json(r['partition']) }))).toEqual([
      { partition: { region: null }, record_count: sum('record_count'), file_count: sum('file_count'), total_size: sum('total_size') },
    ]);
    expect(orders.partitions.length).toBeGreaterThan(1); // two regions: the grouping is not a coincidence
    const summaries = await query(c, 'select partition_summaries from sales."orders$manifests"');
    for (const r of summaries) for (const s of JSON.parse(r['partition_summaries']!) as Json[]) expect(s).toEqual({ contains_null: null, contains_nan: null, lower_bound: null, upper_bound: null });
    // how many partitions a commit changed counts the hidden values: left out of the summary (pyiceberg has it)
    const summaries2 = await query(c, 'select summary from sales."orders$snapshots" order by committed_at');
    expect(summaries2.map((r) => json(r['summary']))).toEqual(
      orders.snapshots.map((s) => Object.fromEntries(Object.entries(s.summary).filter(([k]) => k !== 'changed-partition-count'))),
    );
    expect(orders.snapshots.every((s) => 'changed-partition-count' in s.summary)).toBe(true);
    // the control: carol sees the regions
    const carol = await query(await as('carol'), 'select partition_summaries from sales."orders$manifests"');
    expect(carol.flatMap((r) => (JSON.parse(r['partition_summaries']!) as Json[]).map((s) => s['upper_bound'])).sort()).toEqual(['EU', 'US']);
  });

  test('erin (row filter): every record count, statistic, partition value and the paths that name them are NULL; snapshot ids and times are not', async () => {
    const c = await as('erin');
    const files = await query(c, 'select * from sales."orders$files"');
    expect(files).toHaveLength(orders.files.length);
    for (const r of files) {
      expect(r['file_format']).toBe('PARQUET');
      // the paths name the partition (data/region=EU/…)
      for (const k of ['file_path', 'partition', 'record_count', 'file_size_in_bytes', 'split_offsets', 'column_sizes', 'value_counts', 'null_value_counts', 'nan_value_counts', 'lower_bounds', 'upper_bounds']) expect([k, r[k]]).toEqual([k, null]);
    }
    const snaps = await query(c, 'select snapshot_id, summary from sales."orders$snapshots" order by committed_at');
    // ids, times and manifest lists stay: they describe commits, not rows
    expect(snaps).toEqual(orders.snapshots.map((s) => ({ snapshot_id: s.snapshot_id, summary: null })));
    const manifests = await query(c, 'select added_rows_count, existing_rows_count, deleted_rows_count, partition_summaries, added_data_files_count from sales."orders$manifests"');
    expect(manifests.every((r) => r['added_rows_count'] === null && r['existing_rows_count'] === null && r['deleted_rows_count'] === null && r['partition_summaries'] === null)).toBe(true);
    expect(manifests).toHaveLength(orders.manifests.length);
    const partitions = await query(c, 'select * from sales."orders$partitions"');
    expect(partitions).toEqual([{ partition: null, record_count: null, file_count: String(orders.files.length), total_size: null }]);
    // the control: the rows erin reads are filtered, so the counts would tell her about others'
    expect((await query(c, 'select id from sales.orders order by id')).map((r) => r['id'])).toEqual(['1', '3']);
  });
});

describe('a metadata table is as visible as its table', () => {
  const missing = async (user: string, sql: string) => {
    const e = await rejection((await as(user)).query(sql));
    return { code: e.code, message: e.message, position: e.position };
  };

  test.each(['snapshots', 'history', 'refs', 'files', 'manifests', 'partitions'])('dave (no read right) gets 42P01 for orders$%s, as for a missing table', async (kind) => {
    const denied = await missing('dave', `select * from sales."orders$${kind}"`);
    expect(denied).toEqual({ code: '42P01', message: `relation "sales.orders$${kind}" does not exist`, position: '15' });
    const absent = await missing('dave', `select * from sales."nosuch$${kind}"`);
    expect({ ...absent, message: absent.message.replace('nosuch', 'orders') }).toEqual(denied);
    // the control: the same query by carol
    expect((await query(await as('carol'), `select count(*) as n from sales."orders$${kind}"`))[0]!['n']).not.toBeNull();
  });

  test('a table the catalog gate hides answers 42P01 like a missing one', async () => {
    const hidden = await missing('carol', 'select * from sales."hidden$snapshots"');
    const absent = await missing('carol', 'select * from sales."nosuch$snapshots"');
    expect(hidden).toEqual({ code: '42P01', message: 'relation "sales.hidden$snapshots" does not exist', position: '15' });
    expect({ ...absent, message: absent.message.replace('nosuch', 'hidden') }).toEqual(hidden);
    // the control: sales.hidden is in the warehouse (pyiceberg wrote it), only the catalog gate hides it
    expect(fs.existsSync(path.join(root, 'warehouse', 'sales', 'hidden', 'metadata'))).toBe(true);
  });

  test('an unknown suffix is a missing relation', async () => {
    expect(await missing('carol', 'select * from sales."orders$bogus"')).toEqual({ code: '42P01', message: 'relation "sales.orders$bogus" does not exist', position: '15' });
    // the control: a known suffix of the same table
    expect(await query(await as('carol'), 'select count(*) as n from sales."orders$refs"')).toEqual([{ n: String(orders.refs.length) }]);
  });

  test('metadata tables are read-only; dave is still told the table does not exist', async () => {
    const carol = await as('carol');
    const insert = await rejection(carol.query(`insert into sales."orders$snapshots" (snapshot_id) values (1)`));
    expect([insert.code, insert.message]).toEqual(['42809', 'cannot change metadata table "orders$snapshots"']);
    const del = await rejection(carol.query(`delete from sales."orders$files"`));
    expect([del.code, del.message]).toEqual(['42809', 'cannot change metadata table "orders$files"']);
    const dave = await rejection((await as('dave')).query(`delete from sales."orders$files"`));
    expect(dave.code).toBe('42P01');
    // nothing was written: still two snapshots
    expect(await query(carol, 'select count(*) as n from sales."orders$snapshots"')).toEqual([{ n: String(orders.snapshots.length) }]);
  });
});
