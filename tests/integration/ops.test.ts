/**
 * Operations of `lakegate serve` as its own process (tests/support/lakegateServe.ts): the admin
 * listener's /healthz, /readyz and /metrics scraped while real clients work, the per-statement log
 * line, and SIGHUP under open sessions. The data gate's policies are a copy of the demo's in the
 * test's folder, refreshed only hourly, so a change to them takes effect by the reload alone.
 *
 * Expected values come from the demo's rows and policies as written here (alice: ssn through
 * MASK_SHOW_LAST_4, both rows; carol: MASK_NONE; dave: no table), never from lakegate's output.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { REPO_ROOT } from '../support/lakegate.js';
import { startServe, type ServedGateway } from '../support/lakegateServe.js';

let gw: ServedGateway;
let opsPort: number;
let rangerDir: string;
let policyFile: string;
let goodPolicies: string;
const sessions: pg.Client[] = [];

const SSNS = ['111-11-1111', '222-22-2222'];
/** Ranger's MASK_SHOW_LAST_4 on the Hive def: every digit but the last four as x, the dashes kept. */
const showLast4 = (v: string) => v.slice(0, -4).replace(/[0-9]/g, 'x') + v.slice(-4);

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-ops-'));
  rangerDir = path.join(dir, 'ranger');
  fs.cpSync(path.join(REPO_ROOT, 'demo', 'ranger'), rangerDir, { recursive: true });
  policyFile = path.join(rangerDir, 'lakehouse.json');
  goodPolicies = fs.readFileSync(policyFile, 'utf8');
  // The gateway starts with a policy file it cannot read: up, but not ready.
  fs.writeFileSync(policyFile, goodPolicies.slice(0, 200));
  gw = await startServe(
    {
      ranger: { source: { kind: 'local', path: rangerDir, serviceName: 'lakehouse' }, refreshMs: 3_600_000, maxStalenessMs: 7_200_000 },
      ops: { listen: '127.0.0.1:0' },
    },
    { dir },
  );
  const m = /lakegate admin listener on 127\.0\.0\.1:(\d+)/.exec(gw.output());
  if (!m) throw new Error(`no admin listener line in:\n${gw.output()}`);
  opsPort = Number(m[1]);
}, 120_000);

afterAll(async () => {
  for (const c of sessions) await c.end().catch(() => undefined);
  await gw?.stop();
  if (gw) fs.rmSync(gw.dir, { recursive: true, force: true });
});

const get = async (p: string) => {
  const r = await fetch(`http://127.0.0.1:${opsPort}${p}`);
  return { status: r.status, type: r.headers.get('content-type') ?? '', body: await r.text() };
};

