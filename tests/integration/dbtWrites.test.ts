/**
 * dbt writing through the server (issue 19). tests/integration/dbt-writes/ is a dbt project with every
 * materialization dbt-postgres 1.11 has: seeds (one with column_types), two views (one over the demo's
 * sales.orders as a source), a table with persist_docs, incremental models with the append,
 * delete+insert (two-column key) and merge (on_schema_change append_new_columns) strategies, a
 * timestamp and a check snapshot, generic and singular tests. tests/support/dbtWrites.ts runs
 * seed, run, snapshot, test and docs generate, then all of it again with --vars '{run: 2}', and dumps
 * schema analytics.
 *
 * Against a real PostgreSQL 15 holding the demo's users and sales.orders: every step succeeds and every
 * relation holds what the models compute — the expected rows are computed here from the seed CSVs and
 * the demo's rows, never read from a server — and dbt's statements arrive as STATEMENTS.md says.
 * Against `lakegate demo` as bob (role engineer): the same steps succeed and the dump equals
 * PostgreSQL's, column by column.
 *
 * LAKEGATE_DBT_STATEMENT_LOG=<file> writes what dbt sent PostgreSQL to <file> (STATEMENTS.md is
 * written from it).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { parse } from 'libpg-query';
import {
  dbtMessagesByStep,
  formatStatementLog,
  readSeed,
  readStatementLog,
  runDbtLifecycle,
  sortRows,
  startReferenceDemo,
  stepMarker,
  type DbtWritesRun,
  type LoggedStatement,
  type ReferenceDemo,
  type RelationDump,
} from '../support/dbtWrites.js';
import { startLakegate, type Lakegate } from '../support/lakegate.js';
import { ORDERS } from '../support/target.js';

type Row = (string | null)[];
type Seed = Record<string, string>;

// ---- the project as written: its nodes and the relations they leave in schema analytics

const SEEDS = ['customers', 'order_lines', 'regions'];
const MODELS = ['customer_daily_sales', 'customer_revenue', 'dim_customers', 'order_lines_append', 'orders_by_region', 'stg_customers'];
const SNAPSHOTS = ['customers_snapshot_check', 'customers_snapshot_ts'];
const DATA_TESTS = [
  'accepted_values_customer_revenue_tier__gold__silver__bronze',
  'accepted_values_dim_customers_tier__gold__silver__bronze',
  'accepted_values_stg_customers_tier__gold__silver__bronze',
  'daily_sales_reconcile_with_dim_customers',
  'not_null_customer_daily_sales_amount',
  'not_null_customer_daily_sales_customer_id',
  'not_null_customer_revenue_customer_id',
  'not_null_dim_customers_customer_id',
  'not_null_dim_customers_total_amount',
  'not_null_order_lines_append_order_id',
  'not_null_orders_by_region_order_count',
  'not_null_orders_by_region_region',
  'not_null_regions_region',
  'not_null_stg_customers_customer_id',
  'order_lines_append_loads_each_line_once',
  'relationships_customer_daily_sales_customer_id__customer_id__ref_dim_customers_',
  'relationships_order_lines_append_customer_id__customer_id__ref_customers_',
  'relationships_orders_by_region_region__region__ref_regions_',
  'unique_customer_revenue_customer_id',
  'unique_customers_snapshot_ts_dbt_scd_id',
  'unique_dim_customers_customer_id',
  'unique_orders_by_region_region',
  'unique_regions_region',
  'unique_stg_customers_customer_id',
];
const RELATIONS = [...SEEDS, ...MODELS, ...SNAPSHOTS].sort();

const TS = 'timestamp without time zone';
const CUSTOMER_COLUMNS = [
  'customer_id integer',
  'name text',
  'email text',
  'signup_date date',
  'tier text',
  'is_active boolean',
  'credit_limit double precision', // dbt infers float8 for a CSV column with decimals
  `updated_at ${TS}`,
];
const SNAPSHOT_COLUMNS = [...CUSTOMER_COLUMNS, 'dbt_scd_id text', `dbt_updated_at ${TS}`, `dbt_valid_from ${TS}`, `dbt_valid_to ${TS}`];
const ORDER_LINE_COLUMNS = [
  'order_id bigint',
  'line_no integer',
  'customer_id integer',
  'sku text',
  'quantity integer',
  'unit_price numeric(10,2)',
  'order_date date',
  `shipped_at ${TS}`,
  'is_gift boolean',
  'load_batch integer',
];

const SHAPES: Record<string, { kind: string; columns: string[] }> = {
  customer_daily_sales: {
    kind: 'table',
    columns: ['customer_id integer', 'order_date date', 'line_count bigint', 'units bigint', 'amount numeric(12,2)', 'has_gift boolean', 'computed_in_run integer'],
  },
  customer_revenue: {
    kind: 'table',
    columns: ['customer_id integer', 'tier text', 'revenue numeric(12,2)', 'computed_in_run integer', 'order_count bigint'],
  },
  customers: { kind: 'table', columns: [...CUSTOMER_COLUMNS, 'first_run integer', 'last_run integer'] },
  customers_snapshot_check: { kind: 'table', columns: SNAPSHOT_COLUMNS },
  customers_snapshot_ts: { kind: 'table', columns: SNAPSHOT_COLUMNS },
  dim_customers: {
    kind: 'table',
    columns: [
      'customer_id integer',
      'name text',
      'tier text',
      'is_active boolean',
      'signup_date date',
      'credit_limit double precision',
      'order_count bigint',
      'total_amount numeric(12,2)',
      'first_order_date date',
      `last_shipped_at ${TS}`,
    ],
  },
  order_lines: { kind: 'table', columns: ORDER_LINE_COLUMNS },
  order_lines_append: { kind: 'table', columns: [...ORDER_LINE_COLUMNS, 'loaded_in_run integer'] },
  orders_by_region: {
    kind: 'view',
    columns: ['region text', 'region_name text', 'vat_rate double precision', 'launched_on date', 'order_count bigint', 'first_order_id integer'],
  },
  regions: { kind: 'table', columns: ['region text', 'region_name text', 'vat_rate double precision', 'launched_on date'] },
  stg_customers: { kind: 'view', columns: CUSTOMER_COLUMNS },
};

/** The descriptions of models/schema.yml that persist_docs writes (dim_customers, orders_by_region). */
const COMMENTS: Record<string, { relation: string; columns: Record<string, string> }> = {
  dim_customers: {
    relation: "One row per current customer with their order totals. Rebuilt whole on every run; don't write to it.",
    columns: {
      customer_id: "The customer's id in the source system.",
      name: 'Full name, as the customer wrote it.',
      tier: 'Loyalty tier: gold, silver or bronze.',
      is_active: "Whether the customer's account is open.",
      total_amount: "Sum of quantity × unit price over the customer's order lines loaded so far (0 without any).",
      last_shipped_at: "When the customer's last shipped line left the warehouse (NULL if none has).",
    },
  },
  orders_by_region: {
    relation: "Orders per sales region, from the demo's sales.orders.",
    columns: {
      region: 'Region code, as in sales.orders.',
      region_name: "The region's name.",
      order_count: 'Orders placed in the region (0 where none).',
    },
  },
};

