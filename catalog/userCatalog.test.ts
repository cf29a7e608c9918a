/**
 * Resolution through the embedded catalog as different users: a table the
 * polaris-service policies do not let a user load is answered exactly like a
 * missing one; a namespace whose metadata load is refused is hidden with its
 * tables; answers are cached per user for the TTL (one load per table per
 * TTL) and asked again after it. The control in each case is a user who may
 * load the table.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { compileSnapshot } from '../policy/ranger/compile.js';
import type { PolicyEngine } from '../policy/ranger/engine.js';
import { LocalPolicySource } from '../policy/ranger/sources/localSource.js';
import { loadParser } from '../sql/parse.js';
import { EmbeddedCatalog } from './iceberg/embedded.js';
import { RangerPolarisAuthorizer } from '../policy/polaris/rangerAuthorizer.js';
import { SqlCatalogFile } from './iceberg/sqlCatalog.js';
import { writeTable } from './iceberg/writer.js';
import { CatalogError, type IcebergCatalog } from './iceberg/api.js';
import { CatalogService, DEFAULT_MAX_ENTRIES_PER_USER } from './userCatalog.js';

let dir: string;
let engine: PolicyEngine;
const demoPolicies = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'demo', 'polaris');

beforeAll(async () => {
  await loadParser();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-usercat-'));
  const cat = new SqlCatalogFile(path.join(dir, 'catalog.db'), 'demo', { create: true });
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  for (const [ns, name] of [['sales', 'orders'], ['sales', 'refunds'], ['hr', 'salaries']] as const) {
    const loc = await writeTable(conn, {
      location: path.join(dir, 'warehouse', `${ns}.db`, name),
      fields: [{ id: 1, name: 'id', type: 'int', required: true }],
      rows: 'VALUES (1)',
      properties: name === 'orders' ? { 'sqe.column-tags': '{"id": ["PII"]}' } : {},
    });
    cat.createNamespace([ns]);
    cat.register([ns], name, loc);
  }
  instance.closeSync();
  cat.close();
  // The demo's polaris service def and roles; policies that let analysts see sales only.
  const doc = JSON.parse(fs.readFileSync(path.join(demoPolicies, 'polaris.json'), 'utf8'));
  const policy = (id: number, resources: Record<string, string[]>, accesses: string[]) => ({
    id,
    name: `p${id}`,
    isEnabled: true,
    resources: Object.fromEntries(Object.entries(resources).map(([k, v]) => [k, { values: v }])),
    policyItems: [{ accesses: accesses.map((type) => ({ type, isAllowed: true })), roles: ['analyst'] }],
  });
  doc.policies = [
    policy(1, { root: ['*'], catalog: ['demo'] }, ['namespace-list']),
    policy(2, { root: ['*'], catalog: ['demo'], namespace: ['sales'] }, ['namespace-list', 'namespace-properties-read', 'table-list', 'view-list']),
    policy(3, { root: ['*'], catalog: ['demo'], namespace: ['sales'], table: ['*'] }, ['table-list', 'table-properties-read', 'view-properties-read']),
  ];
  const polDir = path.join(dir, 'polaris');
  fs.mkdirSync(polDir);
  fs.writeFileSync(path.join(polDir, 'polaris.json'), JSON.stringify(doc));
  fs.copyFileSync(path.join(demoPolicies, 'polaris_roles.json'), path.join(polDir, 'polaris_roles.json'));
  const fetched = await new LocalPolicySource({ path: polDir, serviceName: 'polaris' }).fetch(null);
  if (!fetched.changed) throw new Error('demo polaris policies not loaded');
  engine = compileSnapshot(fetched.snapshot);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function service(ttlMs = 60_000): CatalogService {
  const client = new EmbeddedCatalog({
    sqliteFile: path.join(dir, 'catalog.db'),
    catalogName: 'demo',
    realm: 'POLARIS',
    warehouseRoots: [path.join(dir, 'warehouse')],
    authorizer: new RangerPolarisAuthorizer(() => engine),
  });
  return new CatalogService(client, { ttlMs, loadConcurrency: 4 });
}

describe('resolution as the user', () => {
  it('control: an analyst sees sales and loads its tables, with the column tags of the table property', async () => {
    const s = service();
    const alice = s.forUser('alice');
    const caller = { user: 'alice' };
    expect((await alice.namespaces(caller)).value).toEqual([['sales']]);
    const e = (await alice.lookup(caller, 'sales', 'orders')).value;
    expect(e?.kind).toBe('table');
    if (e?.kind !== 'table') throw new Error('unreachable');
    expect(e.table.resource).toEqual({ database: 'sales', table: 'orders' });
    expect(e.table.columns).toEqual([{ name: 'id', duckType: 'INTEGER', nullable: false, fieldId: 1 }]);
    expect(e.table.columnTags).toEqual({ id: ['PII'] });
    const scan = JSON.stringify(e.table.scan());
    expect(scan).toContain('iceberg_scan');
    expect(scan).toContain(e.loaded.metadataLocation);
    s.close();
  });

  it('a denied table, a missing table and a table in a hidden namespace are all just null', async () => {
    const s = service();
    const caller = { user: 'dave' };
    const dave = s.forUser('dave');
    expect((await dave.namespaces(caller)).value).toEqual([]);
    expect((await dave.lookup(caller, 'sales', 'orders')).value).toBeNull();
    expect((await dave.lookup(caller, 'sales', 'nosuch')).value).toBeNull();
    // hr exists, but no analyst policy covers it: hidden from alice too, its table with it
    const alice = s.forUser('alice');
    expect((await alice.lookup({ user: 'alice' }, 'hr', 'salaries')).value).toBeNull();
    expect((await alice.lookup({ user: 'alice' }, 'nosuchns', 'salaries')).value).toBeNull();
    s.close();
  });

  it('a metadata table is loaded as its table: the same catalog answer, decided as the table, rows not read until the data gate asks', async () => {
    const s = service();
    const alice = s.forUser('alice');
    const caller = { user: 'alice' };
    const base = (await alice.lookup(caller, 'sales', 'orders')).value;
    const e = (await alice.lookup(caller, 'sales', 'orders$files')).value;
    if (e?.kind !== 'table' || base?.kind !== 'table') throw new Error('expected tables');
    expect(e.table.name).toBe('orders$files');
    expect(e.table.resource).toEqual({ database: 'sales', table: 'orders' });
    expect(e.table.metadataOf?.base).toBe(base.table);
    expect(e.table.columns.map((c) => c.name)).toContain('lower_bounds');
    // the plain scan is a placeholder, never the table's rows
    expect(JSON.stringify(e.table.scan())).not.toContain('iceberg_scan');
    // dave may not load orders: its metadata tables are missing like it, and like a missing table's
    const dave = s.forUser('dave');
    for (const name of ['orders$files', 'orders$snapshots', 'nosuch$files']) expect((await dave.lookup({ user: 'dave' }, 'sales', name)).value).toBeNull();
    expect((await alice.lookup(caller, 'sales', 'nosuch$files')).value).toBeNull();
    expect((await alice.lookup(caller, 'sales', 'orders$nosuch')).value).toBeNull();
    s.close();
  });

  it('the embedded catalog answers like Polaris: 404 before 403', async () => {
    const client = new EmbeddedCatalog({
      sqliteFile: path.join(dir, 'catalog.db'),
      catalogName: 'demo',
      realm: 'POLARIS',
      warehouseRoots: [],
      authorizer: new RangerPolarisAuthorizer(() => engine),
    });
    await expect(client.loadTable({ user: 'dave' }, ['sales'], 'nosuch')).rejects.toMatchObject({ kind: 'not-found', status: 404 });
    await expect(client.loadTable({ user: 'dave' }, ['sales'], 'orders')).rejects.toMatchObject({
      kind: 'forbidden',
      status: 403,
      message: "Principal 'dave' is not authorized for op 'LOAD_TABLE'",
    });
    await expect(client.loadTable({ user: 'alice' }, ['sales'], 'orders')).resolves.toMatchObject({ credentials: [] });
    // no policy set loaded: everything is refused
    const closed = new EmbeddedCatalog({ sqliteFile: path.join(dir, 'catalog.db'), catalogName: 'demo', realm: 'POLARIS', warehouseRoots: [], authorizer: new RangerPolarisAuthorizer(() => null) });
    await expect(closed.loadTable({ user: 'alice' }, ['sales'], 'orders')).rejects.toMatchObject({ kind: 'forbidden' });
    client.close();
    closed.close();
  });

  it('one load per table per TTL, denials included; asked again after the TTL', async () => {
    const s = service(200);
    const caller = { user: 'alice' };
    const alice = s.forUser('alice');
    for (let i = 0; i < 5; i++) await alice.lookup(caller, 'sales', 'orders');
    for (let i = 0; i < 5; i++) await alice.lookup(caller, 'sales', 'nosuch');
    // orders: one table load; nosuch: one table load + one view load
    expect(s.calls.loadTable).toBe(2);
    expect(s.calls.loadView).toBe(1);
    // the top level, then the children of the one visible namespace (multi-level listing)
    expect(s.calls.listNamespaces).toBe(2);
    await new Promise((r) => setTimeout(r, 250));
    await alice.lookup(caller, 'sales', 'orders');
    expect(s.calls.loadTable).toBe(3);
    expect(s.calls.listNamespaces).toBe(4);
    s.close();
  });

  it('the listing holds exactly what the user may load', async () => {
    const s = service();
    const l = (await s.forUser('alice').listing({ user: 'alice' })).value;
    expect(l.schemas).toEqual(['sales']);
    expect(l.tables.map((t) => `${t.schema}.${t.name}`).sort()).toEqual(['sales.orders', 'sales.refunds']);
    const d = (await s.forUser('dave').listing({ user: 'dave' })).value;
    expect(d).toEqual({ schemas: [], tables: [], views: [] });
    s.close();
  });

  it('time travel by snapshot id, and an unknown snapshot is an error the user can act on', async () => {
    const s = service();
    const caller = { user: 'alice' };
    const alice = s.forUser('alice');
    const cur = (await alice.lookup(caller, 'sales', 'orders')).value;
    if (cur?.kind !== 'table') throw new Error('control failed');
    const id = cur.loaded.metadata['current-snapshot-id']!;
    const travel = (await alice.lookup(caller, 'sales', `orders@${id}`)).value;
    expect(travel?.kind === 'table' && JSON.stringify(travel.table.scan())).toContain(`"fval":"${id}"`);
    await expect(alice.lookup(caller, 'sales', 'orders@12345')).rejects.toMatchObject({ code: '22023', message: 'sales.orders: snapshot 12345 does not exist' });
    // a denied table stays missing whatever the suffix
    expect((await s.forUser('dave').lookup({ user: 'dave' }, 'sales', `orders@${id}`)).value).toBeNull();
    s.close();
  });
});

describe('the cache is bounded and expires (issue 18: 100,000 missing names grew RSS by 140 MB for good)', () => {
  /** A catalog with one namespace and no tables at all: every lookup is a miss, answered at once. */
  const empty = (): IcebergCatalog => ({
    listNamespaces: async (_c, parent) => (parent.length === 0 ? [['sales']] : []),
    loadNamespace: async () => ({}),
    listTables: async () => [],
    listViews: async () => [],
    loadTable: async () => {
      throw new CatalogError('not-found', 'Table does not exist', 404);
    },
    loadView: async () => {
      throw new CatalogError('not-found', 'View does not exist', 404);
    },
    storageRoots: [],
    close: () => undefined,
  });

  it('100,000 distinct missing names keep at most the per-user bound (default 10,000) of answers', async () => {
    const s = new CatalogService(empty(), { ttlMs: 60_000, loadConcurrency: 4 });
    const dave = s.forUser('dave');
    for (let i = 0; i < 100_000; i++) expect((await dave.lookup({ user: 'dave' }, 'sales', `missing_${i}`)).value).toBeNull();
    expect(s.size()).toEqual({ users: 1, entries: DEFAULT_MAX_ENTRIES_PER_USER });
    s.close();
  }, 60_000);

  it('per user and in total: the least recently used answer goes first; one still in use stays cached (control)', async () => {
    const s = new CatalogService(empty(), { ttlMs: 60_000, loadConcurrency: 4, maxEntriesPerUser: 3, maxEntries: 5 });
    const caller = { user: 'alice' };
    const alice = s.forUser('alice');
    for (const n of ['a', 'b', 'c']) await alice.lookup(caller, 'sales', n);
    await alice.lookup(caller, 'sales', 'a'); // a is used again: b is now the oldest
    await alice.lookup(caller, 'sales', 'd');
    const before = s.calls.loadTable;
    await alice.lookup(caller, 'sales', 'a');
    expect(s.calls.loadTable).toBe(before); // still cached
    await alice.lookup(caller, 'sales', 'b');
    expect(s.calls.loadTable).toBe(before + 1); // evicted, asked again
    expect(s.size().entries).toBe(3);
    // another user's answers push the total past 5: alice (least recently active) gives way
    const bob = s.forUser('bob');
    for (const n of ['p', 'q', 'r']) await bob.lookup({ user: 'bob' }, 'sales', n);
    expect(s.size().entries).toBe(5);
    const bobBefore = s.calls.loadTable;
    for (const n of ['p', 'q', 'r']) await bob.lookup({ user: 'bob' }, 'sales', n);
    expect(s.calls.loadTable).toBe(bobBefore);
    s.close();
  });

  it('expired answers and idle users are swept away; before the TTL they are served from the cache (control)', async () => {
    let now = 1_000_000;
    const s = new CatalogService(empty(), { ttlMs: 30_000, loadConcurrency: 4, now: () => now });
    const caller = { user: 'erin' };
    const erin = s.forUser('erin');
    for (let i = 0; i < 100; i++) await erin.lookup(caller, 'sales', `gone_${i}`);
    now += 29_000;
    s.sweep();
    expect(s.size()).toEqual({ users: 1, entries: 100 });
    const before = s.calls.loadTable;
    await erin.lookup(caller, 'sales', 'gone_7');
    expect(s.calls.loadTable).toBe(before);
    now += 2_000;
    s.sweep();
    expect(s.size()).toEqual({ users: 0, entries: 0 });
    s.close();
  });
});
