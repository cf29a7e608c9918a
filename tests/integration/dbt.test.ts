/**
 * dbt-postgres 1.11 (psycopg2, simple queries, explicit transactions) over the demo: the project in
 * tests/integration/dbt/ is copied to a temporary directory and run with the dbt of .venv-dbt/
 * (scripts/setup-python.sh; a missing dbt fails the suite). Read paths pass: debug, source tests
 * (with a control test that must fail), docs generate, show, source freshness. A model build fails
 * once, with lakegate's 42501 naming what is refused (writes come later). Expected values are the
 * demo's rows and declared column types, never lakegate's output.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { connect, rejection, run, type RunResult } from '../support/clients.js';
import { REPO_ROOT } from '../support/lakegate.js';
import { venvPython } from '../support/pytest.js';
import { startTarget, type Target } from '../support/target.js';

const PROJECT = path.join(REPO_ROOT, 'tests', 'integration', 'dbt');

let t: Target;
let dir: string;
let dbtBin: string;

async function dbt(args: string[], user = 'alice'): Promise<RunResult> {
  const r = await run(dbtBin, [...args, '--profiles-dir', dir, '--no-use-colors'], {
    cwd: dir,
    env: {
      ...process.env,
      LAKEGATE_HOST: t.host,
      LAKEGATE_PORT: String(t.port),
      LAKEGATE_USER: user,
      DBT_SEND_ANONYMOUS_USAGE_STATS: 'false',
      DBT_PROFILES_DIR: dir,
      PYTHONDONTWRITEBYTECODE: '1',
    },
    timeoutMs: 180000,
  });
  if (r.timedOut) throw new Error(`dbt ${args.join(' ')} timed out\n${r.stdout}\n${r.stderr}`);
  return r;
}

const json = (file: string) => JSON.parse(fs.readFileSync(path.join(dir, 'target', file), 'utf8'));
const explain = (r: RunResult) => `exit ${r.code}\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-2000)}`;

beforeAll(async () => {
  dbtBin = path.join(path.dirname(venvPython('.venv-dbt', 'dbt-core and dbt-postgres')), 'dbt');
  if (!fs.existsSync(dbtBin)) throw new Error(`${dbtBin} not found: run scripts/setup-python.sh`);
  t = await startTarget();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-dbt-'));
  fs.cpSync(PROJECT, dir, { recursive: true });
}, 120000);

afterAll(async () => {
  await t?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('dbt-postgres', () => {
  test('dbt debug: the connection test passes', async () => {
    const r = await dbt(['debug']);
    expect({ code: r.code, ok: /Connection test: \[OK connection ok\]/.test(r.stdout), all: r.stdout.includes('All checks passed!') }).toEqual({
      code: 0,
      ok: true,
      all: true,
    });
  }, 200000);

  test('dbt test on the source: not_null, unique, accepted_values pass', async () => {
    const r = await dbt(['test', '--select', 'source:sales', '--exclude', 'control_us_orders_found']);
    expect(r.code === 0 ? '' : explain(r)).toBe('');
    const results = json('run_results.json').results as { unique_id: string; status: string; failures: number }[];
    expect(results.map((x) => [x.unique_id.split('.')[2], x.status]).sort()).toEqual([
      ['source_accepted_values_sales_orders_region__EU__US', 'pass'],
      ['source_not_null_sales_orders_id', 'pass'],
      ['source_unique_sales_orders_id', 'pass'],
    ]);
  }, 200000);

  test('control: a test whose query returns the one US order fails with 1 failure', async () => {
    const r = await dbt(['test', '--select', 'control_us_orders_found']);
    expect(r.code).toBe(1);
    const results = json('run_results.json').results as { status: string; failures: number }[];
    expect(results.map((x) => [x.status, x.failures])).toEqual([['fail', 1]]);
  }, 200000);

  test('dbt docs generate: the catalog has the source with its columns and types', async () => {
    const r = await dbt(['docs', 'generate']);
    expect(r.code === 0 ? '' : explain(r)).toBe('');
    const catalog = json('catalog.json');
    expect(catalog.errors ?? null).toBeNull();
    const source = catalog.sources['source.lakegate_demo.sales.orders'];
    expect({ type: source.metadata.type, schema: source.metadata.schema, name: source.metadata.name }).toEqual({
      type: 'BASE TABLE',
      schema: 'sales',
      name: 'orders',
    });
    const columns = Object.values(source.columns as Record<string, { name: string; type: string; index: number }>)
      .sort((a, b) => a.index - b.index)
      .map((c) => [c.name, c.type]);
    expect(columns).toEqual([
      ['id', 'integer'],
      ['ssn', 'text'],
      ['amount', 'numeric(10,2)'],
      ['region', 'text'],
    ]);
  }, 200000);

  test('dbt show: the rows of an inline query', async () => {
    const r = await dbt([
      'show',
      '--inline',
      "select id, amount, region from {{ source('sales', 'orders') }} order by id",
      '--output',
      'json',
      '--log-format',
      'json',
    ]);
    expect(r.code === 0 ? '' : explain(r)).toBe('');
    const preview = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { info: { name: string }; data: { preview?: string } })
      .find((e) => e.info.name === 'ShowNode');
    // dbt's JSON output turns decimals into numbers
    expect(JSON.parse(preview?.data.preview ?? 'null')).toEqual([
      { id: 1, amount: 100.0, region: 'EU' },
      { id: 2, amount: 250.5, region: 'US' },
    ]);
  }, 200000);

  test('dbt source freshness: pass, with the loaded_at the source declares', async () => {
    const r = await dbt(['source', 'freshness']);
    expect(r.code === 0 ? '' : explain(r)).toBe('');
    const results = json('sources.json').results as { unique_id: string; status: string; max_loaded_at: string }[];
    expect(results.map((x) => [x.unique_id, x.status, x.max_loaded_at.slice(0, 19)])).toEqual([
      ['source.lakegate_demo.sales.orders', 'pass', '2024-01-01T00:00:00'],
    ]);
  }, 200000);

  test('dbt run into sales, where no policy lets the user create: the view model fails once, with PostgreSQL\'s 42501', async () => {
    const r = await dbt(['run']);
    expect(r.code).toBe(1);
    const results = json('run_results.json').results as { unique_id: string; status: string; message: string }[];
    expect(results.map((x) => [x.unique_id, x.status])).toEqual([['model.lakegate_demo.order_totals', 'error']]);
    expect(results[0]!.message).toContain('permission denied for schema sales');
    // the statement dbt sent, sent again: its SQLSTATE (dbt prints only the message)
    const sent = fs.readFileSync(path.join(dir, 'target', 'run', 'lakegate_demo', 'models', 'order_totals.sql'), 'utf8');
    expect(sent).toMatch(/create\s+view/i);
    const c = await connect(t, { user: 'alice', password: 'alice' });
    try {
      const e = await rejection(c.query(sent));
      expect({ code: e.code, message: e.message }).toEqual({ code: '42501', message: 'permission denied for schema sales' });
    } finally {
      await c.end();
    }
  }, 200000);
});