// ---- the expected contents, computed from the seed CSVs as the models and dbt's materializations define them

const customers = readSeed('customers');
const orderLines = readSeed('order_lines');
const regions = readSeed('regions');

/** dbt's seed loader reads an empty CSV field as NULL. */
const nul = (v: string): string | null => (v === '' ? null : v);
const bool = (v: string): string | null => (v === '' ? null : v === 'true' ? 't' : 'f');
/** double precision's text is the shortest that reads back the same number (PostgreSQL 12+), as JavaScript's */
const float8 = (v: string): string | null => (v === '' ? null : String(Number(v)));
function cents(v: string): number {
  const [whole, frac = ''] = v.split('.');
  return Number(whole) * 100 + Number(`${frac}00`.slice(0, 2));
}
const money = (c: number): string => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
const md5 = (s: string): string => crypto.createHash('md5').update(s, 'utf8').digest('hex');
const distinct = <T>(xs: T[]): T[] => [...new Set(xs)];

/** stg_customers: the customer versions current in a run. */
const current = (run: number): Seed[] => customers.filter((c) => Number(c.first_run) <= run && run <= Number(c.last_run));
/** The order lines the models read in a run. */
const loaded = (run: number): Seed[] => orderLines.filter((l) => Number(l.load_batch) <= run);
const linesOf = (run: number, customerId: string): Seed[] => loaded(run).filter((l) => l.customer_id === customerId);
const amount = (ls: Seed[]): number => ls.reduce((s, l) => s + Number(l.quantity) * cents(l.unit_price), 0);

