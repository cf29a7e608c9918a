/**
 * The admin room writing both gates (projectWrites): the catalog gate's
 * polaris policies and the data gate's query-service policies, each in its
 * local policy files (copies of the demo's, with the demo's service defs and
 * roles). Both written or neither: a data gate that cannot be written puts
 * the catalog gate's policies back (58030). Without projectWrites a GRANT of
 * a write privilege says, in a NOTICE, that the data gate must allow it too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { PolicyEngine } from '../ranger/engine.js';
import { parseRangerRoles, parseServicePolicies } from '../ranger/model.js';
import { RoleStore } from '../ranger/roles.js';
import { SqlError } from '../../sql/errors.js';
import { loadParser } from '../../sql/parse.js';
import type { DataGateWrites } from './dataGateWrites.js';
import { LocalPolicyFileStore } from './localStore.js';
import type { LoadableObjects } from './objects.js';
import { parseAdmin } from './parse.js';
import { AdminRoom, type AdminCaller } from './room.js';
import { PolicyStoreError, type PolicyStore } from './store.js';

const DEMO = new URL('../../demo/', import.meta.url).pathname;
let dir: string;
const folder = (svc: 'polaris' | 'ranger') => path.join(dir, svc);
const file = (svc: 'polaris' | 'ranger') => path.join(folder(svc), svc === 'polaris' ? 'polaris.json' : 'lakehouse.json');
const policies = (svc: 'polaris' | 'ranger') => JSON.parse(fs.readFileSync(file(svc), 'utf8')).policies as Record<string, unknown>[];

beforeAll(() => loadParser());
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-room-'));
  fs.cpSync(path.join(DEMO, 'polaris'), folder('polaris'), { recursive: true });
  fs.cpSync(path.join(DEMO, 'ranger'), folder('ranger'), { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** An engine on the files as they are now (what a flushed cache would load). */
function engineOn(svc: 'polaris' | 'ranger'): PolicyEngine {
  const roles = JSON.parse(fs.readFileSync(path.join(folder(svc), svc === 'polaris' ? 'polaris_roles.json' : 'lakehouse_roles.json'), 'utf8'));
  return new PolicyEngine(parseServicePolicies(JSON.parse(fs.readFileSync(file(svc), 'utf8')), svc), { roles: new RoleStore(parseRangerRoles(roles, svc)) });
}

/** The catalog is not this suite's subject: sales.orders is there for everyone. */
const salesOrders: LoadableObjects = {
  relation: async (_a, ns, name) => (ns.join('.') === 'sales' && name === 'orders' ? 'table' : null),
  namespaces: async () => [['sales']],
  relations: async () => [{ namespace: ['sales'], name: 'orders' }],
};

function room(o: { projectWrites?: boolean; dataGateStore?: PolicyStore; grantAuthority?: 'admin-role' | 'ranger-delegate'; flushes?: string[] } = {}) {
  const flushes = o.flushes ?? [];
  const writes: DataGateWrites | null = o.projectWrites
    ? {
        store: o.dataGateStore ?? new LocalPolicyFileStore({ folder: folder('ranger'), serviceName: 'lakehouse' }),
        serviceName: 'lakehouse',
        engine: () => engineOn('ranger'),
        flush: async () => void flushes.push('data gate'),
      }
    : null;
  return new AdminRoom({
    store: new LocalPolicyFileStore({ folder: folder('polaris'), serviceName: 'polaris' }),
    engine: () => engineOn('polaris'),
    objects: salesOrders,
    flush: async () => void flushes.push('catalog gate'),
    catalog: 'demo',
    realmValue: '*',
    requestRealm: 'POLARIS',
    grantAuthority: o.grantAuthority ?? 'admin-role',
    adminRoles: ['sqe_admin'],
    log: pino({ level: 'silent' }),
    projectWrites: writes,
    dataGateService: 'lakehouse',
  });
}

