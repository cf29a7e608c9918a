/**
 * The data gate with policies served by the Ranger Admin test server
 * (tests/fixtures/rangerAdmin): in-process gateways over a DuckDB file of
 * their own, real clients (node-postgres, pgJDBC). Every mask type with types
 * kept, row filters with folded session functions, tag masks and tag row
 * filters in both precedence modes, a policy change seen by the next statement
 * of an open session (named and server-prepared statements), and the
 * fail-closed list. Expected values are written out here (Hive's rules by
 * hand, MASK_HASH from Node's crypto).
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Config } from '../../server/config.js';
import { createPlanner } from '../../server/planner.js';
import { startRangerAdmin, type RangerAdminServer } from '../fixtures/rangerAdmin/server.js';
import { connect, rawTypes, rejection } from '../support/clients.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';
import { JdbcSession } from '../support/jdbcSession.js';
import { hiveServiceDef, P, tagServiceDef } from '../support/rangerPolicies.js';

const MASK_KEY = 'ranger-suite-mask-key-42';
const hmac = (v: string) => createHmac('sha256', MASK_KEY).update(v, 'utf8').digest('hex');
const SERVICE = 'lakehouse';
const ADMIN = { username: 'admin', password: 'admin-password' };
/** alice, bob, carol, erin are analysts; bob an engineer; carol the admin (sees everything as stored). */
const ROLES = [
  { name: 'analyst', users: ['alice', 'bob', 'carol', 'erin'].map((name) => ({ name, isAdmin: false })) },
  { name: 'engineer', users: [{ name: 'bob', isAdmin: false }] },
  { name: 'sqe_admin', users: [{ name: 'carol', isAdmin: false }] },
];

let dir: string;
let dataFile: string;
let tagsFile: string;
let admin: RangerAdminServer;
const gateways: InProcessGateway[] = [];
const clients: pg.Client[] = [];

function basePolicies(): Record<string, unknown>[] {
  return [
    P.allow('analysts read sales', 'sales', '*', '*', { roles: ['analyst'] }),
    P.allow('alice administers people', 'sales', 'people', '*', { users: ['alice'] }, { delegateAdmin: true }),
    P.mask('people.name', 'sales', 'people', 'name', [[{ roles: ['sqe_admin'] }, 'MASK_NONE'], [{ roles: ['engineer'] }, 'MASK']]),
    P.mask('people.born', 'sales', 'people', 'born', [[{ roles: ['engineer'] }, 'MASK_DATE_SHOW_YEAR']]),
    P.mask('people.salary', 'sales', 'people', 'salary', [[{ roles: ['engineer'] }, 'MASK']]),
    P.mask('people.code', 'sales', 'people', 'code', [[{ roles: ['engineer'] }, 'MASK_SHOW_LAST_4']]),
    P.mask('people.email', 'sales', 'people', 'email', [[{ roles: ['engineer'] }, 'MASK_SHOW_FIRST_4']]),
    P.mask('people.note', 'sales', 'people', 'note', [[{ roles: ['engineer'] }, 'CUSTOM', "concat('<', upper(left({col}, 2)), '>')"]]),
    // MASK_NULL: a mask type the hive def lacks (another component's, `trino:MASK_NULL`) now refuses the whole bundle at
    // load (server/policies.test.ts); decide.ts restricting such a column stays proven in policy/rewrite/dataGate.test.ts.
    P.mask('people.owner', 'sales', 'people', 'owner', [[{ roles: ['engineer'] }, 'MASK_NULL']]),
    P.mask('orders.ssn', 'sales', 'orders', 'ssn', [[{ roles: ['sqe_admin'] }, 'MASK_NONE'], [{ roles: ['analyst'] }, 'MASK_SHOW_LAST_4']]),
    P.filter('people rows', 'sales', 'people', [
      [{ users: ['erin'] }, "owner = current_user OR is_role_in_session('sqe_admin')"],
      [{ users: ['alice'] }, "owner <> 'bob'"],
    ]),
    P.filter('orders rows', 'sales', 'orders', [[{ users: ['erin'] }, 'amount > 50']]),
  ];
}