const customerRow = (c: Seed): Row => [c.customer_id!, c.name!, nul(c.email!), c.signup_date!, c.tier!, bool(c.is_active!), float8(c.credit_limit!), c.updated_at!];

function expectedSeed(name: string): Row[] {
  if (name === 'customers') return customers.map((c) => [...customerRow(c), c.first_run!, c.last_run!]);
  if (name === 'order_lines') return orderLines.map(orderLineRow);
  return regions.map((r) => [r.region!, r.region_name!, float8(r.vat_rate!), r.launched_on!]);
}

function orderLineRow(l: Seed): Row {
  return [l.order_id!, l.line_no!, l.customer_id!, l.sku!, l.quantity!, money(cents(l.unit_price!)), l.order_date!, nul(l.shipped_at!), bool(l.is_gift!), l.load_batch!];
}

/** The table, rebuilt by run 2. */
function expectedDimCustomers(): Row[] {
  return current(2).map((c) => {
    const ls = linesOf(2, c.customer_id!);
    const dates = ls.map((l) => l.order_date!).sort();
    const shipped = ls.map((l) => l.shipped_at!).filter((s) => s !== '').sort();
    return [
      c.customer_id!,
      c.name!,
      c.tier!,
      bool(c.is_active!),
      c.signup_date!,
      float8(c.credit_limit!),
      String(distinct(ls.map((l) => l.order_id)).length),
      money(amount(ls)),
      dates[0] ?? null,
      shipped.at(-1) ?? null,
    ];
  });
}

/** Append: each batch was appended by the run of the same number, and never again. */
function expectedOrderLinesAppend(): Row[] {
  return loaded(2).map((l) => [...orderLineRow(l), l.load_batch!]);
}

/** Delete+insert on (customer_id, order_date): run 2 replaced the days that got batch-2 lines. */
function expectedDailySales(): Row[] {
  const days = distinct(loaded(2).map((l) => `${l.customer_id}|${l.order_date}`));
  return days.map((day) => {
    const ls = loaded(2).filter((l) => `${l.customer_id}|${l.order_date}` === day);
    const [customerId, orderDate] = day.split('|');
    return [
      customerId!,
      orderDate!,
      String(ls.length),
      String(ls.reduce((s, l) => s + Number(l.quantity), 0)),
      money(amount(ls)),
      ls.some((l) => l.is_gift === 'true') ? 't' : 'f',
      ls.some((l) => l.load_batch === '2') ? '2' : '1',
    ];
  });
}

/** Merge on customer_id: run 1's rows, then run 2's for the customers with batch-2 lines, with order_count added. */
function expectedCustomerRevenue(): Row[] {
  const row = (c: Seed, run: number): Row => {
    const ls = linesOf(run, c.customer_id!);
    return [c.customer_id!, c.tier!, money(amount(ls)), String(run), run === 2 ? String(distinct(ls.map((l) => l.order_id)).length) : null];
  };
  const rows = new Map(current(1).map((c) => [c.customer_id!, row(c, 1)]));
  const touched = new Set(orderLines.filter((l) => l.load_batch === '2').map((l) => l.customer_id));
  for (const c of current(2)) if (touched.has(c.customer_id)) rows.set(c.customer_id!, row(c, 2));
  return [...rows.values()];
}

interface Version {
  c: Seed;
  from: number;
  to: number | null;
}

/** A snapshot's versions after both runs: `changed` says whether a current version differs from the source's row. */
function snapshotVersions(changed: (was: Seed, now: Seed) => boolean, invalidateHardDeletes: boolean): Version[] {
  const versions: Version[] = current(1).map((c) => ({ c, from: 1, to: null }));
  const open = versions.filter((v) => v.to === null);
  for (const c of current(2)) {
    const v = open.find((x) => x.c.customer_id === c.customer_id);
    if (!v) versions.push({ c, from: 2, to: null });
    else if (changed(v.c, c)) {
      v.to = 2;
      versions.push({ c, from: 2, to: null });
    }
  }
  if (invalidateHardDeletes) {
    for (const v of open) if (!current(2).some((c) => c.customer_id === v.c.customer_id)) v.to = 2;
  }
  return versions;
}

