/**
 * GRANT / REVOKE / DENY of the write privileges end to end in embedded mode
 * (issue 19): a warehouse written by pyiceberg's SqlCatalog, the catalog
 * gate's polaris policies and the data gate's query-service policies in
 * local files, carol (sqe_admin) typing the statements in a real session.
 *
 * What the written policies mean is asked as Polaris asks it: the Polaris
 * authorizer (policy/polaris/rangerAuthorizer.ts) deciding the operations of
 * Polaris's conformance fixtures (ADD_TABLE_SNAPSHOT, LOAD_TABLE_WITH_WRITE_
 * DELEGATION, DROP_TABLE_WITH_PURGE …) on the policy files as they are on
 * disk, and the data gate's engine deciding Hive's `update` / `create` /
 * `drop` on its file. Controls: every operation allowed on sales.orders is
 * refused on sales.evolved, and refused before the GRANT and after the REVOKE.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { polarisPath, type PolarisPath } from '../../catalog/polaris/authorization.js';
import { authorizePolaris } from '../../policy/polaris/rangerAuthorizer.js';
import { PolicyEngine } from '../../policy/ranger/engine.js';
import { parseRangerRoles, parseServicePolicies } from '../../policy/ranger/model.js';
import { RoleStore } from '../../policy/ranger/roles.js';
import { loadParser } from '../../sql/parse.js';
import { connect, rejection } from '../support/clients.js';
import { embeddedConfig, failure, missingRelation, polarisAllow, textRows, writeCatalogGate, writeDataGate, writeWarehouse, type Described } from '../support/grantsLake.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';

let root: string;
let polarisDir: string;
let rangerDir: string;
let tables: Record<string, Described>;
let gw: InProcessGateway;

/** Before any GRANT: analysts read sales; nobody writes; dave nothing. */
const catalogGatePolicies = () => [
  polarisAllow(1, { root: ['*'], catalog: ['lake'] }, ['namespace-list'], ['analyst']),
  polarisAllow(2, { root: ['*'], catalog: ['lake'], namespace: ['sales'] }, ['namespace-list', 'namespace-properties-read', 'table-list'], ['analyst']),
  polarisAllow(3, { root: ['*'], catalog: ['lake'], namespace: ['sales'], table: ['*'] }, ['table-list', 'table-properties-read', 'table-data-read'], ['analyst']),
];

beforeAll(async () => {
  await loadParser();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-grants-writes-'));
  tables = await writeWarehouse(root);
  polarisDir = writeCatalogGate(root, catalogGatePolicies());
  rangerDir = writeDataGate(root);
  gw = await startInProcess(() => embeddedConfig(root, { kind: 'local', path: polarisDir, serviceName: 'polaris' }, { grantAuthority: 'admin-role', projectWrites: true }));
}, 300_000);

