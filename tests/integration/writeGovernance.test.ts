/**
 * Writes under the data gate, end to end (issue 19): an in-process gateway on
 * the demo's warehouse (the demo's catalog gate: engineers bob and carol create
 * and write in analytics) with data-gate policies of this test's own:
 *  - everyone selects; engineers may update, create, drop and alter in analytics;
 *  - bob sees sales.orders and analytics.filtered_t through a row filter
 *    (region = 'EU') and analytics.masked_t.note masked (MASK);
 *  - tag PII is hashed (MASK_HASH, the demo's mask key) for everyone but sqe_admin (carol).
 * What was written is read back by pyiceberg (rows, snapshots, the
 * `sqe.column-tags` property); expected rows and masks are computed here
 * (the demo's rows from tests/support/target.ts, HMACs with Node's crypto).
 *
 * Controls: carol, who sees every table as stored, runs each statement bob is
 * refused; alice reading raw values of an untagged column.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { connect, psqlEnv, rawTypes, rejection, run } from '../support/clients.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';
import { P, servicePolicies } from '../support/rangerPolicies.js';
import { ORDERS } from '../support/target.js';
import { tableState, type TableState } from '../support/writableLake.js';
import { demoAssetDir, DEMO_MASK_KEY } from '../../server/demo.js';

const TAGS_PROPERTY = 'sqe.column-tags';
const hmac = (v: string) => createHmac('sha256', DEMO_MASK_KEY).update(v, 'utf8').digest('hex');

/** The data gate of this suite, in `<dir>/ranger` (the demo's hive def and roles). */
function dataGate(dir: string): string {
  const out = path.join(dir, 'ranger');
  fs.mkdirSync(out, { recursive: true });
  const doc = servicePolicies(
    'lakehouse',
    [
      P.allow('everyone selects', '*', '*', '*', { groups: ['public'] }),
      P.allow('engineers write in analytics', 'analytics', '*', '*', { roles: ['engineer'] }, { accesses: ['update', 'create', 'drop', 'alter'] }),
      // the data gate lets erin write too; the catalog gate (the demo's Polaris policies) does not
      P.allow('erin passes the data gate in analytics', 'analytics', '*', '*', { users: ['erin'] }, { accesses: ['update', 'create', 'drop', 'alter'] }),
      P.filter('bob sees EU orders', 'sales', 'orders', [[{ users: ['bob'] }, "region = 'EU'"]]),
      P.filter('bob sees EU rows of filtered_t', 'analytics', 'filtered_t', [[{ users: ['bob'] }, "region = 'EU'"]]),
      P.mask('bob sees masked_t.note masked', 'analytics', 'masked_t', 'note', [[{ users: ['bob'] }, 'MASK']]),
    ],
    [P.tagMask('PII is hashed but for administrators', 'PII', [[{ roles: ['sqe_admin'] }, 'MASK_NONE'], [{ groups: ['public'] }, 'MASK_HASH']])],
  );
  fs.writeFileSync(path.join(out, 'lakehouse.json'), JSON.stringify(doc));
  fs.copyFileSync(path.join(demoAssetDir(), 'ranger', 'lakehouse_roles.json'), path.join(out, 'lakehouse_roles.json'));
  return out;
}

let gw: InProcessGateway;
const clients: pg.Client[] = [];
const sessions: Record<string, pg.Client> = {};

beforeAll(async () => {
  gw = await startInProcess((dir) => ({ ranger: { source: { kind: 'local' as const, path: dataGate(dir), serviceName: 'lakehouse' }, refreshMs: 30_000, maxStalenessMs: 300_000 } }));
  for (const user of ['alice', 'bob', 'carol', 'erin']) {
    const c = await connect({ host: '127.0.0.1', port: gw.server.port }, { user, password: user, database: 'demo' });
    clients.push(c);
    sessions[user] = c;
  }
}, 300_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  await gw?.stop();
});