/** Timestamp strategy: a version changes when updated_at moves forward; every dbt column comes from updated_at. */
function expectedSnapshotTs(): Row[] {
  const versions = snapshotVersions((was, now) => was.updated_at! < now.updated_at!, false);
  return versions.map(({ c }) => {
    const closedBy = versions.find((v) => v.c.customer_id === c.customer_id && v.c.updated_at! > c.updated_at!);
    return [...customerRow(c), md5(`${c.customer_id}|${c.updated_at}`), c.updated_at!, c.updated_at!, closedBy?.c.updated_at ?? null];
  });
}

/** Check strategy on tier, is_active, email, removed customers invalidated: dbt's clock stamps the versions (NOW_DERIVED). */
function expectedSnapshotCheck(): Row[] {
  const differs = (a: string, b: string) => a !== b; // a NULL (empty) against a value differs too, as dbt's null checks say
  const versions = snapshotVersions((was, now) => ['tier', 'is_active', 'email'].some((k) => differs(was[k]!, now[k]!)), true);
  return versions.map((v) => [...customerRow(v.c), 'md5(now())', `now()#${v.from}`, `now()#${v.from}`, v.to === null ? null : `now()#${v.to}`]);
}

function expectedOrdersByRegion(): Row[] {
  return regions.map((r) => {
    const ids = ORDERS.filter((o) => o.region === r.region).map((o) => o.id);
    return [r.region!, r.region_name!, float8(r.vat_rate!), r.launched_on!, String(ids.length), ids.length ? String(Math.min(...ids)) : null];
  });
}

const EXPECTED_ROWS: Record<string, () => Row[]> = {
  customers: () => expectedSeed('customers'),
  order_lines: () => expectedSeed('order_lines'),
  regions: () => expectedSeed('regions'),
  stg_customers: () => current(2).map(customerRow),
  orders_by_region: expectedOrdersByRegion,
  dim_customers: expectedDimCustomers,
  order_lines_append: expectedOrderLinesAppend,
  customer_daily_sales: expectedDailySales,
  customer_revenue: expectedCustomerRevenue,
  customers_snapshot_ts: expectedSnapshotTs,
  customers_snapshot_check: expectedSnapshotCheck,
};

// ---- what a run reports, in a form two servers can be compared by

const nodeName = (uniqueId: string) => uniqueId.split('.').filter((_, i) => i === 0 || i === 2).join('.');

function stepSummary(run: DbtWritesRun) {
  return run.steps.map((s) =>
    s.command === 'docs generate'
      ? { step: `pass ${s.pass}: dbt ${s.command}`, code: s.code, catalog: s.catalog ?? null }
      : { step: `pass ${s.pass}: dbt ${s.command}`, code: s.code, results: s.results.map((r) => `${nodeName(r.uniqueId)} ${r.status}`).sort() },
  );
}

function expectedSteps() {
  const catalog = { nodes: [...SEEDS.map((n) => `seed.lakegate_dbt_writes.${n}`), ...MODELS.map((n) => `model.lakegate_dbt_writes.${n}`), ...SNAPSHOTS.map((n) => `snapshot.lakegate_dbt_writes.${n}`)].sort(), errors: null };
  return ([1, 2] as const).flatMap((pass) => [
    { step: `pass ${pass}: dbt seed`, code: 0, results: SEEDS.map((n) => `seed.${n} success`) },
    { step: `pass ${pass}: dbt run`, code: 0, results: MODELS.map((n) => `model.${n} success`) },
    { step: `pass ${pass}: dbt snapshot`, code: 0, results: SNAPSHOTS.map((n) => `snapshot.${n} success`) },
    { step: `pass ${pass}: dbt test`, code: 0, results: DATA_TESTS.map((n) => `test.${n} pass`) },
    { step: `pass ${pass}: dbt docs generate`, code: 0, catalog },
  ]);
}