const TAG_POLICIES = [
  P.tagMask('PII hashed', 'PII', [[{ roles: ['analyst'] }, 'MASK_HASH']]),
  P.tagFilter('GEO rows', 'GEO', [[{ users: ['erin'] }, "region <> 'US'"]]),
];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-dgr-'));
  dataFile = path.join(dir, 'warehouse.duckdb');
  tagsFile = path.join(dir, 'column_tags.json');
  fs.writeFileSync(tagsFile, JSON.stringify({ 'sales.orders': { ssn: ['PII'], region: ['GEO'] } }));
  const db = await DuckDBInstance.create(dataFile);
  const c = await db.connect();
  await c.run('CREATE SCHEMA sales');
  await c.run('CREATE TABLE sales.orders (id INTEGER, ssn VARCHAR, amount DECIMAL(10,2), region VARCHAR)');
  await c.run(`INSERT INTO sales.orders VALUES (1, '111-11-1111', 100.00, 'EU'), (2, '222-22-2222', 250.50, 'US'), (3, '333-33-3333', 20.00, 'APAC')`);
  await c.run('CREATE TABLE sales.people (id INTEGER, name VARCHAR, born DATE, salary BIGINT, code SMALLINT, email VARCHAR, note VARCHAR, owner VARCHAR)');
  await c.run(`INSERT INTO sales.people VALUES
    (1, 'Ann Lee', DATE '1980-05-17', 98765, 12345, 'ann@example.com', 'vip', 'erin'),
    (2, 'Bo Ng', DATE '1992-11-02', -4321, -7, 'bo@example.com', 'new', 'bob')`);
  c.closeSync();
  db.closeSync();
  admin = await startRangerAdmin({
    users: { [ADMIN.username]: { password: ADMIN.password, admin: true } },
    serviceName: SERVICE,
    serviceDef: hiveServiceDef(),
    policies: basePolicies(),
    roles: ROLES,
    tagService: { serviceName: `${SERVICE}_tag`, serviceDef: tagServiceDef(), policies: TAG_POLICIES },
  });
}, 60000);

afterEach(async () => {
  for (const c of clients.splice(0)) await c.end().catch(() => {});
});

