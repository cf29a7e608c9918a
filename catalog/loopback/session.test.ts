/**
 * The endpoint's session logic against a scripted catalog (no DuckDB): a
 * commit whose outcome is unknown (the catalog unreachable) is decided by
 * reloading the table — answered as committed when main moved to the new
 * snapshot, as failed (and cleaned up) when it did not, left alone when the
 * reload fails too; a multi-table commit to a catalog without atomic commits
 * goes table by table and is 500 once a later table fails; routes read
 * nested namespaces joined by 0x1F and refuse a commit naming another table.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogError, catalogErrors, type CommittedTable, type JsonObject, type LoadedTable, type WritableCatalog } from '../iceberg/api.js';
import { route } from './routes.js';
import { LoopbackSession, type LoopbackEvent } from './session.js';

const dir = mkdtempSync(join(tmpdir(), 'lakegate-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SNAP = 5975505386850305528n;

function loaded(main: bigint | null): LoadedTable {
  const raw: JsonObject = { 'format-version': 2, 'table-uuid': 'u', location: join(dir, 't'), refs: main === null ? {} : { main: { 'snapshot-id': main, type: 'branch' } } };
  return {
    metadataLocation: join(dir, 't', 'metadata', '00001.metadata.json'),
    metadata: { 'format-version': 2, location: join(dir, 't'), properties: {}, snapshots: [], refs: main === null ? {} : { main: { 'snapshot-id': main, type: 'branch' } }, 'snapshot-log': [] },
    credentials: [],
    raw,
  };
}

/** A catalog whose commits and loads answer from the scripts given. */
function scripted(opts: { commit: () => Promise<CommittedTable>; load: () => Promise<LoadedTable> }): WritableCatalog {
  const no = () => Promise.reject(new Error('not scripted'));
  return {
    storageRoots: [],
    close: () => undefined,
    listNamespaces: no,
    loadNamespace: no,
    listTables: no,
    listViews: no,
    loadView: no,
    loadTable: () => opts.load(),
    createNamespace: no,
    dropNamespace: no,
    createTable: no,
    commitTable: () => opts.commit(),
    renameTable: no,
    dropTable: no,
    createView: no,
    replaceView: no,
    renameView: no,
    dropView: no,
  };
}

const append = {
  requirements: [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': null }],
  updates: [
    { action: 'add-snapshot', snapshot: { 'snapshot-id': SNAP, 'timestamp-ms': 1, 'manifest-list': join(dir, 't', 'metadata', 'snap-1.avro'), summary: { operation: 'append', 'added-records': '2' } } },
    { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': SNAP },
  ],
};
const commitRoute = route('POST', ['v1', 'namespaces', 's', 'tables', 't'], new URLSearchParams(), append);
const unreachable = () => Promise.reject(new CatalogError('unavailable', 'catalog request failed: HTTP 503', 503));

async function outcome(session: LoopbackSession): Promise<{ status: number } | CatalogError> {
  try {
    return await session.handle(commitRoute);
  } catch (e) {
    return e as CatalogError;
  }
}

test('an unknown outcome, and main is at the new snapshot: the commit is answered as done', async () => {
  const events: LoopbackEvent[] = [];
  const session = new LoopbackSession(scripted({ commit: unreachable, load: async () => loaded(SNAP) }), { user: 'carol' }, { onEvent: (e) => events.push(e) });
  expect(await outcome(session)).toMatchObject({ status: 200 });
  expect(events).toEqual([expect.objectContaining({ kind: 'table-committed', snapshots: [expect.objectContaining({ snapshotId: SNAP, addedRecords: 2n })] })]);
});

test('an unknown outcome, and main is elsewhere: the commit failed, and its manifest list is removed', async () => {
  mkdirSync(join(dir, 't', 'metadata'), { recursive: true });
  const list = join(dir, 't', 'metadata', 'snap-1.avro');
  writeFileSync(list, 'not avro: its manifests cannot be read, the list itself goes');
  const events: LoopbackEvent[] = [];
  const session = new LoopbackSession(scripted({ commit: unreachable, load: async () => loaded(12n) }), { user: 'carol' }, { onEvent: (e) => events.push(e) });
  // The table was loaded before (DuckDB always does): the session knows its location.
  await session.handle(route('GET', ['v1', 'namespaces', 's', 'tables', 't'], new URLSearchParams(), undefined));
  expect(await outcome(session)).toMatchObject({ status: 503 });
  expect(events.at(-1)).toMatchObject({ kind: 'commit-failed', status: 503, conflict: false, removedFiles: 1 });
  expect(existsSync(list)).toBe(false);
});

test('an unknown outcome that a reload cannot decide: answered as unknown, nothing removed', async () => {
  const list = join(dir, 't', 'metadata', 'snap-1.avro');
  mkdirSync(join(dir, 't', 'metadata'), { recursive: true });
  writeFileSync(list, 'kept');
  let loads = 0;
  const session = new LoopbackSession(
    scripted({
      commit: unreachable,
      load: async () => {
        if (loads++ === 0) return loaded(12n);
        throw new CatalogError('unavailable', 'down', 503);
      },
    }),
    { user: 'carol' },
    {},
  );
  await session.handle(route('GET', ['v1', 'namespaces', 's', 'tables', 't'], new URLSearchParams(), undefined));
  expect(await outcome(session)).toMatchObject({ status: 503 });
  expect(existsSync(list)).toBe(true);
});

test('a multi-table commit to a catalog without atomic commits: table by table, 500 CommitStateUnknown once a later one fails', async () => {
  let n = 0;
  const session = new LoopbackSession(
    scripted({
      commit: async () => {
        if (n++ === 0) return { metadataLocation: 'm1', metadata: { location: join(dir, 'a') } };
        throw catalogErrors.commitFailed('Requirement failed: branch main has changed');
      },
      load: async () => loaded(null),
    }),
    { user: 'carol' },
    {},
  );
  const change = (name: string) => ({ identifier: { namespace: ['s'], name }, ...append });
  const r = route('POST', ['v1', 'transactions', 'commit'], new URLSearchParams(), { 'table-changes': [change('a'), change('b')] });
  await expect(session.handle(r)).rejects.toMatchObject({ status: 500, type: 'CommitStateUnknownException' });
});

test('routes: nested namespaces by 0x1F, a commit naming another table than its path is 400, unknown routes 404', () => {
  expect(route('GET', ['v1', 'namespaces', 'a\x1fb', 'tables', 't'], new URLSearchParams(), undefined)).toEqual({
    kind: 'load-table',
    table: { namespace: ['a', 'b'], name: 't' },
    head: false,
  });
  expect(route('GET', ['v1', 'namespaces'], new URLSearchParams('parent=a%1Fb'), undefined)).toEqual({ kind: 'list-namespaces', parent: ['a', 'b'] });
  const other = { identifier: { namespace: ['s'], name: 'other' }, requirements: [], updates: [] };
  expect(() => route('POST', ['v1', 'namespaces', 's', 'tables', 't'], new URLSearchParams(), other)).toThrow(expect.objectContaining({ status: 400 }));
  expect(() => route('POST', ['v1', 'namespaces', 's', 'properties'], new URLSearchParams(), {})).toThrow(expect.objectContaining({ status: 404 }));
  expect(() => route('GET', ['v2', 'config'], new URLSearchParams(), undefined)).toThrow(expect.objectContaining({ status: 404 }));
  expect(() => route('GET', ['v1', 'namespaces', 'a\x1f', 'tables'], new URLSearchParams(), undefined)).toThrow(expect.objectContaining({ status: 400 }));
});