const carol: AdminCaller = { user: 'carol', roles: new Set(['analyst', 'engineer', 'sqe_admin']), defaultSchema: null };
const run = (r: AdminRoom, sql: string, as: AdminCaller = carol) => r.run(parseAdmin(sql)!, sql, as);
const davesItems = (svc: 'polaris' | 'ranger', where: (p: Record<string, unknown>) => boolean) =>
  policies(svc)
    .filter(where)
    .flatMap((p) => ((p['policyItems'] ?? []) as { users?: string[]; accesses: { type: string }[] }[]).filter((i) => (i.users ?? []).includes('dave')).map((i) => i.accesses.map((a) => a.type).sort()));
const onOrders = (p: Record<string, unknown>) => JSON.stringify(p['resources']).includes('"orders"');
const sqlError = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (e instanceof SqlError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('no error');
};

describe('projectWrites: a write privilege written to both gates', () => {
  it('GRANT INSERT: the catalog gate\'s types and the data gate\'s update for dave on sales.orders, labelled; both caches flushed', async () => {
    const flushes: string[] = [];
    const r = room({ projectWrites: true, flushes });
    const answer = await run(r, 'GRANT INSERT ON sales.orders TO dave');
    expect(answer).toEqual({ tag: 'GRANT' });
    expect(davesItems('polaris', onOrders)[0]).toContain('table-snapshot-add');
    const hive = policies('ranger').filter((p) => onOrders(p) && (p['policyType'] ?? 0) === 0);
    expect(hive.map((p) => [p['resources'], p['policyItems'], p['policyLabels']])).toEqual([
      [
        { database: { values: ['sales'], isExcludes: false, isRecursive: false }, table: { values: ['orders'], isExcludes: false, isRecursive: false }, column: { values: ['*'], isExcludes: false, isRecursive: false } },
        [{ accesses: [{ type: 'update', isAllowed: true }], users: ['dave'], groups: [], roles: [], conditions: [], delegateAdmin: false }],
        ['chm:USER:dave:INSERT', 'chm-grantor:USER:dave:carol'],
      ],
    ]);
    // the demo's own data-gate policies are kept, ids and all (masks and the row filter included)
    expect(policies('ranger').map((p) => p['id'])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(flushes).toEqual(['data gate', 'catalog gate']);
    // the data gate now allows dave's update on that table, and on no other
    const engine = engineOn('ranger');
    const update = (table: string) => engine.isAccessAllowed({ resource: { database: 'sales', table }, accessType: 'update', user: 'dave', userGroups: new Set(), resourceMatchingScope: 'SELF_OR_DESCENDANTS' }).isAllowed;
    expect([update('orders'), update('customers')]).toEqual([true, false]);
    await run(r, 'REVOKE INSERT ON sales.orders FROM dave');
    expect(policies('ranger').filter(onOrders)).toEqual(
      JSON.parse(fs.readFileSync(path.join(DEMO, 'ranger', 'lakehouse.json'), 'utf8')).policies.filter(onOrders),
    );
    expect(davesItems('polaris', onOrders)).toEqual([]);
  });

  it('a data gate that cannot be written: 58030, and the catalog gate\'s policies are as they were', async () => {
    const before = policies('polaris');
    const failing: PolicyStore = {
      describe: () => 'the failing store',
      load: async () => [],
      checkGrantee: async () => undefined,
      checkpoint: async () => async () => undefined,
      commit: async () => {
        throw new PolicyStoreError('disk full', 'unavailable');
      },
    };
    const flushes: string[] = [];
    const r = room({ projectWrites: true, dataGateStore: failing, flushes });
    expect(await sqlError(run(r, 'GRANT INSERT ON sales.orders TO dave'))).toEqual({
      code: '58030',
      message: 'GRANT failed and was undone: the data gate\'s policies could not be written (the failing store): disk full',
    });
    expect(policies('polaris')).toEqual(before);
    // control: the same GRANT without the data gate writes the catalog gate
    await run(room(), 'GRANT INSERT ON sales.orders TO dave');
    expect(policies('polaris')).not.toEqual(before);
    expect(flushes).toContain('catalog gate');
  });

  it('when putting the catalog gate back fails too, the error says what to check', async () => {
    const failing: PolicyStore = {
      describe: () => 'the failing store',
      load: async () => [],
      checkGrantee: async () => undefined,
      checkpoint: async () => async () => undefined,
      commit: async () => {
        throw new PolicyStoreError('disk full', 'unavailable');
      },
    };
    const r = room({ projectWrites: true, dataGateStore: failing });
    // the catalog gate's file goes away between the write and the undo
    const polaris = new LocalPolicyFileStore({ folder: folder('polaris'), serviceName: 'polaris' });
    const original = polaris.checkpoint.bind(polaris);
    (r as unknown as { o: { store: PolicyStore } }).o.store = Object.assign(Object.create(polaris) as PolicyStore, {
      checkpoint: async () => {
        await original();
        return async () => {
          throw new PolicyStoreError('gone', 'unavailable');
        };
      },
    });
    const e = await sqlError(run(r, 'GRANT INSERT ON sales.orders TO dave'));
    expect(e.code).toBe('58030');
    expect(e.message).toBe(`GRANT failed: the data gate's policies could not be written (the failing store): disk full; the catalog gate's policies written before it could not be put back: check policy files in ${folder('polaris')}`);
  });

  it('GRANT SELECT touches the data gate not at all; ALL says so in a NOTICE', async () => {
    const hiveBefore = fs.readFileSync(file('ranger'), 'utf8');
    const r = room({ projectWrites: true });
    expect(await run(r, 'GRANT SELECT ON sales.orders TO dave')).toEqual({ tag: 'GRANT' });
    expect(fs.readFileSync(file('ranger'), 'utf8')).toBe(hiveBefore);
    const all = await run(r, 'GRANT ALL ON DATABASE demo TO ROLE engineer');
    expect(all.notices?.map((n) => n.message)).toEqual(["ALL PRIVILEGES was written to the catalog gate only: the data gate's policies (lakehouse) decide its writes"]);
  });

  it('CREATE ON SCHEMA writes create on the schema\'s tables; DROP ON SCHEMA drop on the database alone', async () => {
    const r = room({ projectWrites: true });
    await run(r, 'GRANT CREATE ON SCHEMA sales TO dave');
    await run(r, 'GRANT DROP ON SCHEMA sales TO dave');
    const shape = (p: Record<string, unknown>) => Object.fromEntries(Object.entries(p['resources'] as Record<string, { values: string[] }>).map(([k, v]) => [k, v.values.join()]));
    const mine = policies('ranger').filter((p) => JSON.stringify(p['policyItems'] ?? []).includes('"dave"'));
    const davesTypes = (p: Record<string, unknown>) => (p['policyItems'] as { users?: string[]; accesses: { type: string }[] }[]).filter((i) => i.users?.includes('dave')).map((i) => i.accesses.map((a) => a.type));
    // the demo's policy 1 is on exactly {sales, *, *}: dave's item is merged into it, as Ranger's grant merges
    expect(mine.map((p) => [p['id'], shape(p), davesTypes(p), p['policyLabels']])).toEqual([
      [1, { database: 'sales', table: '*', column: '*' }, [['create']], ['chm:USER:dave:CREATE', 'chm-grantor:USER:dave:carol', 'chm:USER:dave:CREATE_VIEW']],
      [6, { database: 'sales' }, [['drop']], ['chm:USER:dave:DROP', 'chm-grantor:USER:dave:carol']],
    ]);
    // REVOKE CREATE TABLE keeps create: CREATE VIEW still needs it
    await run(r, 'REVOKE CREATE TABLE ON SCHEMA sales FROM dave');
    expect(davesTypes(policies('ranger').find((p) => p['id'] === 1)!)).toEqual([['create']]);
    await run(r, 'REVOKE CREATE VIEW ON SCHEMA sales FROM dave');
    expect(davesTypes(policies('ranger').find((p) => p['id'] === 1)!)).toEqual([]);
    expect(policies('ranger').find((p) => p['id'] === 1)!['policyLabels']).toEqual([]) // dave holds nothing there any more: his grantor goes with it;
  });
});

describe('ranger-delegate: a delegated grantor needs the grant option on the data gate too', () => {
  it('alice holds it on the catalog gate only: 42501 naming the data gate\'s resource; nothing written', async () => {
    const admin = room();
    await run(admin, 'GRANT SELECT, INSERT ON sales.orders TO alice WITH GRANT OPTION');
    await run(admin, 'GRANT USAGE ON SCHEMA sales TO dave');
    await run(admin, 'GRANT USAGE ON DATABASE demo TO dave');
    const polarisBefore = fs.readFileSync(file('polaris'), 'utf8');
    const hiveBefore = fs.readFileSync(file('ranger'), 'utf8');
    const alice: AdminCaller = { user: 'alice', roles: new Set(['analyst']), defaultSchema: null };
    const r = room({ projectWrites: true, grantAuthority: 'ranger-delegate' });
    expect(await sqlError(run(r, 'GRANT INSERT ON sales.orders TO dave', alice))).toEqual({
      code: '42501',
      message: 'permission denied: alice holds no grant option on the data gate\'s "sales.orders" (lakehouse) for update',
    });
    expect([fs.readFileSync(file('polaris'), 'utf8'), fs.readFileSync(file('ranger'), 'utf8')]).toEqual([polarisBefore, hiveBefore]);
    // control: with the grant option on the data gate as well, alice's grant is written to both
    await run(room({ projectWrites: true }), 'GRANT INSERT ON sales.orders TO alice WITH GRANT OPTION');
    expect(await run(r, 'GRANT INSERT ON sales.orders TO dave', alice)).toEqual({ tag: 'GRANT' });
    expect(davesItems('ranger', onOrders)).toEqual([['update']]);
  });
});

describe('without projectWrites', () => {
  it('a GRANT of a write privilege says the data gate must allow it too; SELECT and REVOKE say nothing', async () => {
    const r = room();
    const hiveBefore = fs.readFileSync(file('ranger'), 'utf8');
    const answer = await run(r, 'GRANT INSERT, UPDATE, ALTER ON sales.orders TO dave');
    expect(answer.notices).toEqual([
      {
        message: "INSERT, UPDATE, ALTER were written to the catalog gate only: the data gate's policies (lakehouse) must also allow update, alter on sales.orders for the write to pass",
        hint: "Add it to the data gate's policies, or set accessControl.projectWrites to have GRANT write both.",
      },
    ]);
    expect(fs.readFileSync(file('ranger'), 'utf8')).toBe(hiveBefore);
    expect((await run(r, 'GRANT SELECT ON sales.orders TO dave')).notices).toBeUndefined();
    expect((await run(r, 'REVOKE INSERT ON sales.orders FROM dave')).notices).toBeUndefined();
  });
});

describe('CHECK ACCESS of the write privileges', () => {
  it('after GRANT INSERT dave may insert (the types the demo\'s def defines); after REVOKE not; ALTER was never granted', async () => {
    const r = room();
    const check = async (sql: string) => (await run(r, sql)).rows![0]!;
    expect((await check('CHECK ACCESS INSERT ON sales.orders FOR USER dave'))[0]).toBe('f');
    await run(r, 'GRANT INSERT ON sales.orders TO dave');
    expect((await check('CHECK ACCESS INSERT ON sales.orders FOR USER dave'))[0]).toBe('t');
    expect((await check('CHECK ACCESS UPDATE ON sales.orders FOR USER dave'))[0]).toBe('t');
    expect(await check('CHECK ACCESS ALTER ON sales.orders FOR USER dave')).toEqual(['f', 'No matching grant for dave table-format-version-upgrade on demo.sales.orders']);
    await run(r, 'REVOKE INSERT ON sales.orders FROM dave');
    expect((await check('CHECK ACCESS INSERT ON sales.orders FOR USER dave'))[0]).toBe('f');
  });
});

describe("sqe's tag statements: the same statement as SET TAG, and SHOW TAGS", () => {
  const events: { action: string; resources: string[]; allowed: boolean }[] = [];
  const commits: unknown[] = [];
  let tags: Record<string, string[]> | null = {};
  const tagRoom = () =>
    new AdminRoom({
      store: new LocalPolicyFileStore({ folder: folder('polaris'), serviceName: 'polaris' }),
      engine: () => engineOn('polaris'),
      objects: { ...salesOrders, columnTags: async () => tags },
      flush: async () => undefined,
      catalog: 'demo',
      realmValue: '*',
      requestRealm: 'POLARIS',
      grantAuthority: 'admin-role',
      adminRoles: ['sqe_admin'],
      audit: { statement: (e) => void events.push({ action: e.action, resources: e.resources, allowed: e.allowed }) },
      log: pino({ level: 'silent' }),
      columnTags: async (c) => {
        commits.push(c);
        return { rollback: async () => undefined };
      },
    });
  beforeEach(() => {
    events.length = 0;
    commits.length = 0;
  });

  it('ALTER TABLE … SET / UNSET TAG commits and audits what SET / UNSET TAG … ON COLUMN does; its command tag is ALTER TABLE', async () => {
    const r = tagRoom();
    const inSales = { ...carol, defaultSchema: 'sales' };
    expect(await run(r, "ALTER TABLE orders ALTER COLUMN ssn SET TAG pii = 'yes'", inSales)).toEqual({ tag: 'ALTER TABLE' });
    expect(await run(r, 'SET TAG PII ON COLUMN sales.orders.ssn')).toEqual({ tag: 'SET TAG' });
    expect(await run(r, 'ALTER TABLE demo.sales.orders ALTER ssn UNSET TAG pii')).toEqual({ tag: 'ALTER TABLE' });
    expect(await run(r, 'UNSET TAG PII ON COLUMN sales.orders.ssn')).toEqual({ tag: 'UNSET TAG' });
    expect(commits).toEqual([
      { namespace: ['sales'], table: 'orders', column: 'ssn', tag: 'PII', add: true },
      { namespace: ['sales'], table: 'orders', column: 'ssn', tag: 'PII', add: true },
      { namespace: ['sales'], table: 'orders', column: 'ssn', tag: 'PII', add: false },
      { namespace: ['sales'], table: 'orders', column: 'ssn', tag: 'PII', add: false },
    ]);
    const setTag = { action: 'SET TAG', resources: ['demo.sales.orders.ssn'], allowed: true };
    const unsetTag = { ...setTag, action: 'UNSET TAG' };
    expect(events).toEqual([setTag, setTag, unsetTag, unsetTag]);
    // the same refusal for a user who is not an administrator, audited alike
    const alice: AdminCaller = { user: 'alice', roles: new Set(['analyst']), defaultSchema: 'sales' };
    for (const sql of ['ALTER TABLE orders ALTER COLUMN ssn SET TAG PII', 'SET TAG PII ON COLUMN sales.orders.ssn']) {
      expect(await sqlError(run(r, sql, alice))).toEqual({ code: '42501', message: 'permission denied: SET TAG needs the administrator role (sqe_admin)' });
    }
    expect(events.slice(4).map((e) => [e.action, e.allowed])).toEqual([['SET TAG', false], ['SET TAG', false]]);
    // an unqualified table with no schema selected
    expect((await sqlError(run(r, 'ALTER TABLE orders ALTER COLUMN ssn SET TAG PII'))).code).toBe('3F000');
    expect(commits).toHaveLength(4);
  });

  it('SHOW TAGS: one row per column and tag, ordered; unreadable tags fail; a table the caller may not load is missing', async () => {
    const r = tagRoom();
    tags = { ssn: ['PII', 'GDPR'], amount: ['FIN'] };
    const alice: AdminCaller = { user: 'alice', roles: new Set(['analyst']), defaultSchema: null };
    expect(await run(r, 'SHOW TAGS ON demo.sales.orders', alice)).toEqual({
      tag: 'SELECT 3',
      columns: [{ name: 'column', type: 'text' }, { name: 'tag', type: 'text' }],
      rows: [['amount', 'FIN'], ['ssn', 'GDPR'], ['ssn', 'PII']],
    });
    tags = null;
    expect((await sqlError(run(r, 'SHOW TAGS ON sales.orders', alice))).code).toBe('XX000');
    expect(await sqlError(run(r, 'SHOW TAGS ON sales.nope', alice))).toEqual({ code: '42P01', message: 'relation "sales.nope" does not exist' });
    expect(events.map((e) => [e.action, e.allowed])).toEqual([['SHOW TAGS', true], ['SHOW TAGS', false], ['SHOW TAGS', false]]);
  });
});