const as = (user: 'alice' | 'bob' | 'carol' | 'erin') => sessions[user]!;
const text = async (c: pg.Client, sql: string) => (await c.query({ text: sql, types: rawTypes, rowMode: 'array' })).rows as (string | null)[][];
const tag = (r: pg.QueryResult) => [r.command, r.rowCount];
/** pyiceberg's view of a table of the gateway's demo warehouse. */
const state = (table: string): Promise<TableState> => tableState(['--catalog', 'sql', '--warehouse-dir', path.join(gw.dir, 'data'), '--catalog-name', 'demo'], table);
const tagsOf = (t: TableState) => JSON.parse(t.properties[TAGS_PROPERTY] ?? '{}') as Record<string, string[]>;

describe('what a writer reads, it reads through the data gate', () => {
  test("a filtered writer's INSERT … SELECT copies only the rows it sees; control: an unfiltered writer copies all", async () => {
    const copies: [user: 'bob' | 'carol', rows: readonly (typeof ORDERS)[number][]][] = [
      ['bob', ORDERS.filter((o) => o.region === 'EU')],
      ['carol', ORDERS],
    ];
    for (const [user, visible] of copies) {
      const c = as(user);
      await c.query(`create table analytics.copy_${user} (id integer, amount numeric(10,2), region text)`);
      expect(tag(await c.query(`insert into analytics.copy_${user} select id, amount, region from sales.orders`))).toEqual(['INSERT', visible.length]);
      expect((await state(`analytics.copy_${user}`)).rows).toEqual(visible.map((o) => [o.id, o.amount, o.region]));
    }
    // the filter is bob's own: what he wrote is there for everyone as written
    expect(await text(as('alice'), 'select id, region from analytics.copy_bob order by id')).toEqual([['1', 'EU']]);
  });
});

describe('a DML target the writer sees filtered or masked is refused, never written', () => {
  const targets = [
    { table: 'masked_t', detail: 'column masks apply to you on "note"' },
    { table: 'filtered_t', detail: 'a row filter applies to you on this table' },
  ];
  const statements = (t: string) => [
    `update analytics.${t} set id = id + 10`,
    `delete from analytics.${t} where id = 2`,
    `merge into analytics.${t} as d using (select 1 as id) as s on d.id = s.id when matched then delete`,
    `truncate analytics.${t}`,
  ];
  const before: Record<string, TableState> = {};

  beforeAll(async () => {
    const carol = as('carol');
    await carol.query('create table analytics.masked_t (id integer, note text, region text)');
    await carol.query("insert into analytics.masked_t values (1, 'alpha', 'EU'), (2, 'beta', 'US')");
    await carol.query('create table analytics.filtered_t (id integer, note text, region text)');
    await carol.query("insert into analytics.filtered_t values (1, 'alpha', 'EU'), (2, 'beta', 'US')");
    for (const { table } of targets) before[table] = await state(`analytics.${table}`);
  });

  test('the policies are in force: bob reads masked_t.note masked and only the EU row of filtered_t (carol reads both as stored)', async () => {
    // Hive's MASK: lower-case letters to x
    expect(await text(as('bob'), 'select id, note from analytics.masked_t order by id')).toEqual([
      ['1', 'xxxxx'],
      ['2', 'xxxx'],
    ]);
    expect(await text(as('bob'), 'select id, note from analytics.filtered_t order by id')).toEqual([['1', 'alpha']]);
    for (const { table } of targets) {
      expect(await text(as('carol'), `select id, note from analytics.${table} order by id`)).toEqual([
        ['1', 'alpha'],
        ['2', 'beta'],
      ]);
    }
  });

  test.each(targets)('bob: UPDATE, DELETE, MERGE and TRUNCATE of $table are 42501 with the reason; pyiceberg reads the same snapshot', async ({ table, detail }) => {
    for (const sql of statements(table)) {
      const e = (await rejection(as('bob').query(sql))) as Error & { code?: string; detail?: string };
      expect([sql, e.code, e.message, e.detail]).toEqual([
        sql,
        '42501',
        `permission denied for table ${table}`,
        `the row filter or column masks that apply to you would not apply to the rows this statement changes (${detail})`,
      ]);
    }
    const after = await state(`analytics.${table}`);
    expect(after.metadataLocation).toBe(before[table]!.metadataLocation);
    expect(after.currentSnapshotId).toBe(before[table]!.currentSnapshotId);
    expect(after.rows).toEqual(before[table]!.rows);
  });

  test('an INSERT does not read its target: bob may append to the table he sees masked', async () => {
    expect(tag(await as('bob').query("insert into analytics.masked_t values (3, 'gamma', 'EU')"))).toEqual(['INSERT', 1]);
    expect((await state('analytics.masked_t')).rows).toEqual([
      [1, 'alpha', 'EU'],
      [2, 'beta', 'US'],
      [3, 'gamma', 'EU'],
    ]);
  });

  test('control: carol, who sees both as stored, runs the same statements', async () => {
    const carol = as('carol');
    const stored = { masked_t: [1, 2, 3], filtered_t: [1, 2] };
    for (const { table } of targets) {
      const ids = stored[table as keyof typeof stored];
      const [update, del, merge, truncate] = statements(table);
      expect(tag(await carol.query(update!))).toEqual(['UPDATE', ids.length]);
      // ids are now 11, 12 …: the DELETE of id 2 and the MERGE on id 1 find nothing
      expect(tag(await carol.query(del!.replace('id = 2', 'id = 12')))).toEqual(['DELETE', 1]);
      expect(tag(await carol.query(merge!.replace('select 1 as id', 'select 11 as id')))).toEqual(['MERGE', 1]);
      const left = ids.filter((id) => id !== 1 && id !== 2).map((id) => id + 10);
      expect((await state(`analytics.${table}`)).rows.map((r) => r[0])).toEqual(left);
      expect(tag(await carol.query(truncate!))).toEqual(['TRUNCATE', null]);
      const emptied = await state(`analytics.${table}`);
      expect(emptied.rows).toEqual([]);
      expect(emptied.currentSnapshotId).not.toBe(before[table]!.currentSnapshotId);
    }
  });
});

