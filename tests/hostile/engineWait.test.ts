/**
 * Waiting for an engine is part of the statement: a user's first statement
 * while no engine process is ready waits for one to start, and that wait
 * obeys statement_timeout like every other phase (it used to end only when
 * the engine was up, however short the timeout). No spare engines here, so
 * every user's first statement starts a process.
 */
import { startServe, type ServedGateway } from '../support/lakegateServe.js';
import { connected, failure } from './support.js';

let g: ServedGateway;

beforeAll(async () => {
  g = await startServe({ engine: { threads: 1, memoryLimit: '512MB', spareProcesses: 0 } });
}, 90000);

afterAll(async () => {
  await g?.stop();
});

test("statement_timeout ends the wait for the user's engine; the engine still comes and serves the next statement", async () => {
  // the engine the gateway started with goes to the first user
  const carol = await connected(g, 'carol');
  await carol.query('select 1');
  // control: how long a first statement waits for its engine to start (bob, no timeout)
  const bob = await connected(g, 'bob');
  const t0 = Date.now();
  await bob.query('select 1');
  const start = Date.now() - t0;
  expect(start).toBeGreaterThan(300);

  const alice = await connected(g, 'alice');
  await alice.query('set statement_timeout = 100');
  const t1 = Date.now();
  const e = await failure(alice, 'select 1');
  const waited = Date.now() - t1;
  expect([e.code, e.message]).toEqual(['57014', 'canceling statement due to statement timeout']);
  expect(waited).toBeLessThan(start / 2 + 100);
  // the connection arrives and is kept: the session goes on
  await alice.query('set statement_timeout = 0');
  expect((await alice.query('select 41 + 1 as n')).rows).toEqual([{ n: 42 }]);
  await Promise.all([alice.end(), bob.end(), carol.end()]);
}, 60000);
