/**
 * The embedded catalog's write API, called directly as different users
 * (tests/support/writableLake.ts: carol manages, bob writes data, alice reads,
 * dave loads nothing), and pyiceberg reading what it wrote. Polaris's order:
 * what does not exist is 404 for anyone, what exists and is not granted is 403
 * naming the operation; the granted user is the control. The SQL file's
 * compare-and-swap holds between two handles and between two processes.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadParser } from '../../sql/parse.js';
import { REPO_ROOT } from '../../tests/support/lakegate.js';
import { LAKE_CATALOG, startWritableLake, tableState, type WritableLake } from '../../tests/support/writableLake.js';
import { CatalogError, type JsonObject } from './api.js';
import { commentOn } from './comments.js';
import { SqlCatalogFile } from './sqlCatalog.js';
import { catalogView } from './tables.js';

let lake: WritableLake;
const carol = { user: 'carol' };
const bob = { user: 'bob' };
const alice = { user: 'alice' };
const dave = { user: 'dave' };

const schema = (fields: [number, string, unknown][]) => ({ type: 'struct', fields: fields.map(([id, name, type]) => ({ id, name, type, required: false })) });

async function refusal(p: Promise<unknown>): Promise<{ status: number | undefined; type: string | undefined; message: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof CatalogError) return { status: e.status, type: e.type, message: e.message };
    throw e;
  }
  throw new Error('no error');
}

const filesUnder = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)])) : [];

beforeAll(async () => {
  await loadParser();
  lake = startWritableLake();
  await lake.catalog.createNamespace(carol, ['shop']);
  await lake.catalog.createTable(carol, ['shop'], { name: 'items', schema: schema([[1, 'id', 'long'], [2, 'name', 'string']]) });
});
afterAll(() => lake?.close());

describe('404 before 403, as Polaris', () => {
  const append = (uuid: unknown) => ({
    requirements: [{ type: 'assert-table-uuid', uuid }],
    updates: [{ action: 'set-properties', updates: { touched: 'yes' } }],
  });

  test('a commit to a missing table is 404 for anyone; to an existing one, 403 naming the refused operation; carol commits', async () => {
    const uuid = (await lake.catalog.loadTable(carol, ['shop'], 'items')).raw!['table-uuid'];
    expect(await refusal(lake.catalog.commitTable(dave, ['shop'], 'nosuch', append(uuid)))).toEqual({ status: 404, type: 'NoSuchTableException', message: 'Table does not exist: shop.nosuch' });
    expect(await refusal(lake.catalog.commitTable(dave, ['shop'], 'items', append(uuid)))).toEqual({
      status: 403,
      type: 'ForbiddenException',
      message: "Principal 'dave' is not authorized for op 'SET_TABLE_PROPERTIES'",
    });
    expect(await refusal(lake.catalog.commitTable(alice, ['shop'], 'items', append(uuid)))).toMatchObject({ status: 403 });
    await lake.catalog.commitTable(carol, ['shop'], 'items', append(uuid));
    expect((await tableState(lake.dir, 'shop.items')).properties['touched']).toBe('yes');
  });

  test('bob writes data (table-data-write) but may neither create, drop nor rename a table', async () => {
    expect(await refusal(lake.catalog.createTable(bob, ['shop'], { name: 'mine', schema: schema([[1, 'x', 'int']]) }))).toMatchObject({
      status: 403,
      message: "Principal 'bob' is not authorized for op 'CREATE_TABLE_DIRECT'",
    });
    expect(await refusal(lake.catalog.createTable(bob, ['nowhere'], { name: 'mine', schema: schema([[1, 'x', 'int']]) }))).toMatchObject({
      status: 404,
      type: 'NoSuchNamespaceException',
    });
    expect(await refusal(lake.catalog.dropTable(bob, ['shop'], 'items', { purge: false }))).toMatchObject({ status: 403 });
    expect(await refusal(lake.catalog.renameTable(bob, { namespace: ['shop'], name: 'items' }, { namespace: ['shop'], name: 'x' }))).toMatchObject({ status: 403 });
    expect(await refusal(lake.catalog.createNamespace(bob, ['bobs']))).toMatchObject({ status: 403, message: "Principal 'bob' is not authorized for op 'CREATE_NAMESPACE'" });
  });
});

describe('namespaces and tables', () => {
  test('a namespace is created once, refused as not empty while it holds a table, dropped when empty', async () => {
    await lake.catalog.createNamespace(carol, ['tmp'], { owner: 'carol' });
    expect(await refusal(lake.catalog.createNamespace(carol, ['tmp']))).toMatchObject({ status: 409, type: 'AlreadyExistsException' });
    expect(await lake.catalog.loadNamespace(alice, ['tmp'])).toEqual({ owner: 'carol' });
    await lake.catalog.createTable(carol, ['tmp'], { name: 't', schema: schema([[1, 'x', 'int']]) });
    expect(await refusal(lake.catalog.dropNamespace(carol, ['tmp']))).toMatchObject({ status: 409, type: 'NamespaceNotEmptyException' });
    await lake.catalog.dropTable(carol, ['tmp'], 't', { purge: true });
    await lake.catalog.dropNamespace(carol, ['tmp']);
    expect(await refusal(lake.catalog.loadNamespace(carol, ['tmp']))).toMatchObject({ status: 404 });
  });

  test('a created table gets fresh field ids as Iceberg assigns them (each struct\'s fields, then their children), partition fields following their columns', async () => {
    const created = await lake.catalog.createTable(carol, ['shop'], {
      name: 'nested',
      schema: {
        type: 'struct',
        fields: [
          { id: 10, name: 'a', type: 'long', required: true },
          { id: 20, name: 'b', required: false, type: { type: 'struct', fields: [{ id: 30, name: 'x', type: 'int', required: false }, { id: 31, name: 'y', type: 'string', required: false }] } },
          { id: 40, name: 'c', required: false, type: { type: 'list', 'element-id': 41, element: 'int', 'element-required': false } },
        ],
      },
      partitionSpec: { fields: [{ 'source-id': 10, name: 'a_bucket', transform: 'bucket[8]' }] },
      properties: { owner: 'shop' },
    });
    const state = await tableState(lake.dir, 'shop.nested');
    expect(state.fields.map((f) => [f.id, f.name, f.required])).toEqual([
      [1, 'a', true],
      [2, 'b', false],
      [3, 'c', false],
    ]);
    expect(state.fields[1]!.type).toBe('struct<4: x: optional int, 5: y: optional string>');
    expect(state.fields[2]!.type).toBe('list<int>');
    expect((created.metadata['partition-specs'] as JsonObject[])[0]).toEqual({ 'spec-id': 0, fields: [{ 'source-id': 1, 'field-id': 1000, name: 'a_bucket', transform: 'bucket[8]' }] });
    expect(state.properties).toEqual({ owner: 'shop' });
    expect(state.location).toMatch(new RegExp(`^${lake.dir}/shop/nested-[0-9a-f]{12}$`));
  });

  test('renames keep the folder, a new table of the old name gets another; a taken name is 409, a missing namespace 404', async () => {
    await lake.catalog.createTable(carol, ['shop'], { name: 'old', schema: schema([[1, 'x', 'int']]) });
    const before = (await lake.catalog.loadTable(carol, ['shop'], 'old')).metadata.location;
    await lake.catalog.renameTable(carol, { namespace: ['shop'], name: 'old' }, { namespace: ['shop'], name: 'renamed' });
    expect((await lake.catalog.loadTable(carol, ['shop'], 'renamed')).metadata.location).toBe(before);
    await lake.catalog.createTable(carol, ['shop'], { name: 'old', schema: schema([[1, 'x', 'int']]) });
    expect((await lake.catalog.loadTable(carol, ['shop'], 'old')).metadata.location).not.toBe(before);
    expect(await refusal(lake.catalog.renameTable(carol, { namespace: ['shop'], name: 'old' }, { namespace: ['shop'], name: 'renamed' }))).toMatchObject({ status: 409 });
    expect(await refusal(lake.catalog.renameTable(carol, { namespace: ['shop'], name: 'old' }, { namespace: ['gone'], name: 'x' }))).toMatchObject({
      status: 404,
      type: 'NoSuchNamespaceException',
    });
    expect(await refusal(lake.catalog.createTable(carol, ['shop'], { name: 'old', schema: schema([[1, 'x', 'int']]) }))).toMatchObject({ status: 409, type: 'AlreadyExistsException' });
  });

  test('DROP without purge keeps the files; with purge the table\'s folder is emptied (and another table\'s folder untouched)', async () => {
    for (const name of ['keep', 'purge']) await lake.catalog.createTable(carol, ['shop'], { name, schema: schema([[1, 'x', 'int']]) });
    const keep = (await lake.catalog.loadTable(carol, ['shop'], 'keep')).metadata.location;
    const purge = (await lake.catalog.loadTable(carol, ['shop'], 'purge')).metadata.location;
    const items = (await lake.catalog.loadTable(carol, ['shop'], 'items')).metadata.location;
    const itemsFiles = filesUnder(items);
    await lake.catalog.dropTable(carol, ['shop'], 'keep', { purge: false });
    await lake.catalog.dropTable(carol, ['shop'], 'purge', { purge: true });
    expect(filesUnder(keep).length).toBeGreaterThan(0);
    expect(filesUnder(purge)).toEqual([]);
    expect(existsSync(purge)).toBe(false);
    expect(filesUnder(items)).toEqual(itemsFiles);
    expect(await refusal(lake.catalog.dropTable(carol, ['shop'], 'purge', { purge: true }))).toMatchObject({ status: 404 });
  });

  test('COMMENT ON TABLE and COLUMN: the comment property and the field\'s doc as pyiceberg reads them, field ids kept; NULL removes', async () => {
    await commentOn(lake.catalog, carol, ['shop'], 'items', {}, 'things we sell');
    await commentOn(lake.catalog, carol, ['shop'], 'items', { column: 'name' }, 'shown on the shelf');
    let state = await tableState(lake.dir, 'shop.items');
    expect(state.properties['comment']).toBe('things we sell');
    expect(state.fields).toEqual([
      { id: 1, name: 'id', type: 'long', required: false, doc: null },
      { id: 2, name: 'name', type: 'string', required: false, doc: 'shown on the shelf' },
    ]);
    await commentOn(lake.catalog, carol, ['shop'], 'items', { column: 'name' }, null);
    await commentOn(lake.catalog, carol, ['shop'], 'items', {}, '');
    state = await tableState(lake.dir, 'shop.items');
    expect(state.properties['comment']).toBeUndefined();
    expect(state.fields[1]!.doc).toBeNull();
    await expect(commentOn(lake.catalog, carol, ['shop'], 'items', { column: 'nope' }, 'x')).rejects.toMatchObject({ code: '42703' });
    expect(await refusal(commentOn(lake.catalog, alice, ['shop'], 'items', {}, 'mine'))).toMatchObject({ status: 403 });
  });
});

describe('views', () => {
  const view = (sql: string) => ({
    schema: { type: 'struct', fields: [{ id: 1, name: 'id', type: 'long', required: false }] },
    sql,
    defaultNamespace: ['shop'],
  });

  test('a view is written with a postgresql representation that the view read path parses; replaced; dropped; pyiceberg does not list it as a table', async () => {
    await lake.catalog.createView(carol, ['shop'], 'big_items', view('select id from items where id > 10'));
    const loaded = await lake.catalog.loadView(alice, ['shop'], 'big_items');
    const v = catalogView(['shop'], 'big_items', loaded);
    expect(v.columns).toEqual([{ name: 'id', duckType: 'BIGINT', nullable: true, fieldId: 1 }]);
    expect(v.defaultSchema).toBe('shop');
    expect(loaded.metadata.versions[0]!.representations).toEqual([{ type: 'sql', sql: 'select id from items where id > 10', dialect: 'postgresql' }]);
    const replaced = await lake.catalog.replaceView(carol, ['shop'], 'big_items', view('select id from items where id > 100'));
    expect(replaced.metadata['current-version-id']).toBe(2);
    expect(JSON.stringify(catalogView(['shop'], 'big_items', replaced).query)).toContain('100');
    expect(await lake.catalog.listViews(alice, ['shop'])).toEqual(['big_items']);
    expect(await lake.catalog.listTables(alice, ['shop'])).not.toContain('big_items');
    expect(await refusal(lake.catalog.createView(carol, ['shop'], 'items', view('select 1')))).toMatchObject({ status: 409 });
    expect(await refusal(lake.catalog.replaceView(bob, ['shop'], 'big_items', view('select 2')))).toMatchObject({ status: 403, message: "Principal 'bob' is not authorized for op 'REPLACE_VIEW'" });
    // pyiceberg's SqlCatalog (v1 schema) lists tables without the view row.
    await expect(tableState(lake.dir, 'shop.big_items')).rejects.toThrow(/NoSuchTableError/);
    await lake.catalog.dropView(carol, ['shop'], 'big_items');
    expect(await refusal(lake.catalog.loadView(carol, ['shop'], 'big_items'))).toMatchObject({ status: 404, type: 'NoSuchViewException' });
  });
});

describe('compare-and-swap of the SQL catalog row', () => {
  test('two handles committing from the same base: one wins, the other is 409 and the row keeps the winner', () => {
    const a = new SqlCatalogFile(lake.sqliteFile, LAKE_CATALOG, { writable: true });
    const b = new SqlCatalogFile(lake.sqliteFile, LAKE_CATALOG, { writable: true });
    try {
      const base = a.entry(['shop'], 'items')!.metadataLocation;
      a.swapLocations([{ ns: ['shop'], name: 'items', kind: 'table', from: base, to: `${base}.a` }]);
      let lost: unknown;
      try {
        b.swapLocations([{ ns: ['shop'], name: 'items', kind: 'table', from: base, to: `${base}.b` }]);
      } catch (e) {
        lost = e;
      }
      expect(lost).toMatchObject({ status: 409, type: 'CommitFailedException' });
      expect(b.entry(['shop'], 'items')!.metadataLocation).toBe(`${base}.a`);
      a.swapLocations([{ ns: ['shop'], name: 'items', kind: 'table', from: `${base}.a`, to: base }]);
    } finally {
      a.close();
      b.close();
    }
  });

  test('a commit to two tables is checked whole before anything is written: one stale, neither moves; both fresh, both do', async () => {
    await lake.catalog.createTable(carol, ['shop'], { name: 'pair', schema: schema([[1, 'x', 'int']]) });
    const items = await lake.catalog.loadTable(carol, ['shop'], 'items');
    const pair = await lake.catalog.loadTable(carol, ['shop'], 'pair');
    const set = (uuid: unknown, schemaId: number) => ({
      requirements: [{ type: 'assert-table-uuid', uuid }, { type: 'assert-current-schema-id', 'current-schema-id': schemaId }],
      updates: [{ action: 'set-properties', updates: { both: 'yes' } }],
    });
    expect(
      await refusal(
        lake.catalog.commitTables(carol, [
          { namespace: ['shop'], name: 'items', commit: set(items.raw!['table-uuid'], Number(items.raw!['current-schema-id'])) },
          { namespace: ['shop'], name: 'pair', commit: set(pair.raw!['table-uuid'], 7) },
        ]),
      ),
    ).toMatchObject({ status: 409, message: 'Requirement failed: current schema changed: expected id 7 != 0' });
    expect((await lake.catalog.loadTable(carol, ['shop'], 'items')).metadataLocation).toBe(items.metadataLocation);
    const both = await lake.catalog.commitTables(carol, [
      { namespace: ['shop'], name: 'items', commit: set(items.raw!['table-uuid'], Number(items.raw!['current-schema-id'])) },
      { namespace: ['shop'], name: 'pair', commit: set(pair.raw!['table-uuid'], 0) },
    ]);
    expect(both).toHaveLength(2);
    for (const t of ['shop.items', 'shop.pair']) expect((await tableState(lake.dir, t)).properties['both']).toBe('yes');
  });

  test('two processes committing to one table at once lose no commit', async () => {
    const count = 15;
    const run = (who: string) =>
      new Promise<{ commits: number; conflicts: number }>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', join(REPO_ROOT, 'tests', 'fixtures', 'loopback', 'commitLoop.ts'), lake.sqliteFile, lake.dir, 'shop', 'items', who, String(count)],
          { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.once('close', (code) => (code === 0 ? resolve(JSON.parse(out) as { commits: number; conflicts: number }) : reject(new Error(`commitLoop ${who}: ${code}\n${err}`))));
      });
    const before = await tableState(lake.dir, 'shop.items');
    const results = await Promise.all([run('p1'), run('p2')]);
    const after = await tableState(lake.dir, 'shop.items');
    for (const who of ['p1', 'p2']) for (let i = 0; i < count; i++) expect(after.properties[`${who}-${i}`]).toBe('1');
    // Every commit wrote one metadata file: 2 × count more than before (the metadata log keeps them all).
    const metadataFiles = (s: typeof after) => s.files.filter((f) => f.endsWith('.metadata.json')).length;
    expect(metadataFiles(after) - metadataFiles(before)).toBe(2 * count);
    process.stdout.write(`two processes: ${results.map((r) => `${r.commits} commits, ${r.conflicts} conflicts`).join('; ')}\n`);
  }, 120_000);
});
