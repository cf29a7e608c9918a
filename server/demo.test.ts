/**
 * The demo's schema `analytics` (issue 19): what its policies decide, asked as
 * Polaris's Ranger authorizer asks (the operations of the conformance
 * fixtures) and as the data gate asks (the query service's access types); the
 * schema seeded at start; the policy copy in DATA_DIR refreshed when no GRANT
 * has written it. Expected decisions are the issue's: engineers create and
 * write there, analysts read it, dave nothing; engineers write nothing else.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { polarisPath, type PolarisPath } from '../catalog/polaris/authorization.js';
import { authorizePolaris } from '../policy/polaris/rangerAuthorizer.js';
import { SqlCatalogFile } from '../catalog/iceberg/sqlCatalog.js';
import { PolicyEngine } from '../policy/ranger/engine.js';
import { parseRangerRoles, parseServicePolicies } from '../policy/ranger/model.js';
import { RoleStore } from '../policy/ranger/roles.js';
import { demoAssetDir, demoPolicyFolder, seedDemo } from './demo.js';

const read = (...p: string[]) => JSON.parse(fs.readFileSync(path.join(demoAssetDir(), ...p), 'utf8')) as unknown;
const engineOf = (dir: string, svc: string) => new PolicyEngine(parseServicePolicies(read(dir, `${svc}.json`), svc), { roles: new RoleStore(parseRangerRoles(read(dir, `${svc}_roles.json`), svc)) });

describe('the catalog gate on analytics, as Polaris decides it', () => {
  const engine = engineOf('polaris', 'polaris');
  const R = 'POLARIS';
  const analytics = polarisPath.namespace(R, 'demo', ['analytics']);
  const model = polarisPath.tableLike(R, 'demo', ['analytics'], 'dim_customers');
  const orders = polarisPath.tableLike(R, 'demo', ['sales'], 'orders');
  const allowed = (user: string, operation: string, target: PolarisPath, secondary?: PolarisPath | null) =>
    authorizePolaris(engine, { principal: { name: user }, operation, targets: [target], ...(secondary ? { secondaries: [secondary] } : {}) }).allowed;

  const engineerMay: [string, PolarisPath, PolarisPath?][] = [
    ['LOAD_NAMESPACE_METADATA', analytics],
    ['LIST_TABLES', analytics],
    ['LIST_VIEWS', analytics],
    ['CREATE_TABLE_DIRECT', analytics],
    ['CREATE_TABLE_STAGED', analytics],
    ['UPDATE_TABLE_FOR_STAGED_CREATE', analytics],
    ['CREATE_VIEW', analytics],
    ['LOAD_TABLE', model],
    ['ADD_TABLE_SNAPSHOT', model],
    ['SET_TABLE_SNAPSHOT_REF', model],
    ['REMOVE_TABLE_SNAPSHOTS', model],
    ['ADD_TABLE_SCHEMA', model],
    ['SET_TABLE_CURRENT_SCHEMA', model],
    ['SET_TABLE_PROPERTIES', model],
    ['UPDATE_TABLE', model],
    ['DROP_TABLE_WITH_PURGE', model],
    ['DROP_TABLE_WITHOUT_PURGE', model],
    ['RENAME_TABLE', model, analytics],
    ['LOAD_VIEW', model],
    ['REPLACE_VIEW', model],
    ['DROP_VIEW', model],
    ['RENAME_VIEW', model, analytics],
  ];
  // rows of one length: jest reads a missing argument as a done callback
  it.each(engineerMay.map(([op, target, secondary]) => [op, target, secondary ?? null] as const))('bob (engineer) may %s; alice (analyst only) and dave may not', (op, target, secondary) => {
    expect(allowed('bob', op, target, secondary)).toBe(true);
    const reads = ['LOAD_NAMESPACE_METADATA', 'LIST_TABLES', 'LIST_VIEWS', 'LOAD_TABLE', 'LOAD_VIEW'].includes(op);
    expect(allowed('alice', op, target, secondary)).toBe(reads);
    expect(allowed('dave', op, target, secondary)).toBe(false);
  });

  it('engineers write nothing outside analytics, and create no schema (CREATE_NAMESPACE is checked on the whole catalog)', () => {
    // control: bob reads sales.orders
    expect(allowed('bob', 'LOAD_TABLE', orders)).toBe(true);
    for (const op of ['ADD_TABLE_SNAPSHOT', 'DROP_TABLE_WITH_PURGE', 'SET_TABLE_PROPERTIES', 'UPDATE_TABLE']) expect([op, allowed('bob', op, orders)]).toEqual([op, false]);
    expect(allowed('bob', 'CREATE_TABLE_DIRECT', polarisPath.namespace(R, 'demo', ['sales']))).toBe(false);
    expect(allowed('bob', 'RENAME_TABLE', model, polarisPath.namespace(R, 'demo', ['sales']))).toBe(false);
    expect(allowed('bob', 'CREATE_NAMESPACE', polarisPath.catalog(R, 'demo'))).toBe(false);
    expect(allowed('bob', 'DROP_NAMESPACE', analytics)).toBe(false);
    expect(allowed('dave', 'LIST_NAMESPACES', polarisPath.catalog(R, 'demo'))).toBe(false);
    expect(allowed('alice', 'LIST_NAMESPACES', polarisPath.catalog(R, 'demo'))).toBe(true);
  });
});

describe('the data gate on analytics', () => {
  const engine = engineOf('ranger', 'lakehouse');
  const roles: Record<string, string[]> = { alice: ['analyst'], bob: ['analyst', 'engineer'], dave: [] };
  const may = (user: string, accessType: string, resource: Record<string, string>) =>
    engine.isAccessAllowed({ resource, accessType, user, userGroups: new Set(), ...(roles[user]!.length > 0 ? { userRoles: new Set(roles[user]) } : {}), resourceMatchingScope: 'SELF_OR_DESCENDANTS' }).isAllowed;
  const model = { database: 'analytics', table: 'dim_customers' };

  it('select for analysts and engineers; update, create, drop, alter for engineers; dave nothing', () => {
    expect(['alice', 'bob', 'dave'].map((u) => may(u, 'select', model))).toEqual([true, true, false]);
    for (const t of ['update', 'create', 'drop', 'alter']) expect([t, ...['alice', 'bob', 'dave'].map((u) => may(u, t, model))]).toEqual([t, false, true, false]);
    // the schema itself (CREATE SCHEMA IF NOT EXISTS analytics)
    expect(['alice', 'bob', 'dave'].map((u) => may(u, 'create', { database: 'analytics' }))).toEqual([false, true, false]);
  });
  it('sales stays read-only for everyone: the earlier policies are as they were', () => {
    expect(['alice', 'bob', 'dave'].map((u) => may(u, 'select', { database: 'sales', table: 'orders' }))).toEqual([true, true, true]);
    for (const t of ['update', 'create', 'drop', 'alter']) expect([t, may('bob', t, { database: 'sales', table: 'orders' })]).toEqual([t, false]);
    const ids = (read('ranger', 'lakehouse.json') as { policies: { id: number; policyType?: number }[] }).policies.map((p) => [p.id, p.policyType ?? 0]);
    expect(ids).toEqual([[1, 0], [2, 1], [3, 1], [4, 2], [5, 0]]);
  });
});

describe('DATA_DIR', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-demo-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the first start seeds sales.orders and the empty schema analytics; a data dir seeded before analytics gets it', async () => {
    const { sqliteFile } = await seedDemo(dir);
    const namespaces = () => {
      const c = new SqlCatalogFile(sqliteFile, 'demo');
      try {
        return { namespaces: c.namespaces().map((n) => n.join('.')).sort(), analytics: c.entries(['analytics']).length, orders: c.entry(['sales'], 'orders') !== undefined };
      } finally {
        c.close();
      }
    };
    expect(namespaces()).toEqual({ namespaces: ['analytics', 'sales'], analytics: 0, orders: true });
    const c = new SqlCatalogFile(sqliteFile, 'demo', { create: true });
    c.removeNamespace(['analytics']);
    c.close();
    expect(namespaces().namespaces).toEqual(['sales']);
    await seedDemo(dir);
    expect(namespaces()).toEqual({ namespaces: ['analytics', 'sales'], analytics: 0, orders: true });
  }, 60_000);

  it('a policy copy made by an earlier version, never written, is replaced; one GRANT wrote is kept', () => {
    const copy = () => path.join(dir, 'policies', 'polaris', 'polaris.json');
    const packaged = fs.readFileSync(path.join(demoAssetDir(), 'polaris', 'polaris.json'), 'utf8');
    // the package's polaris policies before analytics (what a data dir of an earlier version holds)
    const doc = JSON.parse(packaged) as { policies: { id: number }[] };
    const earlier = `${JSON.stringify({ ...doc, policies: doc.policies.filter((p) => p.id <= 3) }, null, 2)}\n`;
    expect(earlier).not.toBe(packaged);
    fs.mkdirSync(path.dirname(copy()), { recursive: true });
    fs.writeFileSync(copy(), earlier);
    demoPolicyFolder(dir);
    expect(fs.readFileSync(copy(), 'utf8')).toBe(packaged);
    // a copy a GRANT wrote (the store bumps policyVersion) is the operator's: kept
    const written = JSON.stringify({ ...(JSON.parse(earlier) as object), policyVersion: 2 });
    fs.writeFileSync(copy(), written);
    demoPolicyFolder(dir);
    expect(fs.readFileSync(copy(), 'utf8')).toBe(written);
    expect(fs.existsSync(path.join(dir, 'policies', 'polaris', 'polaris_roles.json'))).toBe(true);
  });
});