afterAll(async () => {
  await gw?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const as = (user: string, g = gw) => connect({ host: '127.0.0.1', port: g.server.port }, { user, password: user, database: 'lake' });
let carol: pg.Client;
let dave: pg.Client;
beforeAll(async () => {
  carol = await as('carol');
  dave = await as('dave');
});
afterAll(async () => {
  await carol?.end();
  await dave?.end();
});

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
/** Polaris's decision on the catalog gate's policies as they are on disk now. */
function polaris(user: string, operation: string, target: PolarisPath, secondary?: PolarisPath): boolean {
  const engine = new PolicyEngine(parseServicePolicies(readJson(path.join(polarisDir, 'polaris.json')), 'polaris'), {
    roles: new RoleStore(parseRangerRoles(readJson(path.join(polarisDir, 'polaris_roles.json')), 'polaris roles')),
  });
  return authorizePolaris(engine, { principal: { name: user }, operation, targets: [target], ...(secondary ? { secondaries: [secondary] } : {}) }).allowed;
}
/** The data gate's decision (Hive access type on a table, as the data gate asks it) on its policy file now. */
function dataGate(user: string, accessType: string, database: string, table?: string): boolean {
  const engine = new PolicyEngine(parseServicePolicies(readJson(path.join(rangerDir, 'lakehouse.json')), 'lakehouse'), {
    roles: new RoleStore(parseRangerRoles(readJson(path.join(rangerDir, 'lakehouse_roles.json')), 'lakehouse roles')),
  });
  const resource: Record<string, string> = table === undefined ? { database } : { database, table };
  return engine.isAccessAllowed({ resource, accessType, user, userGroups: new Set(), resourceMatchingScope: 'SELF_OR_DESCENDANTS' }).isAllowed;
}

const R = 'POLARIS';
const orders = polarisPath.tableLike(R, 'lake', ['sales'], 'orders');
const evolved = polarisPath.tableLike(R, 'lake', ['sales'], 'evolved');
const sales = polarisPath.namespace(R, 'lake', ['sales']);
const hr = polarisPath.namespace(R, 'lake', ['hr']);
/** What an INSERT through the loopback endpoint asks Polaris for (load, a commit's fine-grained operations), and a writer with vended credentials. */
const WRITE_OPS = ['LOAD_TABLE', 'ADD_TABLE_SNAPSHOT', 'SET_TABLE_SNAPSHOT_REF', 'REMOVE_TABLE_SNAPSHOTS', 'SET_TABLE_PROPERTIES', 'LOAD_TABLE_WITH_WRITE_DELEGATION'];
const decisions = (user: string, ops: string[], target: PolarisPath) => Object.fromEntries(ops.map((op) => [op, polaris(user, op, target)]));
const all = (ops: string[], v: boolean) => Object.fromEntries(ops.map((op) => [op, v]));
const ORDERS = 'SELECT id, region, amount FROM sales.orders ORDER BY id';
const scan = (t: string) => tables[t]!.scans[tables[t]!.current]!;

describe('GRANT INSERT ON sales.orders TO dave, both gates', () => {
  it('before: Polaris refuses dave every write on sales.orders, and the data gate refuses update', () => {
    expect(decisions('dave', WRITE_OPS, orders)).toEqual(all(WRITE_OPS, false));
    expect(dataGate('dave', 'update', 'sales', 'orders')).toBe(false);
  });

  it('after: Polaris lets dave load and commit to sales.orders, not to sales.evolved; the data gate allows update there only', async () => {
    const notices: string[] = [];
    carol.on('notice', (n) => notices.push(n.message ?? ''));
    expect((await carol.query('GRANT INSERT ON sales.orders TO dave')).command).toBe('GRANT');
    expect(notices).toEqual([]);
    expect(decisions('dave', WRITE_OPS, orders)).toEqual(all(WRITE_OPS, true));
    expect(decisions('dave', WRITE_OPS, evolved)).toEqual(all(WRITE_OPS, false));
    // the traversal Polaris checks on the way down
    expect([polaris('dave', 'LIST_NAMESPACES', polarisPath.catalog(R, 'lake')), polaris('dave', 'LOAD_NAMESPACE_METADATA', sales)]).toEqual([true, true]);
    // INSERT is not DROP, nor repointing the table
    expect(['DROP_TABLE_WITH_PURGE', 'DROP_TABLE_WITHOUT_PURGE', 'SET_TABLE_LOCATION', 'ASSIGN_TABLE_UUID'].map((op) => polaris('dave', op, orders))).toEqual([false, false, false, false]);
    expect([dataGate('dave', 'update', 'sales', 'orders'), dataGate('dave', 'update', 'sales', 'evolved'), dataGate('dave', 'drop', 'sales', 'orders')]).toEqual([true, false, false]);
    // INSERT carries LOAD_TABLE: dave's open session reads the table at its next statement
    expect(await textRows(dave, ORDERS)).toEqual(scan('sales.orders'));
  });

  it('SHOW GRANTS and CHECK ACCESS know the write privileges', async () => {
    const shown = await textRows(carol, 'SHOW GRANTS ON TABLE sales.orders');
    expect(new Set(shown.map((r) => r['privilege']))).toContain('table-snapshot-add');
    expect(new Set(shown.map((r) => r['grantee_name']))).toEqual(new Set(['dave']));
    const check = async (sql: string) => (await textRows(carol, sql))[0]!;
    expect((await check('CHECK ACCESS INSERT ON sales.orders FOR USER dave'))['allowed']).toBe('t');
    expect((await check('CHECK ACCESS DELETE ON sales.orders FOR USER dave'))['allowed']).toBe('t');
    expect((await check('CHECK ACCESS INSERT ON sales.evolved FOR USER dave'))['allowed']).toBe('f');
    expect(await check('CHECK ACCESS DROP ON sales.orders FOR USER dave')).toEqual({ allowed: 'f', reason: 'No matching grant for dave table-drop on lake.sales.orders' });
  });

  it('after REVOKE INSERT: refused again on both gates, and dave\'s session no longer finds the table', async () => {
    expect((await carol.query('REVOKE INSERT ON sales.orders FROM dave')).command).toBe('REVOKE');
    expect(decisions('dave', WRITE_OPS, orders)).toEqual(all(WRITE_OPS, false));
    expect(dataGate('dave', 'update', 'sales', 'orders')).toBe(false);
    expect(await failure(dave.query(ORDERS))).toEqual(missingRelation('sales.orders'));
  });

  it('UPDATE and DELETE under their own labels: REVOKE UPDATE keeps what DELETE needs, on both gates', async () => {
    await carol.query('GRANT UPDATE, DELETE ON sales.orders TO dave');
    await carol.query('REVOKE UPDATE ON sales.orders FROM dave');
    expect(decisions('dave', WRITE_OPS, orders)).toEqual(all(WRITE_OPS, true));
    expect(dataGate('dave', 'update', 'sales', 'orders')).toBe(true);
    await carol.query('REVOKE DELETE ON sales.orders FROM dave');
    expect(decisions('dave', WRITE_OPS, orders)).toEqual(all(WRITE_OPS, false));
    expect(dataGate('dave', 'update', 'sales', 'orders')).toBe(false);
  });
});

describe('DENY INSERT', () => {
  it('takes the writes a wildcard grant gives, leaves the reading SELECT gives; REVOKE takes the deny back', async () => {
    await carol.query('GRANT SELECT ON sales.orders TO dave');
    await carol.query('GRANT INSERT ON ALL TABLES IN SCHEMA sales TO dave');
    expect(decisions('dave', WRITE_OPS, orders)).toEqual(all(WRITE_OPS, true));
    expect((await carol.query('DENY INSERT ON TABLE sales.orders TO USER dave')).command).toBe('DENY');
    const writes = WRITE_OPS.filter((op) => op !== 'LOAD_TABLE');
    expect(decisions('dave', WRITE_OPS, orders)).toEqual({ ...all(writes, false), LOAD_TABLE: true });
    expect(dataGate('dave', 'update', 'sales', 'orders')).toBe(false);
    // control: the wildcard still lets dave write another table, and he still reads this one
    expect(decisions('dave', WRITE_OPS, evolved)).toEqual(all(WRITE_OPS, true));
    expect(dataGate('dave', 'update', 'sales', 'evolved')).toBe(true);
    expect(await textRows(dave, ORDERS)).toEqual(scan('sales.orders'));
    await carol.query('REVOKE INSERT ON sales.orders FROM dave');
    expect(decisions('dave', WRITE_OPS, orders)).toEqual(all(WRITE_OPS, true));
    await carol.query('REVOKE INSERT ON ALL TABLES IN SCHEMA sales FROM dave');
    await carol.query('REVOKE SELECT ON sales.orders FROM dave');
    expect(decisions('dave', WRITE_OPS, evolved)).toEqual(all(WRITE_OPS, false));
    expect(dataGate('dave', 'update', 'sales', 'evolved')).toBe(false);
  });
});

describe('CREATE and DROP: what creating, dropping and renaming need', () => {
  it('CREATE ON SCHEMA sales: tables and views there, nowhere else; DROP on a table and CREATE on the destination make a rename', async () => {
    expect([polaris('dave', 'CREATE_TABLE_DIRECT', sales), polaris('dave', 'CREATE_VIEW', sales)]).toEqual([false, false]);
    await carol.query('GRANT CREATE ON SCHEMA sales TO dave');
    expect([polaris('dave', 'CREATE_TABLE_DIRECT', sales), polaris('dave', 'CREATE_TABLE_STAGED', sales), polaris('dave', 'CREATE_VIEW', sales)]).toEqual([true, true, true]);
    expect([polaris('dave', 'CREATE_TABLE_DIRECT', hr), polaris('dave', 'CREATE_NAMESPACE', polarisPath.catalog(R, 'lake'))]).toEqual([false, false]);
    expect([dataGate('dave', 'create', 'sales', 'new_table'), dataGate('dave', 'create', 'hr', 'new_table')]).toEqual([true, false]);
    // a rename needs the source's drop as well
    expect(polaris('dave', 'RENAME_TABLE', orders, sales)).toBe(false);
    await carol.query('GRANT DROP ON sales.orders TO dave');
    expect([polaris('dave', 'RENAME_TABLE', orders, sales), polaris('dave', 'RENAME_TABLE', orders, hr)]).toEqual([true, false]);
    expect([polaris('dave', 'DROP_TABLE_WITH_PURGE', orders), polaris('dave', 'DROP_TABLE_WITH_PURGE', evolved)]).toEqual([true, false]);
    expect([dataGate('dave', 'drop', 'sales', 'orders'), dataGate('dave', 'drop', 'sales', 'evolved')]).toEqual([true, false]);
    await carol.query('REVOKE DROP ON sales.orders FROM dave');
    await carol.query('REVOKE CREATE ON SCHEMA sales FROM dave');
    expect([polaris('dave', 'CREATE_TABLE_DIRECT', sales), polaris('dave', 'CREATE_VIEW', sales), polaris('dave', 'DROP_TABLE_WITH_PURGE', orders)]).toEqual([false, false, false]);
    expect(dataGate('dave', 'create', 'sales', 'new_table')).toBe(false);
  });

  it('CREATE SCHEMA ON DATABASE and DROP ON SCHEMA: the namespace operations, on the level Polaris checks them', async () => {
    const cat = polarisPath.catalog(R, 'lake');
    await carol.query('GRANT CREATE SCHEMA ON DATABASE lake TO dave');
    await carol.query('GRANT DROP ON SCHEMA sales TO dave');
    expect([polaris('dave', 'CREATE_NAMESPACE', cat), polaris('dave', 'DROP_NAMESPACE', sales), polaris('dave', 'DROP_NAMESPACE', hr)]).toEqual([true, true, false]);
    // the schema itself, not its tables
    expect(polaris('dave', 'DROP_TABLE_WITH_PURGE', orders)).toBe(false);
    expect([dataGate('dave', 'create', 'analytics'), dataGate('dave', 'drop', 'sales'), dataGate('dave', 'drop', 'hr'), dataGate('dave', 'drop', 'sales', 'orders')]).toEqual([true, true, false, false]);
    await carol.query('REVOKE CREATE SCHEMA ON DATABASE lake FROM dave');
    await carol.query('REVOKE DROP ON SCHEMA sales FROM dave');
    expect([polaris('dave', 'CREATE_NAMESPACE', cat), polaris('dave', 'DROP_NAMESPACE', sales)]).toEqual([false, false]);
    expect([dataGate('dave', 'create', 'analytics'), dataGate('dave', 'drop', 'sales')]).toEqual([false, false]);
  });
});

describe('both gates or neither', () => {
  it('a data gate that cannot be written: 58030, the catalog gate\'s policies as they were, Polaris still refuses', async () => {
    const polarisFile = path.join(polarisDir, 'polaris.json');
    const before = (readJson(polarisFile) as { policies: unknown[] }).policies;
    // the data gate's store writes a temporary file next to its policies and renames it: make that impossible
    const blocker = path.join(rangerDir, `lakehouse.json.${process.pid}.tmp`);
    fs.mkdirSync(blocker);
    try {
      const e = await rejection(carol.query('GRANT INSERT ON sales.orders TO dave'));
      expect([e.code, e.message.startsWith('GRANT failed and was undone: the data gate\'s policies could not be written (policy files in ')]).toEqual(['58030', true]);
      expect((readJson(polarisFile) as { policies: unknown[] }).policies).toEqual(before);
      expect(decisions('dave', WRITE_OPS, orders)).toEqual(all(WRITE_OPS, false));
    } finally {
      fs.rmdirSync(blocker);
    }
    // control: the same statement once the data gate can be written
    expect((await carol.query('GRANT INSERT ON sales.orders TO dave')).command).toBe('GRANT');
    expect(decisions('dave', WRITE_OPS, orders)).toEqual(all(WRITE_OPS, true));
    await carol.query('REVOKE INSERT ON sales.orders FROM dave');
  });
});

describe('without projectWrites', () => {
  let plain: InProcessGateway;
  beforeAll(async () => {
    plain = await startInProcess(() => embeddedConfig(root, { kind: 'local', path: polarisDir, serviceName: 'polaris' }, { grantAuthority: 'admin-role' }));
  }, 120_000);
  afterAll(async () => plain?.stop());

  it('GRANT INSERT answers with a NOTICE that the data gate must allow update too, and writes the catalog gate only', async () => {
    const c = await as('carol', plain);
    try {
      const notices: { message?: string; hint?: string; severity?: string; code?: string }[] = [];
      c.on('notice', (n) => notices.push({ message: n.message, hint: (n as { hint?: string }).hint, severity: n.severity, code: n.code }));
      const hiveBefore = fs.readFileSync(path.join(rangerDir, 'lakehouse.json'), 'utf8');
      expect((await c.query('GRANT INSERT ON sales.orders TO dave')).command).toBe('GRANT');
      expect(notices).toEqual([
        {
          severity: 'NOTICE',
          code: '00000',
          message: "INSERT was written to the catalog gate only: the data gate's policies (lakehouse) must also allow update on sales.orders for the write to pass",
          hint: "Add it to the data gate's policies, or set accessControl.projectWrites to have GRANT write both.",
        },
      ]);
      expect(polaris('dave', 'ADD_TABLE_SNAPSHOT', orders)).toBe(true);
      expect(fs.readFileSync(path.join(rangerDir, 'lakehouse.json'), 'utf8')).toBe(hiveBefore);
      expect(dataGate('dave', 'update', 'sales', 'orders')).toBe(false);
      // control: a GRANT of a read privilege says nothing
      notices.length = 0;
      await c.query('GRANT SELECT ON sales.orders TO dave');
      expect(notices).toEqual([]);
      await c.query('REVOKE INSERT ON sales.orders FROM dave');
      await c.query('REVOKE SELECT ON sales.orders FROM dave');
    } finally {
      await c.end();
    }
  });
});