function relation(run: DbtWritesRun, name: string): RelationDump {
  const r = run.dump.find((x) => x.name === name);
  if (!r) throw new Error(`relation analytics.${name} is missing; the schema holds ${run.dump.map((x) => x.name).join(', ') || 'nothing'}`);
  return r;
}

/** Each column's values down the sorted rows, keyed by the column's name. */
function byColumn(r: RelationDump): Record<string, Row> {
  return Object.fromEntries(r.columns.map((c, i) => [`${c.name} ${c.type}`, r.rows.map((row) => row[i] ?? null)]));
}

function explainSteps(run: DbtWritesRun): string {
  return run.steps
    .filter((s) => s.code !== 0)
    .map((s) => `---- pass ${s.pass}: dbt ${s.command} exited ${s.code}\n${s.output}`)
    .join('\n');
}

// ---- the statements, as STATEMENTS.md lists them

type Stmt = Record<string, Record<string, unknown>>;

/** A statement's kind, in the words STATEMENTS.md uses. */
function statementKind(stmt: Stmt): string {
  const [type, node] = Object.entries(stmt)[0]! as [string, Record<string, any>];
  switch (type) {
    case 'TransactionStmt':
      return String(node.kind).replace('TRANS_STMT_', '');
    case 'SelectStmt':
      return 'SELECT';
    case 'CreateSchemaStmt':
      return node.if_not_exists ? 'CREATE SCHEMA IF NOT EXISTS' : 'CREATE SCHEMA';
    case 'CreateStmt':
      return 'CREATE TABLE';
    case 'CreateTableAsStmt':
      return node.into?.rel?.relpersistence === 't' ? 'CREATE TEMPORARY TABLE AS' : 'CREATE TABLE AS';
    case 'ViewStmt':
      return 'CREATE VIEW';
    case 'RenameStmt':
      return `ALTER ${String(node.renameType).replace('OBJECT_', '')} RENAME TO`;
    case 'AlterTableStmt':
      return `ALTER TABLE ${(node.cmds as { AlterTableCmd: { subtype: string } }[]).map((c) => c.AlterTableCmd.subtype.replace('AT_', '')).join(', ')}`;
    case 'CommentStmt':
      return `COMMENT ON ${String(node.objtype).replace('OBJECT_', '')}`;
    case 'TruncateStmt':
      return 'TRUNCATE';
    case 'InsertStmt':
      return node.selectStmt?.SelectStmt?.valuesLists ? 'INSERT … VALUES' : 'INSERT … SELECT';
    case 'DeleteStmt':
      return node.usingClause ? 'DELETE … USING' : 'DELETE';
    case 'UpdateStmt':
      return node.fromClause ? 'UPDATE … FROM' : 'UPDATE';
    case 'MergeStmt':
      return 'MERGE';
    case 'DropStmt':
      return `DROP ${String(node.removeType).replace('OBJECT_', '')}${node.missing_ok ? ' IF EXISTS' : ''}${node.behavior === 'DROP_CASCADE' ? ' … CASCADE' : ''}`;
    default:
      return type;
  }
}

/** A message's statements, runs of one kind written once with ×n: `DELETE; INSERT … SELECT`. */
async function messageShape(text: string): Promise<string> {
  const kinds = ((await parse(text)).stmts ?? []).map((s) => statementKind(s.stmt as unknown as Stmt));
  const runs: [string, number][] = [];
  for (const k of kinds) {
    const last = runs.at(-1);
    if (last && last[0] === k) last[1]++;
    else runs.push([k, 1]);
  }
  return runs.map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join('; ');
}

// ---- PostgreSQL 15, the reference

let reference: ReferenceDemo;
let pgRun: DbtWritesRun;
let statementLog: LoggedStatement[];

beforeAll(async () => {
  reference = await startReferenceDemo({ statementLog: true });
  pgRun = await runDbtLifecycle(reference.engineer, {
    onStep: async (pass, command) => {
      await reference.admin.query(stepMarker(pass, command));
    },
  });
  statementLog = readStatementLog(reference.statementLogFile!);
  const out = process.env['LAKEGATE_DBT_STATEMENT_LOG'];
  if (out) fs.writeFileSync(out, formatStatementLog(statementLog));
}, 900000);

afterAll(async () => {
  await reference?.stop();
});