describe('tags follow the data', () => {
  const PEOPLE = [
    { id: 1, ssn: '111-11-1111', region: 'EU' },
    { id: 2, ssn: '222-22-2222', region: 'US' },
  ];

  beforeAll(async () => {
    const carol = as('carol');
    await carol.query('create table analytics.people (id integer, ssn text, region text)');
    await carol.query(`insert into analytics.people values ${PEOPLE.map((p) => `(${p.id}, '${p.ssn}', '${p.region}')`).join(', ')}`);
    await carol.query('SET TAG PII ON COLUMN demo.analytics.people.ssn');
  });

  test('the source: ssn is tagged PII, hashed for alice, raw for carol', async () => {
    expect(tagsOf(await state('analytics.people'))).toEqual({ ssn: ['PII'] });
    expect(await text(as('alice'), 'select id, ssn, region from analytics.people order by id')).toEqual(PEOPLE.map((p) => [String(p.id), hmac(p.ssn), p.region]));
    expect(await text(as('carol'), 'select id, ssn, region from analytics.people order by id')).toEqual(PEOPLE.map((p) => [String(p.id), p.ssn, p.region]));
  });

  test("an unmasked admin's CREATE TABLE AS tags the copied and derived columns: the new table holds raw values, alice reads them hashed, carol raw", async () => {
    const carol = as('carol');
    const r = await carol.query("create table analytics.people_copy as select id, ssn, 'id-' || ssn as ssn_ref, region from analytics.people");
    expect(tag(r)).toEqual(['SELECT', 2]);
    const copy = await state('analytics.people_copy');
    expect(tagsOf(copy)).toEqual({ ssn: ['PII'], ssn_ref: ['PII'] });
    // carol wrote what she reads: raw values, which only the tag now protects
    expect(copy.rows).toEqual(PEOPLE.map((p) => [p.id, p.ssn, `id-${p.ssn}`, p.region]));
    const sql = 'select id, ssn, ssn_ref, region from analytics.people_copy order by id';
    expect(await text(as('alice'), sql)).toEqual(PEOPLE.map((p) => [String(p.id), hmac(p.ssn), hmac(`id-${p.ssn}`), p.region]));
    expect(await text(as('carol'), sql)).toEqual(PEOPLE.map((p) => [String(p.id), p.ssn, `id-${p.ssn}`, p.region]));
  });

  test('through a temporary table: CREATE TEMP TABLE AS, then INSERT … SELECT from it tags the target', async () => {
    const carol = as('carol');
    expect(tag(await carol.query('create temp table scratch as select id, ssn from analytics.people'))).toEqual(['SELECT', 2]);
    await carol.query('create table analytics.from_temp (id integer, ssn text, note text)');
    expect(tagsOf(await state('analytics.from_temp'))).toEqual({});
    expect(tag(await carol.query("insert into analytics.from_temp select id, ssn, 'copied' from scratch"))).toEqual(['INSERT', 2]);
    const t = await state('analytics.from_temp');
    expect(tagsOf(t)).toEqual({ ssn: ['PII'] });
    expect(t.rows).toEqual(PEOPLE.map((p) => [p.id, p.ssn, 'copied']));
    const sql = 'select id, ssn, note from analytics.from_temp order by id';
    expect(await text(as('alice'), sql)).toEqual(PEOPLE.map((p) => [String(p.id), hmac(p.ssn), 'copied']));
    expect(await text(as('carol'), sql)).toEqual(PEOPLE.map((p) => [String(p.id), p.ssn, 'copied']));
  });
});

