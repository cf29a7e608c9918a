/**
 * The loopback catalog endpoint with a real DuckDB 1.5.5 (its iceberg
 * extension, locked down as the engine is) writing through it into the
 * embedded catalog, and pyiceberg's SqlCatalog reading back what was written
 * (tests/fixtures/iceberg/table_state.py): schema and field ids, rows,
 * snapshot summaries, 64-bit ids. Expected rows are written out here.
 * Concurrent appends lose nothing; a commit that lost a race leaves no file;
 * a writer killed before its commit leaves the table as it was; the catalog
 * gate holds (writer as control, a reader refused, a user who cannot load the
 * table told it does not exist, as for a missing one).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { defaultExtensionDirectory } from '../../server/extensions.js';
import { REPO_ROOT } from '../../tests/support/lakegate.js';
import { attachLoopback, failureOf, lockedDuckDb, startWritableLake, tableState, type WritableLake } from '../../tests/support/writableLake.js';
import type { LoopbackEvent } from './session.js';
import { LoopbackCatalog, type OpenedSession } from './server.js';

let lake: WritableLake;
let endpoint: LoopbackCatalog;
let duck: DuckDBInstance;
const opened: { session: OpenedSession; conn: DuckDBConnection }[] = [];

beforeAll(async () => {
  lake = startWritableLake();
  endpoint = await LoopbackCatalog.start({ catalog: lake.catalog });
  duck = await lockedDuckDb([lake.dir]);
}, 300_000);

afterAll(async () => {
  for (const o of opened) o.conn.closeSync();
  await endpoint?.close();
  duck?.closeSync();
  lake?.close();
});

let attached = 0;

/**
 * A session for `user` and a DuckDB connection attached to it. Attached
 * catalogs belong to the whole DuckDB instance, so each session's has a name
 * of its own; `conn.run` here reads `lake.` in the SQL as that name.
 */
async function sessionFor(user: string, options: Parameters<LoopbackCatalog['open']>[1] = {}) {
  const session = endpoint.open({ user }, options);
  const raw = await duck.connect();
  const as = `lake_${++attached}`;
  await attachLoopback(raw, session.url, as);
  const rewrite = (sql: string) => sql.replace(/\blake\./g, `${as}.`);
  const conn = {
    run: (sql: string) => raw.run(rewrite(sql)),
    runAndReadAll: (sql: string) => raw.runAndReadAll(rewrite(sql)),
  } as unknown as DuckDBConnection;
  opened.push({ session, conn: raw });
  return { session, conn };
}

const rows = async (conn: DuckDBConnection, sql: string) => (await conn.runAndReadAll(sql)).getRows();
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]));
const committed = (events: LoopbackEvent[]) => events.filter((e): e is Extract<LoopbackEvent, { kind: 'table-committed' }> => e.kind === 'table-committed');