describe('the dbt project on a real PostgreSQL 15 (bob, role engineer)', () => {
  test('seed, run, snapshot, test and docs generate succeed on both passes, every node with them', () => {
    expect(explainSteps(pgRun)).toBe('');
    expect(stepSummary(pgRun)).toEqual(expectedSteps());
  });

  test('schema analytics holds each seed, model and snapshot with its kind and column types', () => {
    expect(pgRun.dump.map((r) => ({ name: r.name, kind: r.kind, columns: r.columns.map((c) => `${c.name} ${c.type}`) }))).toEqual(
      RELATIONS.map((name) => ({ name, ...SHAPES[name]! })),
    );
  });

  test('persist_docs wrote the descriptions as comments on dim_customers and orders_by_region, and nowhere else', () => {
    const comments = Object.fromEntries(
      pgRun.dump.map((r) => [r.name, { relation: r.comment, columns: Object.fromEntries(r.columns.filter((c) => c.comment !== null).map((c) => [c.name, c.comment])) }]),
    );
    expect(comments).toEqual(Object.fromEntries(RELATIONS.map((name) => [name, COMMENTS[name] ?? { relation: null, columns: {} }])));
  });

  test.each(RELATIONS)('%s holds what the project computes from the seeds after both runs', (name) => {
    expect(relation(pgRun, name).rows).toEqual(sortRows(EXPECTED_ROWS[name]!()));
  });

  test('dbt sends every statement as a simple Query message, several statements in one message where STATEMENTS.md says', async () => {
    const messages = dbtMessagesByStep(statementLog).flatMap((s) => s.messages);
    expect(messages.length).toBeGreaterThan(100);
    expect(distinct(messages.map((m) => m.protocol))).toEqual(['simple']);
    const shapes = distinct(await Promise.all(messages.map((m) => messageShape(m.text)))).sort();
    expect(shapes).toEqual(
      [
        'BEGIN',
        'COMMIT',
        'ROLLBACK',
        'SELECT',
        'CREATE SCHEMA IF NOT EXISTS',
        'CREATE TABLE',
        'INSERT … VALUES',
        'TRUNCATE',
        'CREATE VIEW',
        'CREATE TABLE AS',
        'CREATE TEMPORARY TABLE AS',
        'ALTER TABLE RENAME TO',
        'ALTER TABLE AddColumn',
        'COMMENT ON TABLE',
        'COMMENT ON VIEW',
        'COMMENT ON COLUMN ×3',
        'COMMENT ON COLUMN ×6',
        'DROP TABLE IF EXISTS … CASCADE',
        'DROP VIEW IF EXISTS … CASCADE',
        'INSERT … SELECT',
        'DELETE; INSERT … SELECT',
        'MERGE',
        'UPDATE … FROM; INSERT … SELECT',
      ].sort(),
    );
  });
});

describe('the same project through lakegate demo (bob, role engineer) ends as on PostgreSQL', () => {
  let lg: Lakegate;
  let lakeRun: DbtWritesRun;

  beforeAll(async () => {
    lg = await startLakegate();
    lakeRun = await runDbtLifecycle({ host: lg.host, port: lg.port, user: 'bob', password: 'bob', dbname: 'demo' });
  }, 900000);

  afterAll(async () => {
    await lg?.stop();
  });

  test('every step ends as on PostgreSQL', () => {
    expect(explainSteps(lakeRun)).toBe('');
    expect(stepSummary(lakeRun)).toEqual(stepSummary(pgRun));
  });

  test('schema analytics holds the same relations', () => {
    expect(lakeRun.dump.map((r) => r.name)).toEqual(pgRun.dump.map((r) => r.name));
  });

  test.each(RELATIONS)('%s: kind, comment, column names, types and comments as on PostgreSQL', (name) => {
    const shape = (r: RelationDump) => ({ kind: r.kind, comment: r.comment, columns: r.columns });
    expect(shape(relation(lakeRun, name))).toEqual(shape(relation(pgRun, name)));
  });

  test.each(RELATIONS)('%s: the rows, column by column, as on PostgreSQL', (name) => {
    expect(byColumn(relation(lakeRun, name))).toEqual(byColumn(relation(pgRun, name)));
  });
});
