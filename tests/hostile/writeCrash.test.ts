/**
 * kill -9 of lakegate in the middle of a write (issue 19): nothing is
 * committed until DuckDB's commit reaches the catalog, so a gateway killed
 * while the engine writes data files leaves the table at its previous
 * snapshot, as pyiceberg reads it; a restarted gateway on the same data dir
 * serves that snapshot.
 */
import { startServe, type ServedGateway } from '../support/lakegateServe.js';
import { tableState } from '../support/writableLake.js';
import { connected, failure, sleep } from './support.js';

let g: ServedGateway | null = null;

afterAll(async () => {
  await g?.stop();
});

test('a gateway killed mid-INSERT leaves the table at its previous snapshot', async () => {
  g = await startServe({ engine: { threads: 2, memoryLimit: '1GB' } });
  const bob = await connected(g, 'bob');
  await bob.query('create schema if not exists analytics');
  await bob.query('create table analytics.crash (id bigint, pad text)');
  await bob.query("insert into analytics.crash values (1, 'before')");
  const state = () => tableState(['--catalog', 'sql', '--warehouse-dir', `${g!.dir}/data`, '--catalog-name', 'demo'], 'analytics.crash');
  const before = await state();
  expect(before.rows).toEqual([[1, 'before']]);
  // long enough to be killed while the engine writes its data files
  const running = failure(bob, "insert into analytics.crash select i, repeat('x', 200) from generate_series(1, 200000000) as s(i)");
  await sleep(1500);
  g.signal('SIGKILL');
  await running.catch(() => undefined);
  await g.exited();
  const after = await state();
  expect(after.currentSnapshotId).toBe(before.currentSnapshotId);
  expect(after.rows).toEqual([[1, 'before']]);
  // the same data dir served again: the previous snapshot, and writes go on
  const dir = g.dir;
  g = await startServe({ engine: { threads: 2, memoryLimit: '1GB' } }, { dir });
  const again = await connected(g, 'bob');
  expect((await again.query('select count(*)::int as n from analytics.crash')).rows).toEqual([{ n: 1 }]);
  await again.query("insert into analytics.crash values (2, 'after')");
  expect((await state()).rows).toEqual([[1, 'before'], [2, 'after']]);
  await again.end();
}, 180_000);