describe('DuckDB writing through the endpoint, pyiceberg reading back', () => {
  let carol: Awaited<ReturnType<typeof sessionFor>>;
  beforeAll(async () => {
    carol = await sessionFor('carol');
    await carol.conn.run('CREATE SCHEMA lake.sales');
  });

  test('CREATE TABLE, INSERT, UPDATE, DELETE, MERGE: rows, field ids, snapshot summaries and 64-bit ids as pyiceberg reads them', async () => {
    const { conn, session } = carol;
    await conn.run('CREATE TABLE lake.sales.orders (id BIGINT, region VARCHAR, amount DECIMAL(10,2))');
    await conn.run("INSERT INTO lake.sales.orders VALUES (1, 'EU', 10.50), (2, 'US', 20.00), (3, 'EU', 30.25)");
    await conn.run("UPDATE lake.sales.orders SET amount = 11.00 WHERE id = 1");
    await conn.run('DELETE FROM lake.sales.orders WHERE id = 2');
    await conn.run('CREATE TABLE lake.sales.changes (id BIGINT, region VARCHAR, amount DECIMAL(10,2))');
    await conn.run("INSERT INTO lake.sales.changes VALUES (3, 'EU', 33.00), (4, 'APAC', 40.00)");
    await conn.run(
      'MERGE INTO lake.sales.orders AS d USING lake.sales.changes AS s ON d.id = s.id ' +
        'WHEN MATCHED THEN UPDATE SET amount = s.amount WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.region, s.amount)',
    );
    const events = session.takeEvents();
    const state = await tableState(lake.dir, 'sales.orders');
    expect(state.rows).toEqual([
      [1, 'EU', '11.00'],
      [3, 'EU', '33.00'],
      [4, 'APAC', '40.00'],
    ]);
    expect(state.fields.map((f) => [f.id, f.name, f.type])).toEqual([
      [1, 'id', 'long'],
      [2, 'region', 'string'],
      [3, 'amount', 'decimal(10, 2)'],
    ]);
    // MERGE's update and insert may come as one snapshot or two; the rows above are what counts.
    expect(state.snapshots.map((s) => s.operation).slice(0, 3)).toEqual(['append', 'overwrite', 'delete']);
    expect(state.snapshots[0]!.summary).toMatchObject({ 'added-records': '3', 'total-records': '3', 'added-data-files': '1' });
    expect(state.snapshots[2]!.summary).toMatchObject({ 'added-position-deletes': '1' });
    // The ids the endpoint reported are pyiceberg's, digit for digit (most exceed 2^53).
    const reported = committed(events)
      .filter((e) => e.table.name === 'orders')
      .flatMap((e) => e.snapshots.map((s) => String(s.snapshotId)));
    expect(reported).toEqual(state.snapshots.map((s) => s.snapshotId));
    expect(state.currentSnapshotId).toBe(reported.at(-1));
    expect(reported.some((id) => BigInt(id) > 2n ** 53n)).toBe(true);
    const insert = committed(events).find((e) => e.table.name === 'orders' && e.snapshots[0]?.operation === 'append')!;
    expect(insert.snapshots[0]).toMatchObject({ addedRecords: 3n, totalRecords: 3n });
    // Every new table got a folder of its own.
    expect(state.location).toMatch(new RegExp(`^${lake.dir}/sales/orders-[0-9a-f]{12}$`));
  });

  test('ALTER TABLE ADD / RENAME / DROP COLUMN and TRUNCATE: the schema pyiceberg reads, field ids kept, old rows NULL in the new column', async () => {
    const { conn } = carol;
    await conn.run('CREATE TABLE lake.sales.evolving (id INTEGER, name VARCHAR)');
    await conn.run("INSERT INTO lake.sales.evolving VALUES (1, 'a'), (2, 'b')");
    await conn.run('ALTER TABLE lake.sales.evolving ADD COLUMN score BIGINT');
    await conn.run("INSERT INTO lake.sales.evolving VALUES (3, 'c', 30)");
    await conn.run('ALTER TABLE lake.sales.evolving RENAME COLUMN name TO label');
    await conn.run('ALTER TABLE lake.sales.evolving DROP COLUMN id');
    let state = await tableState(lake.dir, 'sales.evolving');
    expect(state.fields.map((f) => [f.id, f.name, f.type])).toEqual([
      [2, 'label', 'string'],
      [3, 'score', 'long'],
    ]);
    expect(state.rows).toEqual([
      ['a', null],
      ['b', null],
      ['c', 30],
    ]);
    await conn.run('TRUNCATE lake.sales.evolving');
    state = await tableState(lake.dir, 'sales.evolving');
    expect(state.rows).toEqual([]);
    expect(state.snapshots.at(-1)!.operation).toBe('delete');
  });

  test('CREATE TABLE + INSERT … SELECT in one transaction (how CREATE TABLE AS runs) under the lock-down; a rolled-back one leaves no folder', async () => {
    const { conn, session } = carol;
    await conn.run('BEGIN');
    await conn.run('CREATE TABLE lake.sales.ctas (n BIGINT, label VARCHAR)');
    await conn.run("INSERT INTO lake.sales.ctas SELECT range, 'n' || range FROM range(1000)");
    await conn.run('COMMIT');
    const state = await tableState(lake.dir, 'sales.ctas');
    expect(state.rows.length).toBe(1000);
    expect(state.rows[0]).toEqual([0, 'n0']);
    expect(state.snapshots).toHaveLength(1);
    const created = committed(session.takeEvents()).find((e) => e.table.name === 'ctas')!;
    expect(created).toMatchObject({ created: true, snapshots: [{ addedRecords: 1000n }] });

    const before = new Set(readdirSync(join(lake.dir, 'sales')));
    await conn.run('BEGIN');
    await conn.run('CREATE TABLE lake.sales.abandoned (n BIGINT)');
    await conn.run('INSERT INTO lake.sales.abandoned SELECT range FROM range(10)');
    await conn.run('ROLLBACK');
    const staged = session.takeEvents().find((e) => e.kind === 'table-staged');
    expect(staged).toBeDefined();
    const folder = (staged as Extract<LoopbackEvent, { kind: 'table-staged' }>).location;
    expect(existsSync(folder)).toBe(true);
    expect(await failureOf(conn, 'SELECT * FROM lake.sales.abandoned')).toMatch(/does not exist/);
    // The folder goes when the session ends (the create never committed).
    const other = await sessionFor('carol');
    await other.session.close();
    expect(existsSync(folder)).toBe(true);
    const last = opened.find((o) => o.session === session)!;
    await last.session.close();
    expect(existsSync(folder)).toBe(false);
    expect(new Set(readdirSync(join(lake.dir, 'sales')))).toEqual(new Set([...before].filter((n) => n !== folder.split('/').pop())));
    carol = await sessionFor('carol');
  });

  test("a created table takes Iceberg's default target file size: a CREATE TABLE AS of more than DuckDB's own 8 MiB target is one data file", async () => {
    const { conn, session } = carol;
    await conn.run('BEGIN');
    await conn.run('CREATE TABLE lake.sales.wide (n BIGINT, a VARCHAR, b VARCHAR)');
    // ~26 MB of incompressible text: at DuckDB's default target, several files
    await conn.run("INSERT INTO lake.sales.wide SELECT range, md5(range::VARCHAR) || md5((range + 1)::VARCHAR), md5((-range)::VARCHAR) FROM range(300000)");
    await conn.run('COMMIT');
    const created = committed(session.takeEvents()).find((e) => e.table.name === 'wide')!;
    const folder = join(created.metadataLocation.replace(/^file:\/\//, ''), '..', '..');
    const files = readdirSync(join(folder, 'data'), { recursive: true }).map(String).filter((f) => f.endsWith('.parquet'));
    const bytes = files.reduce((sum, f) => sum + statSync(join(folder, 'data', f)).size, 0);
    expect(bytes).toBeGreaterThan(8 * 2 ** 20);
    expect(files).toHaveLength(1);
    const metadata = JSON.parse(readFileSync(created.metadataLocation.replace(/^file:\/\//, ''), 'utf8')) as { properties: Record<string, string> };
    expect(metadata.properties['write.target-file-size-bytes']).toBe(String(512 * 2 ** 20));
    await conn.run('DROP TABLE lake.sales.wide');
  });

  test('a rolled-back create whose name is created again: the first folder goes at once', async () => {
    const { conn, session } = carol;
    session.takeEvents();
    await conn.run('BEGIN');
    await conn.run('CREATE TABLE lake.sales.again (n BIGINT)');
    await conn.run('INSERT INTO lake.sales.again VALUES (1)');
    await conn.run('ROLLBACK');
    const first = (session.takeEvents().find((e) => e.kind === 'table-staged') as Extract<LoopbackEvent, { kind: 'table-staged' }>).location;
    expect(existsSync(first)).toBe(true);
    await conn.run('CREATE TABLE lake.sales.again (n BIGINT)');
    await conn.run('INSERT INTO lake.sales.again VALUES (2)');
    expect(existsSync(first)).toBe(false);
    expect((await tableState(lake.dir, 'sales.again')).rows).toEqual([[2]]);
  });

  test('a table created after a rename does not reuse the renamed table\'s folder; DROP TABLE removes it from the catalog', async () => {
    const { conn } = carol;
    await conn.run('CREATE TABLE lake.sales.tmp (x INTEGER)');
    await conn.run('INSERT INTO lake.sales.tmp VALUES (1)');
    await conn.run('ALTER TABLE lake.sales.tmp RENAME TO kept');
    await conn.run('CREATE TABLE lake.sales.tmp (x INTEGER)');
    await conn.run('INSERT INTO lake.sales.tmp VALUES (2)');
    const [kept, fresh] = await Promise.all([tableState(lake.dir, 'sales.kept'), tableState(lake.dir, 'sales.tmp')]);
    expect(kept.rows).toEqual([[1]]);
    expect(fresh.rows).toEqual([[2]]);
    expect(fresh.location).not.toBe(kept.location);
    await conn.run('DROP TABLE lake.sales.tmp');
    await expect(tableState(lake.dir, 'sales.tmp')).rejects.toThrow(/NoSuchTableError/);
    // DuckDB drops without purging: the files stay.
    expect(filesUnder(fresh.location).length).toBeGreaterThan(0);
  });

  test('a purged DROP deletes every file of the table DuckDB wrote (data, deletes, manifests, metadata) and nothing of the others', async () => {
    const { conn } = carol;
    await conn.run('CREATE TABLE lake.sales.doomed (x INTEGER)');
    await conn.run('INSERT INTO lake.sales.doomed SELECT range FROM range(10)');
    await conn.run('DELETE FROM lake.sales.doomed WHERE x < 3');
    const doomed = await tableState(lake.dir, 'sales.doomed');
    const orders = await tableState(lake.dir, 'sales.orders');
    expect(filesUnder(doomed.location).sort()).toEqual([...doomed.files].sort());
    await lake.catalog.dropTable({ user: 'carol' }, ['sales'], 'doomed', { purge: true });
    expect(existsSync(doomed.location)).toBe(false);
    expect(filesUnder(orders.location).sort()).toEqual([...orders.files].sort());
  });
});

describe('concurrency', () => {
  test('two sessions appending at once: every acknowledged append is read back once, a lost race is a 409 the writer retries', async () => {
    const setup = await sessionFor('carol');
    await setup.conn.run('CREATE SCHEMA lake.race');
    await setup.conn.run('CREATE TABLE lake.race.appends (writer VARCHAR, batch INTEGER, n INTEGER)');
    const writers = await Promise.all(['w1', 'w2'].map(() => sessionFor('bob')));
    const perWriter = 8;
    const acknowledged: string[] = [];
    let conflicts = 0;
    await Promise.all(
      writers.map(async ({ conn, session }, w) => {
        for (let batch = 0; batch < perWriter; batch++) {
          for (let attempt = 0; ; attempt++) {
            const failure = await failureOf(conn, `INSERT INTO lake.race.appends SELECT 'w${w}', ${batch}, range FROM range(3)`);
            if (failure === 'no error') break;
            const refused = session.takeEvents().find((e) => e.kind === 'commit-failed');
            // Only a lost race may be retried; anything else fails the test.
            expect(refused).toMatchObject({ kind: 'commit-failed', conflict: true, status: 409, type: 'CommitFailedException' });
            conflicts++;
            if (attempt > 50) throw new Error('no progress');
          }
          acknowledged.push(`w${w}/${batch}`);
        }
      }),
    );
    const state = await tableState(lake.dir, 'race.appends');
    const batches = new Map<string, number>();
    for (const [writer, batch] of state.rows as [string, number, number][]) batches.set(`${writer}/${batch}`, (batches.get(`${writer}/${batch}`) ?? 0) + 1);
    expect([...batches.keys()].sort()).toEqual([...acknowledged].sort());
    expect([...batches.values()].every((n) => n === 3)).toBe(true);
    expect(state.snapshots).toHaveLength(2 * perWriter);
    // Printed for the record: how often the race was lost (it may be 0 on a quiet machine; the next test forces one).
    process.stdout.write(`concurrent appends: ${acknowledged.length} acknowledged, ${conflicts} conflicts retried\n`);
  });

  test('a commit based on a stale snapshot is refused (409) and leaves no file behind; the winner\'s rows stand', async () => {
    const a = await sessionFor('bob');
    const b = await sessionFor('bob');
    await a.conn.run('BEGIN');
    await a.conn.run('INSERT INTO lake.race.appends VALUES (\'loser\', 0, 0)');
    await b.conn.run('INSERT INTO lake.race.appends VALUES (\'winner\', 0, 0)');
    const failure = await failureOf(a.conn, 'COMMIT');
    expect(failure).toMatch(/409|Conflict/);
    const refused = a.session.takeEvents().find((e) => e.kind === 'commit-failed') as Extract<LoopbackEvent, { kind: 'commit-failed' }>;
    expect(refused).toMatchObject({ conflict: true, type: 'CommitFailedException' });
    expect(refused.removedFiles).toBeGreaterThan(0);
    const state = await tableState(lake.dir, 'race.appends');
    expect(state.rows.filter((r) => r[0] === 'winner')).toHaveLength(1);
    expect(state.rows.filter((r) => r[0] === 'loser')).toHaveLength(0);
    // On disk: exactly the files the table references (pyiceberg's list), nothing of the lost commit.
    expect(filesUnder(state.location).sort()).toEqual([...state.files].sort());
  });

  test('a writer killed before its commit leaves the table at its previous snapshot', async () => {
    const setup = await sessionFor('carol');
    await setup.conn.run('CREATE TABLE lake.race.crash (n INTEGER)');
    await setup.conn.run('INSERT INTO lake.race.crash VALUES (1), (2)');
    const before = await tableState(lake.dir, 'race.crash');
    const session = endpoint.open({ user: 'bob' });
    const child = spawn(
      process.execPath,
      [join(REPO_ROOT, 'tests', 'fixtures', 'loopback', 'duckWriter.mjs'), defaultExtensionDirectory(), lake.dir, session.url, 'INSERT INTO lake.race.crash SELECT range FROM range(100)'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('written') && resolve());
      child.once('exit', (code) => reject(new Error(`writer exited (${code}) before writing: ${err}`)));
    });
    // Its data files are on disk; no commit was sent.
    expect(filesUnder(before.location).length).toBeGreaterThan(before.files.length);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('close', r));
    await session.close();
    const after = await tableState(lake.dir, 'race.crash');
    expect(after.currentSnapshotId).toBe(before.currentSnapshotId);
    expect(after.rows).toEqual([[1], [2]]);
  });
});

describe('the catalog gate through the endpoint', () => {
  beforeAll(async () => {
    const setup = await sessionFor('carol');
    await setup.conn.run('CREATE SCHEMA lake.gate');
    await setup.conn.run('CREATE TABLE lake.gate.t (n INTEGER)');
  });

  test('bob (table-data-write) appends: the control', async () => {
    const { conn } = await sessionFor('bob');
    expect(await failureOf(conn, 'INSERT INTO lake.gate.t VALUES (1)')).toBe('no error');
    expect((await tableState(lake.dir, 'gate.t')).rows).toEqual([[1]]);
  });

  test('alice may load but not write: the commit is refused 403 and nothing changes', async () => {
    const { conn, session } = await sessionFor('alice');
    expect(await rows(conn, 'SELECT count(*) FROM lake.gate.t')).toEqual([[1n]]);
    const failure = await failureOf(conn, 'INSERT INTO lake.gate.t VALUES (2)');
    expect(failure).toMatch(/403|Forbidden/);
    expect(session.takeEvents().find((e) => e.kind === 'commit-failed')).toMatchObject({ status: 403, type: 'ForbiddenException', conflict: false });
    expect((await tableState(lake.dir, 'gate.t')).rows).toEqual([[1]]);
    // Nor may she create tables (table-create) or schemas.
    expect(await failureOf(conn, 'CREATE TABLE lake.gate.mine (n INTEGER)')).toMatch(/403|Forbidden/);
  });

  test('dave cannot load the table: his write is told it does not exist, word for word as for a missing table', async () => {
    const { conn } = await sessionFor('dave');
    const denied = await failureOf(conn, 'INSERT INTO lake.gate.t VALUES (3)');
    const missing = await failureOf(conn, 'INSERT INTO lake.gate.nosuch VALUES (3)');
    // DuckDB's own "Did you mean …" hint names other attached catalogs' tables: the SQL side drops it.
    const firstLine = (m: string) => m.split('\n')[0]!;
    expect(firstLine(denied)).toBe('Catalog Error: Table with name t does not exist!');
    expect(firstLine(denied).replace(/\bt\b/g, 'X')).toBe(firstLine(missing).replace(/\bnosuch\b/g, 'X'));
    expect((await tableState(lake.dir, 'gate.t')).rows).toEqual([[1]]);
  });

  test("the session's own gate: hide answers 404, forbid 403, before the catalog is asked", async () => {
    const asked: string[] = [];
    const { conn } = await sessionFor('carol', {
      authorize: (op) => {
        asked.push(`${op.operation} ${[...op.namespace, op.name ?? ''].join('.')}`);
        if (op.name === 't') return 'hide';
        if (op.operation === 'CREATE_TABLE_STAGED') return 'forbid';
        return 'allow';
      },
    });
    expect(await failureOf(conn, 'INSERT INTO lake.gate.t VALUES (4)')).toMatch(/does not exist/);
    expect(await failureOf(conn, 'CREATE TABLE lake.gate.other (n INTEGER)')).toMatch(/403|Forbidden/);
    expect(asked).toEqual(expect.arrayContaining(['LOAD_TABLE gate.t', 'CREATE_TABLE_STAGED gate.other']));
    expect((await tableState(lake.dir, 'gate.t')).rows).toEqual([[1]]);
  });
});

describe('the endpoint itself', () => {
  test('an unknown secret and a closed session are 404 without a body; a body over the bound is 413', async () => {
    const session = endpoint.open({ user: 'carol' });
    const ok = await fetch(`${session.url}/v1/config?warehouse=x`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ overrides: { 'namespace-separator': '%1F' } });
    const base = session.url.slice(0, session.url.lastIndexOf('/'));
    const unknown = await fetch(`${base}/not-a-secret/v1/config`);
    expect([unknown.status, await unknown.text()]).toEqual([404, '']);
    const big = await fetch(`${session.url}/v1/namespaces`, { method: 'POST', body: 'x'.repeat(9 << 20), headers: { 'content-type': 'application/json' } });
    expect(big.status).toBe(413);
    await session.close();
    const after = await fetch(`${session.url}/v1/config`);
    expect([after.status, await after.text()]).toEqual([404, '']);
  });

  test('errors carry the catalog\'s type and message, never the endpoint\'s address; an unknown update is 400', async () => {
    const session = endpoint.open({ user: 'carol' });
    const missing = await fetch(`${session.url}/v1/namespaces/gate/tables/nosuch`);
    const text = await missing.text();
    expect(missing.status).toBe(404);
    expect(JSON.parse(text)).toEqual({ error: { message: 'Table does not exist: gate.nosuch', type: 'NoSuchTableException', code: 404 } });
    const loaded = (await (await fetch(`${session.url}/v1/namespaces/gate/tables/t`)).json()) as { metadata: { 'table-uuid': string } };
    const bad = await fetch(`${session.url}/v1/namespaces/gate/tables/t`, {
      method: 'POST',
      body: JSON.stringify({ requirements: [{ type: 'assert-table-uuid', uuid: loaded.metadata['table-uuid'] }], updates: [{ action: 'make-it-so' }] }),
    });
    const badText = await bad.text();
    expect(bad.status).toBe(400);
    expect(badText).not.toContain(session.url.split('/').pop()!);
    expect(JSON.parse(badText).error.type).toBe('BadRequestException');
    await session.close();
  });
});