describe('the catalog gate has the last word', () => {
  test("erin passes the data gate but may not write in analytics under the demo's Polaris policies: PostgreSQL's refusals, nothing changes (control: carol's writes above)", async () => {
    const before = await state('analytics.people');
    const refusals: [string, string][] = [
      ["insert into analytics.people values (9, '999-99-9999', 'EU')", 'permission denied for table people'],
      ['create table analytics.erins (id integer)', 'permission denied for schema analytics'],
      ['create table analytics.erins as select id from analytics.people', 'permission denied for schema analytics'],
      ['create view analytics.erins_v as select id from analytics.people', 'permission denied for schema analytics'],
      ['alter table analytics.people add column note text', 'must be owner of table people'],
      ["comment on table analytics.people is 'erin was here'", 'must be owner of table people'],
      ['drop table analytics.people', 'must be owner of table people'],
    ];
    const answers: [string, string | undefined, string][] = [];
    for (const [sql] of refusals) {
      const e = await rejection(as('erin').query(sql));
      answers.push([sql, e.code, e.message]);
    }
    expect(answers).toEqual(refusals.map(([sql, message]) => [sql, '42501', message]));
    const after = await state('analytics.people');
    expect(after.metadataLocation).toBe(before.metadataLocation);
    expect(after.rows).toEqual(before.rows);
    await expect(state('analytics.erins')).rejects.toThrow(/NoSuchTable|does not exist/);
    // she still reads it (the demo lets analysts read analytics), through the PII tag's mask
    expect((await text(as('erin'), 'select count(*) from analytics.people'))[0]).toEqual([String(before.rows.length)]);
  });

  test("COPY FROM STDIN passes the same gates: erin's rows refused by the catalog gate at commit in PostgreSQL's words, nothing committed; carol (control) writes the same rows, tagged as before", async () => {
    fs.writeFileSync(path.join(gw.dir, 'people.tsv'), '90\t999-99-9999\tEU\n91\t\\N\tUS\n');
    const copy = (user: string) =>
      run('psql', ['-X', '-w', '-c', "\\copy analytics.people from 'people.tsv'"], { env: psqlEnv(gw.dir, '127.0.0.1', gw.server.port, user, user), cwd: gw.dir, timeoutMs: 60_000 });
    const before = await state('analytics.people');
    const erin = await copy('erin');
    expect([erin.stdout, erin.stderr]).toEqual(['', 'ERROR:  permission denied for table people\n']);
    expect((await state('analytics.people')).metadataLocation).toBe(before.metadataLocation);
    const carol = await copy('carol');
    expect([carol.stdout, carol.stderr]).toEqual(['COPY 2\n', '']);
    const after = await state('analytics.people');
    expect(after.rows.filter((r) => Number(r[0]) >= 90).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([[90, '999-99-9999', 'EU'], [91, null, 'US']]);
    // literal values bring no tags: the table keeps its own
    expect(tagsOf(after)).toEqual({ ssn: ['PII'] });
  });
});