/** The sum of a metric's samples whose labels include `labels` (0 when there is none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) total += Number(m[3]);
  }
  return total;
}

const scrape = async () => (await get('/metrics')).body;

async function login(user: string, password = user): Promise<pg.Client> {
  const c = new pg.Client({ host: '127.0.0.1', port: gw.port, user, password, database: 'demo' });
  await c.connect();
  sessions.push(c);
  return c;
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

/** SIGHUP, then wait for the reload's outcome line (`reloaded:` or `reload refused`). */
async function reload(): Promise<string> {
  const before = count(gw.output(), '"event":"reload","outcome"');
  gw.signal('SIGHUP');
  const deadline = Date.now() + 30_000;
  while (count(gw.output(), '"event":"reload","outcome"') === before) {
    if (Date.now() > deadline) throw new Error(`no reload outcome after SIGHUP:\n${gw.output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const lines = gw.output().split('\n').filter((l) => l.includes('"event":"reload","outcome"'));
  return lines[lines.length - 1]!;
}

const configFile = () => path.join(gw.dir, 'config.json');
const readConfig = () => JSON.parse(fs.readFileSync(configFile(), 'utf8')) as Record<string, unknown>;

describe('the admin listener', () => {
  it('is up but not ready while the data gate has no policies, and ready once SIGHUP has loaded them', async () => {
    expect(await get('/healthz')).toMatchObject({ status: 200, body: '{"status":"up"}\n' });
    const notReady = await get('/readyz');
    expect(notReady.status).toBe(503);
    expect(JSON.parse(notReady.body)).toMatchObject({ ready: false, reason: expect.stringContaining('the data gate policies are not loaded (never-loaded)') });
    // Not ready means closed: carol, who reads everything once policies are there, reads nothing now.
    const carol = await login('carol');
    await expect(carol.query('SELECT id FROM sales.orders')).rejects.toMatchObject({ code: '42P01' });

    fs.writeFileSync(policyFile, goodPolicies);
    expect(await reload()).toContain('"outcome":"ok"');
    expect(await get('/readyz')).toMatchObject({ status: 200, body: '{"ready":true}\n' });
    // The same open session now reads the rows.
    expect((await carol.query('SELECT ssn FROM sales.orders ORDER BY id')).rows.map((r) => r.ssn)).toEqual(SSNS);
  }, 60_000);

  it('answers 404 elsewhere and 405 for anything but GET', async () => {
    expect((await get('/')).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${opsPort}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('counts a statement, its rows and masks, a denied table and a refused login in /metrics', async () => {
    const alice = await login('alice');
    const carol = await login('carol');
    const dave = await login('dave');
    const m0 = await scrape();
    expect((await get('/metrics')).type).toMatch(/^text\/plain; version=0\.0\.4/);

    expect((await alice.query('SELECT id, ssn FROM sales.orders ORDER BY id')).rows.map((r) => r.ssn)).toEqual(SSNS.map(showLast4));
    const m1 = await scrape();
    expect(sample(m1, 'lakegate_statements_total', { kind: 'SELECT', sqlstate_class: '00' }) - sample(m0, 'lakegate_statements_total', { kind: 'SELECT', sqlstate_class: '00' })).toBe(1);
    expect(sample(m1, 'lakegate_statement_rows_total', { kind: 'SELECT' }) - sample(m0, 'lakegate_statement_rows_total', { kind: 'SELECT' })).toBe(2);
    expect(sample(m1, 'lakegate_statement_duration_seconds_count', { kind: 'SELECT' }) - sample(m0, 'lakegate_statement_duration_seconds_count', { kind: 'SELECT' })).toBe(1);
    expect(sample(m1, 'lakegate_data_gate_tables_total', { decision: 'read' }) - sample(m0, 'lakegate_data_gate_tables_total', { decision: 'read' })).toBe(1);
    expect(sample(m1, 'lakegate_data_gate_applied_total', { kind: 'mask' }) - sample(m0, 'lakegate_data_gate_applied_total', { kind: 'mask' })).toBe(1);

    // Control: carol's same statement reads the table with no mask (MASK_NONE is none).
    await carol.query('SELECT id, ssn FROM sales.orders ORDER BY id');
    const m2 = await scrape();
    expect(sample(m2, 'lakegate_data_gate_tables_total', { decision: 'read' }) - sample(m1, 'lakegate_data_gate_tables_total', { decision: 'read' })).toBe(1);
    expect(sample(m2, 'lakegate_data_gate_applied_total', { kind: 'mask' }) - sample(m1, 'lakegate_data_gate_applied_total', { kind: 'mask' })).toBe(0);

    // dave may not load the table: 42P01, counted as a class-42 outcome and a denied table.
    await expect(dave.query('SELECT id FROM sales.orders')).rejects.toMatchObject({ code: '42P01' });
    const m3 = await scrape();
    expect(sample(m3, 'lakegate_statements_total', { kind: 'SELECT', sqlstate_class: '42' }) - sample(m2, 'lakegate_statements_total', { kind: 'SELECT', sqlstate_class: '42' })).toBe(1);
    expect(sample(m3, 'lakegate_data_gate_tables_total', { decision: 'denied' }) - sample(m2, 'lakegate_data_gate_tables_total', { decision: 'denied' })).toBe(1);
    expect(sample(m3, 'lakegate_catalog_gate_decisions_total', { decision: 'deny' })).toBeGreaterThan(0);

    // A wrong password: one refused login, and no session more.
    await expect(login('bob', 'not-bobs')).rejects.toMatchObject({ code: '28P01' });
    const m4 = await scrape();
    expect(sample(m4, 'lakegate_logins_total', { outcome: 'refused' }) - sample(m3, 'lakegate_logins_total', { outcome: 'refused' })).toBe(1);
    expect(sample(m4, 'lakegate_logins_total', { outcome: 'ok' }) - sample(m3, 'lakegate_logins_total', { outcome: 'ok' })).toBe(0);
    expect(sample(m4, 'lakegate_sessions')).toBe(sessions.length);

    expect(sample(m4, 'lakegate_engine_processes')).toBeGreaterThan(0);
    expect(sample(m4, 'lakegate_engine_memory_bytes')).toBeGreaterThan(0);
    expect(sample(m4, 'lakegate_policy_loads_total', { gate: 'data', outcome: 'ok' })).toBeGreaterThan(0);
    expect(sample(m4, 'lakegate_backend_calls_total', { target: 'catalog', method: 'loadTable', outcome: 'ok' })).toBeGreaterThan(0);
    // No user, value, table or statement text in any sample.
    const samples = m4.split('\n').filter((l) => !l.startsWith('#')).join('\n');
    for (const leak of ['alice', 'carol', 'dave', 'bob', 'sales', 'orders', 'ssn', '1111', 'not-bobs']) expect(samples).not.toContain(leak);
  }, 60_000);

  it('logs each statement once with its id, user, kind, rows, SQLSTATE and gate decisions, literals redacted', async () => {
    const alice = await login('alice');
    const pid = (await alice.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    const from = gw.output().length;
    await alice.query("SELECT id FROM sales.orders WHERE ssn = '111-11-1111' OR amount > 99.5");
    await expect(alice.query("SELECT id FROM sales.missing WHERE ssn = '222-22-2222'")).rejects.toMatchObject({ code: '42P01' });
    // a named, extended-protocol statement with a parameter
    await alice.query({ name: 'by-id', text: 'SELECT ssn FROM sales.orders WHERE id = $1', values: [2] });
    await new Promise((r) => setTimeout(r, 200));
    const lines = gw
      .output()
      .slice(from)
      .split('\n')
      .filter((l) => l.includes('"event":"statement"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      // the log is written asynchronously: the pid query's line may come after `from`
      .filter((l) => l['statement'] !== 'SELECT pg_backend_pid() AS pid');
    expect(lines).toHaveLength(3);
    const [read, missing, named] = lines;
    // alice sees the masked ssn, which equals no literal: amount > 99.5 finds both rows.
    expect(read).toMatchObject({ user: 'alice', pid, kind: 'SELECT', rows: 2, sqlstate: '00000', tables: ['sales.orders'], masked: ['sales.orders.ssn'], filtered: [], denied: [] });
    expect(read!['statement']).toBe('SELECT id FROM sales.orders WHERE ssn = $1 OR amount > $2');
    expect(typeof read!['durationMs']).toBe('number');
    expect(missing).toMatchObject({ user: 'alice', kind: 'SELECT', rows: null, sqlstate: '42P01', denied: ['sales.missing'] });
    expect(named).toMatchObject({ kind: 'SELECT', rows: 1, sqlstate: '00000', statement: 'SELECT ssn FROM sales.orders WHERE id = $1' });
    expect(new Set(lines.map((l) => l['statementId'])).size).toBe(3);
    for (const l of lines) expect(JSON.stringify(l)).not.toMatch(/111-11|222-22|99\.5/);
  }, 30_000);
});

describe('SIGHUP', () => {
  it('reloads a changed policy file for the next statement of open sessions, dropping none', async () => {
    const alice = await login('alice');
    const erin = await login('erin');
    const pid = (await alice.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const ssns = async () => (await alice.query('SELECT ssn FROM sales.orders ORDER BY id')).rows.map((r) => r.ssn);
    expect(await ssns()).toEqual(SSNS.map(showLast4));

    // Analysts' ssn mask becomes MASK_NULL.
    const changed = JSON.parse(goodPolicies) as { policies: { id: number; dataMaskPolicyItems?: { roles?: string[]; dataMaskInfo: { dataMaskType: string } }[] }[] };
    const item = changed.policies.find((p) => p.id === 2)!.dataMaskPolicyItems!.find((i) => i.roles?.includes('analyst'))!;
    expect(item.dataMaskInfo.dataMaskType).toBe('MASK_SHOW_LAST_4');
    item.dataMaskInfo.dataMaskType = 'MASK_NULL';
    fs.writeFileSync(policyFile, JSON.stringify(changed));
    // Control: without a reload the hourly refresh has not seen it.
    expect(await ssns()).toEqual(SSNS.map(showLast4));

    const outcome = await reload();
    expect(outcome).toContain('"outcome":"ok"');
    expect(await ssns()).toEqual([null, null]);
    expect((await alice.query('SELECT pg_backend_pid() AS pid')).rows[0].pid).toBe(pid);
    // erin's session kept its row filter and now the new mask too.
    expect((await erin.query('SELECT id, ssn FROM sales.orders ORDER BY id')).rows).toEqual([{ id: 1, ssn: null }]);
  }, 60_000);

  it('refuses a configuration that does not parse, or whose policy source does not load, keeping the one in force', async () => {
    const alice = await login('alice');
    const good = fs.readFileSync(configFile(), 'utf8');
    const m0 = await scrape();
    try {
      fs.writeFileSync(configFile(), good.slice(0, good.length / 2));
      expect(await reload()).toMatch(/"outcome":"refused".*reload refused, the configuration in force is kept/);

      const missingSource = JSON.parse(good) as Record<string, unknown>;
      missingSource['ranger'] = { source: { kind: 'local', path: path.join(gw.dir, 'no-such-folder'), serviceName: 'lakehouse' }, refreshMs: 3_600_000, maxStalenessMs: 7_200_000 };
      fs.writeFileSync(configFile(), JSON.stringify(missingSource));
      expect(await reload()).toMatch(/"outcome":"refused".*did not load/);

      // The policies in force are the last good ones (analysts' ssn as NULL), not none: alice still reads both rows.
      expect((await alice.query('SELECT id, ssn FROM sales.orders ORDER BY id')).rows).toEqual([
        { id: 1, ssn: null },
        { id: 2, ssn: null },
      ]);
      expect(await get('/readyz')).toMatchObject({ status: 200 });
      const m1 = await scrape();
      expect(sample(m1, 'lakegate_config_reloads_total', { outcome: 'refused' }) - sample(m0, 'lakegate_config_reloads_total', { outcome: 'refused' })).toBe(2);
    } finally {
      fs.writeFileSync(configFile(), good);
    }
  }, 60_000);

  it('turns the statement log off and names what needs a restart', async () => {
    const alice = await login('alice');
    const next = readConfig();
    next['ops'] = { ...(next['ops'] as object), statementLog: false };
    next['maxConnections'] = 150;
    fs.writeFileSync(configFile(), JSON.stringify(next));
    const outcome = await reload();
    expect(JSON.parse(outcome)).toMatchObject({ outcome: 'ok', applied: ['ops.statementLog'], needRestart: ['maxConnections'] });
    const from = gw.output().length;
    await alice.query('SELECT 1');
    await new Promise((r) => setTimeout(r, 200));
    expect(gw.output().slice(from)).not.toContain('"event":"statement"');
    // the statement still counts
    expect(sample(await scrape(), 'lakegate_statements_total', { kind: 'SELECT', sqlstate_class: '00' })).toBeGreaterThan(0);
  }, 60_000);
});
