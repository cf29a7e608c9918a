/**
 * Session functions through node-postgres (simple and extended protocol):
 * pg_sleep (off the event loop, stopped by statement_timeout and cancel),
 * set_config (the rules of SET, local or not), txid_current (one per
 * transaction), pg_backend_pid, and pg_cancel_backend / pg_terminate_backend,
 * allowed on the caller's own sessions only — another user's pid is refused
 * with 42501 (the control: the same call from the owner's other session
 * works), an unknown pid answers false with a warning, as PostgreSQL does.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';
import { connect, rejection, sleep } from '../support/clients.js';

let g: InProcessGateway;
let t: { host: string; port: number };
const open: pg.Client[] = [];

async function client(user = 'alice'): Promise<pg.Client> {
  const c = await connect(t, { user, password: user });
  open.push(c);
  return c;
}

const pidOf = async (c: pg.Client): Promise<number> => (await c.query('SELECT pg_backend_pid() AS p')).rows[0].p as number;

beforeAll(async () => {
  g = await startInProcess(() => ({}));
  t = { host: '127.0.0.1', port: g.server.port };
}, 60000);

afterAll(async () => {
  for (const c of open) await c.end().catch(() => undefined);
  await g?.stop();
});

describe('pg_sleep', () => {
  test('sleeps, answers one void row, and leaves other sessions running meanwhile', async () => {
    const [a, b] = [await client(), await client('bob')];
    const started = Date.now();
    const sleeping = a.query('SELECT pg_sleep(0.6)');
    // Another session is served while the first one sleeps: the sleep holds no thread and no event loop.
    const t0 = Date.now();
    expect((await b.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    expect(Date.now() - t0).toBeLessThan(400);
    const r = await sleeping;
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(r.rows).toEqual([{ pg_sleep: '' }]);
    expect(r.fields.map((f) => f.dataTypeID)).toEqual([2278]);
  });

  test('statement_timeout stops it with 57014', async () => {
    const a = await client();
    await a.query("SET statement_timeout = '200ms'");
    const started = Date.now();
    expect(await rejection(a.query('SELECT pg_sleep(30)'))).toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test('with a parameter (extended protocol), as node-postgres and psycopg 3 send it', async () => {
    const a = await client();
    const started = Date.now();
    const r = await a.query('SELECT pg_sleep($1) AS s', [0.3]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(r.rows).toEqual([{ s: '' }]);
    await a.query("SET statement_timeout = '200ms'");
    expect(await rejection(a.query('SELECT pg_sleep($1)', [30]))).toMatchObject({ code: '57014' });
  });
});

describe('set_config and txid_current', () => {
  test('set_config follows SET: session-wide, or local to the block', async () => {
    const a = await client();
    expect((await a.query("SELECT set_config('search_path', 'sales', false) AS v")).rows).toEqual([{ v: 'sales' }]);
    expect((await a.query('SELECT count(*)::int AS n FROM orders')).rows).toEqual([{ n: 2 }]);
    await a.query('BEGIN');
    expect((await a.query("SELECT set_config('application_name', 'inside', true) AS v")).rows).toEqual([{ v: 'inside' }]);
    expect((await a.query('SHOW application_name')).rows).toEqual([{ application_name: 'inside' }]);
    await a.query('COMMIT');
    expect((await a.query('SHOW application_name')).rows).not.toEqual([{ application_name: 'inside' }]);
    expect(await rejection(a.query("SELECT set_config('no_such_setting', '1', false)"))).toMatchObject({ code: '42704' });
    expect(await rejection(a.query("SELECT set_config('server_version', '1', false)"))).toMatchObject({ code: '55P02' });
    // with parameters: text and boolean as the client binds them
    expect((await a.query('SELECT set_config($1, $2, $3) AS v', ['application_name', 'bound', false])).rows).toEqual([{ v: 'bound' }]);
    expect((await a.query('SHOW application_name')).rows).toEqual([{ application_name: 'bound' }]);
  });

  test('txid_current is one id per transaction block, a new one per statement outside', async () => {
    const a = await client();
    const ids = async () => (await a.query('SELECT txid_current() AS x')).rows[0].x as string;
    const [x1, x2] = [await ids(), await ids()];
    expect(BigInt(x2)).toBeGreaterThan(BigInt(x1));
    await a.query('BEGIN');
    const [y1, y2] = [await ids(), await ids()];
    await a.query('COMMIT');
    expect(y1).toBe(y2);
    expect(BigInt(y1)).toBeGreaterThan(BigInt(x2));
  });
});

describe('pg_cancel_backend and pg_terminate_backend: own sessions only', () => {
  test("another user's pid is refused with 42501; the owner's other session cancels it (control)", async () => {
    const [alice1, alice2, bob] = [await client(), await client(), await client('bob')];
    const pid = await pidOf(alice1);
    const sleeping = alice1.query('SELECT pg_sleep(30)').then(
      () => null,
      (e: unknown) => e,
    );
    await sleep(200);
    const refused = await rejection(bob.query(`SELECT pg_cancel_backend(${pid})`));
    expect(refused).toMatchObject({ code: '42501', message: 'permission denied to cancel query' });
    const refusedTerm = await rejection(bob.query(`SELECT pg_terminate_backend(${pid})`));
    expect(refusedTerm).toMatchObject({ code: '42501', message: 'permission denied to terminate process' });
    // control: alice's own other session may cancel it, and the sleep ends with 57014
    expect(await rejection(bob.query('SELECT pg_cancel_backend($1)', [pid]))).toMatchObject({ code: '42501' });
    expect((await alice2.query('SELECT pg_cancel_backend($1) AS ok', [pid])).rows).toEqual([{ ok: true }]);
    expect(await sleeping).toMatchObject({ code: '57014', message: 'canceling statement due to user request' });
    expect((await alice1.query('SELECT 1 AS alive')).rows).toEqual([{ alive: 1 }]);
  });

  test('an unknown pid answers false (with a warning)', async () => {
    const a = await client();
    const notices: string[] = [];
    a.on('notice', (n) => notices.push(n.message ?? ''));
    expect((await a.query('SELECT pg_cancel_backend(2147483000) AS ok')).rows).toEqual([{ ok: false }]);
    expect(notices).toEqual(['PID 2147483000 is not a PostgreSQL backend process']);
  });

  test("pg_terminate_backend ends the caller's other session with FATAL 57P01", async () => {
    const [victim, killer] = [await client('carol'), await client('carol')];
    const pid = await pidOf(victim);
    const ended = new Promise<unknown>((resolve) => victim.once('error', resolve));
    expect((await killer.query(`SELECT pg_terminate_backend(${pid}) AS ok`)).rows).toEqual([{ ok: true }]);
    const err = await Promise.race([ended, sleep(5000).then(() => 'not ended')]);
    expect(err).toMatchObject({ code: '57P01' });
    expect((await killer.query('SELECT 1 AS alive')).rows).toEqual([{ alive: 1 }]);
  });
});

describe('pg_stat_activity: the session user\'s own sessions', () => {
  test('shows each of the user\'s sessions with its state and statement, and nobody else\'s', async () => {
    const [a, a2, b] = [await client(), await client(), await client('bob')];
    const [pa, pa2, pb] = [await pidOf(a), await pidOf(a2), await pidOf(b)];
    await a2.query('BEGIN');
    await a2.query("SELECT 'still open' AS marker");
    await b.query('SELECT 42 AS bobs');
    // (other tests' sessions of alice are open too)
    const q = `SELECT pid, usename, state, query, backend_type, xact_start IS NOT NULL AS in_xact FROM pg_stat_activity WHERE pid IN (${pa}, ${pa2}, ${pb}) ORDER BY pid`;
    const seen = (await a.query(q)).rows;
    expect(seen).toEqual(
      [
        { pid: pa, usename: 'alice', state: 'active', query: q, backend_type: 'client backend', in_xact: true },
        { pid: pa2, usename: 'alice', state: 'idle in transaction', query: "SELECT 'still open' AS marker", backend_type: 'client backend', in_xact: true },
      ].sort((x, y) => x.pid - y.pid),
    );
    // the control: bob's session is there, and bob sees it
    const bobs = (await b.query('SELECT pid, usename FROM pg_stat_activity')).rows;
    expect(bobs).toContainEqual({ pid: pb, usename: 'bob' });
    expect(bobs.filter((r) => r.usename !== 'bob' || [pa, pa2].includes(r.pid))).toEqual([]);
    expect((await a.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename <> 'alice' OR pid = ${pb}`)).rows).toEqual([{ n: 0 }]);
    await a2.query('COMMIT');
    // the extended protocol: each run sees the rows as they are then (the plan is cached, the rows are not)
    const ext = 'SELECT state, query FROM pg_stat_activity WHERE pid = $1';
    expect((await a.query(ext, [pa2])).rows).toEqual([{ state: 'idle', query: 'COMMIT' }]);
    await a2.query('SELECT 2 AS two');
    expect((await a.query(ext, [pa2])).rows).toEqual([{ state: 'idle', query: 'SELECT 2 AS two' }]);
  });

  test('has PostgreSQL\'s columns and types', async () => {
    const a = await client();
    const r = await a.query('SELECT * FROM pg_stat_activity WHERE pid = pg_backend_pid()');
    expect(r.rows).toHaveLength(1);
    expect(r.fields.map((f) => f.name)).toEqual([
      'datid', 'datname', 'pid', 'leader_pid', 'usesysid', 'usename', 'application_name', 'client_addr', 'client_hostname', 'client_port',
      'backend_start', 'xact_start', 'query_start', 'state_change', 'wait_event_type', 'wait_event', 'state', 'backend_xid', 'backend_xmin',
      'query_id', 'query', 'backend_type',
    ]);
    expect(r.fields.map((f) => f.dataTypeID)).toEqual([26, 19, 23, 23, 26, 19, 25, 869, 25, 23, 1184, 1184, 1184, 1184, 25, 25, 25, 28, 28, 20, 25, 25]);
    expect(r.rows[0]).toMatchObject({ datname: 'demo', usename: 'alice', client_addr: '127.0.0.1', state: 'active' });
  });
});