afterAll(async () => {
  for (const g of gateways) await g.stop().catch(() => {});
  await admin?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function rangerSection(over: Partial<NonNullable<Config['ranger']>> = {}): Config['ranger'] {
  return {
    source: { kind: 'admin', url: admin.url, serviceName: SERVICE, username: ADMIN.username, password: ADMIN.password, timeoutMs: 2000, retries: 0, tagService: false },
    refreshMs: 100,
    maxStalenessMs: 60000,
    ...over,
  };
}

async function gateway(over: Partial<Config> = {}, makePlanner?: Parameters<typeof startInProcess>[1] extends infer O ? O extends { makePlanner?: infer M } ? M : never : never) {
  const g = await startInProcess(
    () => ({
      // its own DuckDB file instead of the demo's Iceberg catalog
      catalog: undefined,
      databases: { demo: dataFile },
      ranger: rangerSection(),
      dataGate: { maskKey: MASK_KEY, maskPrecedence: 'tag', columnTagsFile: tagsFile, fence: 'case' },
      ...over,
    }),
    makePlanner ? { makePlanner } : {},
  );
  gateways.push(g);
  return g;
}

async function as(g: InProcessGateway, user: string): Promise<pg.Client> {
  const c = await connect(g.server, { user, password: user });
  clients.push(c);
  return c;
}

const rows = async (c: pg.Client, sql: string, values?: unknown[]) =>
  (await c.query({ text: sql, values, types: rawTypes, rowMode: 'array' })).rows as (string | null)[][];

/** Poll (bounded) until `probe` holds: the gateway has taken up a change. */
async function until(probe: () => Promise<boolean>, what: string, ms = 10000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function putPolicy(name: string, change: (p: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  const auth = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;
  const list = await fetch(`${admin.url}/service/public/v2/api/policy?serviceName=${SERVICE}&policyName=${encodeURIComponent(name)}`, { headers: { authorization: auth } });
  expect(list.status).toBe(200);
  const found = (await list.json()) as Record<string, unknown>[];
  expect(found).toHaveLength(1);
  const policy = found[0]!;
  const r = await fetch(`${admin.url}/service/public/v2/api/policy/${String(policy['id'])}`, {
    method: 'PUT',
    headers: { authorization: auth, 'content-type': 'application/json', 'x-xsrf-header': 'lakegate-test' },
    body: JSON.stringify(change(policy)),
  });
  expect(r.status).toBe(200);
}

const PEOPLE = 'SELECT id, name, born, salary, code, email, note, owner FROM sales.people ORDER BY id';

describe('every mask type, types kept', () => {
  let g: InProcessGateway;
  beforeAll(async () => {
    g = await gateway();
  }, 60000);

  test('bob (engineer) through node-postgres: Hive masks written out by hand', async () => {
    const bob = await as(g, 'bob');
    expect(await rows(bob, PEOPLE)).toEqual([
      // MASK: 'Ann Lee' → 'Xxx Xxx'; MASK_DATE_SHOW_YEAR; MASK on BIGINT 98765 → 11111; MASK_SHOW_LAST_4 on SMALLINT 12345 → 12345 with
      // the 4 low digits kept (1 more significant digit → 1): 12345; MASK_SHOW_FIRST_4 keeps 'ann@' and masks the rest (x for
      // letters and digits, others kept); CUSTOM; MASK_NULL
      ['1', 'Xxx Xxx', '1980-01-01', '11111', '12345', 'ann@xxxxxxx.xxx', '<VI>', null],
      ['2', 'Xx Xx', '1992-01-01', '-1111', '-7', 'bo@exxxxxx.xxx', '<NE>', null],
    ]);
    // every column keeps its type (PostgreSQL OIDs: int4, text, date, int8, int2, text, text, text), as carol's does
    const r = await bob.query({ text: PEOPLE, types: rawTypes });
    expect(r.fields.map((f) => f.dataTypeID)).toEqual([23, 25, 1082, 20, 21, 25, 25, 25]);
    const control = await (await as(g, 'carol')).query({ text: PEOPLE, types: rawTypes });
    expect(control.fields.map((f) => f.dataTypeID)).toEqual(r.fields.map((f) => f.dataTypeID));
  });

  test('control: carol reads the same rows as stored', async () => {
    const carol = await as(g, 'carol');
    expect(await rows(carol, PEOPLE)).toEqual([
      ['1', 'Ann Lee', '1980-05-17', '98765', '12345', 'ann@example.com', 'vip', 'erin'],
      ['2', 'Bo Ng', '1992-11-02', '-4321', '-7', 'bo@example.com', 'new', 'bob'],
    ]);
  });

  test('row filters fold current_user and is_role_in_session; EXPLAIN (POLICY) shows filter text to the table\'s delegated admin only', async () => {
    const erin = await as(g, 'erin');
    expect(await rows(erin, 'SELECT id FROM sales.people ORDER BY id')).toEqual([['1']]);
    const alice = await as(g, 'alice');
    expect(await rows(alice, 'SELECT id FROM sales.people ORDER BY id')).toEqual([['1']]);
    const forAlice = await rows(alice, 'EXPLAIN (POLICY) SELECT * FROM sales.people');
    expect(forAlice.find((r) => r[2] === 'row filter applied')?.[5]).toBe("filter: owner <> 'bob'");
    const forErin = await rows(erin, 'EXPLAIN (POLICY) SELECT * FROM sales.people');
    expect(forErin.find((r) => r[2] === 'row filter applied')?.[5]).toBeNull();
    const forBob = await rows(await as(g, 'bob'), 'EXPLAIN (POLICY) SELECT * FROM sales.people');
    expect(forBob.filter((r) => r[1] !== null).map((r) => [r[1], r[2]])).toEqual([
      ['id', 'readable'],
      ['name', 'mask MASK'],
      ['born', 'mask MASK_DATE_SHOW_YEAR'],
      ['salary', 'mask MASK'],
      ['code', 'mask MASK_SHOW_LAST_4'],
      ['email', 'mask MASK_SHOW_FIRST_4'],
      ['note', 'mask CUSTOM'],
      ['owner', 'mask MASK_NULL'],
    ]);
  });

  test('pgJDBC, server-prepared: the same masked values', async () => {
    const s = await JdbcSession.open(g.server.host, g.server.port, 'bob', 'bob');
    try {
      await s.send('PREPARE SELECT id, name, salary, code FROM sales.people WHERE id = ?');
      expect(await s.send('EXEC 2')).toEqual({ rows: [['2', 'Xx Xx', '-1111', '-7']], serverPrepared: true });
    } finally {
      await s.close();
    }
  }, 60000);
});

describe('tags: masks and row filters from column tags, both precedence modes', () => {
  test.each([
    ['tag', hmac('111-11-1111')],
    ['resource', 'xxx-xx-1111'],
  ] as const)('maskPrecedence %s', async (precedence, aliceSsn) => {
    const g = await gateway({ dataGate: { maskKey: MASK_KEY, maskPrecedence: precedence, columnTagsFile: tagsFile, fence: 'case' } });
    // alice: resource mask MASK_SHOW_LAST_4, tag (PII) mask MASK_HASH
    expect(await rows(await as(g, 'alice'), 'SELECT ssn FROM sales.orders WHERE id = 1')).toEqual([[aliceSsn]]);
    // carol: resource MASK_NONE; the tag mask wins only with tag precedence
    const carolSsn = precedence === 'tag' ? hmac('111-11-1111') : '111-11-1111';
    expect(await rows(await as(g, 'carol'), 'SELECT ssn FROM sales.orders WHERE id = 1')).toEqual([[carolSsn]]);
    // erin: tag filter (GEO: region <> 'US') AND resource filter (amount > 50) → row 1 only
    expect(await rows(await as(g, 'erin'), 'SELECT id FROM sales.orders ORDER BY id')).toEqual([['1']]);
    // control: bob has neither filter
    expect(await rows(await as(g, 'bob'), 'SELECT id FROM sales.orders ORDER BY id')).toEqual([['1'], ['2'], ['3']]);
  }, 60000);
});

describe('a policy change reaches the next statement of an open session', () => {
  test('node-postgres named statement and pgJDBC server-prepared statement see the change at their next execution', async () => {
    const g = await gateway();
    const bob = await as(g, 'bob');
    const named = { name: 'salary_q', text: 'SELECT salary FROM sales.people WHERE id = $1', types: rawTypes, rowMode: 'array' as const };
    expect((await bob.query({ ...named, values: [1] })).rows).toEqual([['11111']]);
    // the same simple query text, before and after (a plan the gateway may have cached)
    const simple = 'SELECT salary FROM sales.people WHERE id = 1';
    expect(await rows(bob, simple)).toEqual([['11111']]);
    expect(await rows(bob, simple)).toEqual([['11111']]);
    const jdbc = await JdbcSession.open(g.server.host, g.server.port, 'bob', 'bob');
    try {
      await jdbc.send('PREPARE SELECT salary FROM sales.people WHERE id = ?');
      expect(await jdbc.send('EXEC 1')).toEqual({ rows: [['11111']], serverPrepared: true });

      // the salary mask is lifted for engineers
      await putPolicy('people.salary', (p) => ({ ...p, dataMaskPolicyItems: [] }));
      const probe = await as(g, 'bob');
      await until(async () => (await rows(probe, 'SELECT salary FROM sales.people WHERE id = 1'))[0]?.[0] === '98765', 'the new policy set');
      expect((await bob.query({ ...named, values: [1] })).rows).toEqual([['98765']]);
      expect(await rows(bob, simple)).toEqual([['98765']]);
      expect(await jdbc.send('EXEC 1')).toEqual({ rows: [['98765']], serverPrepared: true });

      // the listings show what bob may read, in his open session (control for the withdrawal below)
      const LISTED = "SELECT (SELECT count(*) FROM pg_class WHERE relname = 'people') AS pg_class, (SELECT count(*) FROM information_schema.tables WHERE table_schema = 'sales' AND table_name = 'people') AS info";
      expect(await rows(bob, LISTED)).toEqual([['1', '1']]);

      // select is withdrawn from analysts: the same statements now fail as for a missing table
      await putPolicy('analysts read sales', (p) => ({ ...p, policyItems: [] }));
      await until(async () => (await rejection(probe.query('SELECT 1 FROM sales.people'))).code === '42P01', 'the revocation');
      expect((await rejection(bob.query({ ...named, values: [1] }))).code).toBe('42P01');
      // and the listings no longer contradict the 42P01
      expect(await rows(bob, LISTED)).toEqual([['0', '0']]);
      const after = await jdbc.send('EXEC 1');
      expect(after).toEqual({ error: { sqlstate: '42P01', message: expect.stringContaining('relation "sales.people" does not exist') } });
    } finally {
      await jdbc.close();
      await putPolicy('analysts read sales', (p) => ({ ...p, policyItems: [{ accesses: [{ type: 'select', isAllowed: true }], roles: ['analyst'] }] }));
      await putPolicy('people.salary', (p) => ({ ...p, dataMaskPolicyItems: [{ accesses: [{ type: 'select', isAllowed: true }], roles: ['engineer'], dataMaskInfo: { dataMaskType: 'MASK' } }] }));
    }
  }, 90000);
});

describe('fail closed', () => {
  test('policies never loaded: every table is missing; once they load, tables are back', async () => {
    admin.setFaults({ down: true });
    let g: InProcessGateway;
    try {
      g = await gateway();
      const carol = await as(g, 'carol');
      expect(await rejection(carol.query('SELECT 1 FROM sales.orders'))).toMatchObject({ code: '42P01', message: 'relation "sales.orders" does not exist' });
    } finally {
      admin.clearFaults();
    }
    const carol = await as(g!, 'carol');
    await until(async () => (await rows(carol, 'SELECT count(*) FROM sales.orders'))[0]?.[0] === '3', 'the first policy load');
  }, 60000);

  test('policies stale past maxStalenessMs: every table is missing, never raw rows', async () => {
    const g = await gateway({ ranger: rangerSection({ refreshMs: 100, maxStalenessMs: 500 }) });
    const carol = await as(g, 'carol');
    expect(await rows(carol, 'SELECT count(*) FROM sales.orders')).toEqual([['3']]);
    admin.setFaults({ down: true });
    try {
      await until(async () => (await rejection(carol.query('SELECT 1 FROM sales.orders'))).code === '42P01', 'staleness', 5000);
    } finally {
      admin.clearFaults();
    }
  }, 60000);

  test('tag state unknown (the column tags file is unreadable): no rows', async () => {
    const own = path.join(dir, 'tags-unknown.json');
    fs.writeFileSync(own, JSON.stringify({ 'sales.orders': { ssn: ['PII'] } }));
    const g = await gateway({ dataGate: { maskKey: MASK_KEY, maskPrecedence: 'tag', columnTagsFile: own, fence: 'case' } });
    const bob = await as(g, 'bob');
    expect(await rows(bob, 'SELECT count(*) FROM sales.orders')).toEqual([['3']]);
    fs.writeFileSync(own, '{ not json');
    await until(async () => (await rows(bob, 'SELECT count(*) FROM sales.orders'))[0]?.[0] === '0', 'the broken tags file');
    fs.rmSync(own);
    expect(await rows(bob, 'SELECT count(*) FROM sales.orders')).toEqual([['0']]);
  }, 60000);

  test('a row filter that does not parse shows no rows (control: carol, who has no filter)', async () => {
    const g = await gateway();
    const erin = await as(g, 'erin');
    try {
      await putPolicy('orders rows', (p) => ({ ...p, rowFilterPolicyItems: [{ accesses: [{ type: 'select', isAllowed: true }], users: ['erin'], rowFilterInfo: { filterExpr: 'amount >' } }] }));
      await until(async () => (await rows(erin, 'SELECT count(*) FROM sales.orders'))[0]?.[0] === '0', 'the broken filter');
      expect(await rows(await as(g, 'carol'), 'SELECT count(*) FROM sales.orders')).toEqual([['3']]);
    } finally {
      await putPolicy('orders rows', (p) => ({ ...p, rowFilterPolicyItems: [{ accesses: [{ type: 'select', isAllowed: true }], users: ['erin'], rowFilterInfo: { filterExpr: 'amount > 50' } }] }));
    }
  }, 60000);

  test('an error inside the rewriter: 42501, and nothing runs', async () => {
    const g = await gateway({}, (adminConn, config, deps) =>
      createPlanner(adminConn, config, {
        ...deps,
        beforeApply: (t) => {
          if (t.name === 'people') throw new TypeError('injected fault');
        },
      }),
    );
    const carol = await as(g, 'carol');
    expect(await rejection(carol.query('SELECT * FROM sales.people'))).toMatchObject({
      code: '42501',
      message: 'permission denied: the data policies of relation "sales.people" could not be applied',
    });
    expect(await rejection(carol.query({ text: 'SELECT name FROM sales.people WHERE id = $1', values: [1] }))).toMatchObject({ code: '42501' });
    // control: another table of the same gateway
    expect(await rows(carol, 'SELECT count(*) FROM sales.orders')).toEqual([['3']]);
  }, 60000);
});
