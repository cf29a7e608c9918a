/**
 * An engine crash is not a gateway crash (issue 18, item 2). DuckDB can abort
 * the process it runs in (docs/duckdb-oom-abort.md); the engine runs in
 * processes of its own, one per user, so an abort costs only the statements
 * that engine was running: their sessions end with PostgreSQL's 57P02 and can
 * reconnect, while the gateway, its listener and every other session go on.
 * The crash is made deterministic here: SIGABRT, what std::terminate raises.
 */
import { startServe, type ServedGateway } from '../support/lakegateServe.js';
import { connected, expectClean, failure, ping, sleep } from './support.js';

/** The engine process the gateway gave `user` (its log line `engine-assigned`). */
function enginePidOf(g: ServedGateway, user: string): number {
  const lines = g.output().split('\n').filter((l) => l.includes('"engine-assigned"') && l.includes(`"user":"${user}"`));
  const last = lines.at(-1);
  if (!last) throw new Error(`no engine was assigned to ${user}:\n${g.output().slice(-2000)}`);
  return (JSON.parse(last) as { enginePid: number }).enginePid;
}

const RUNS_FOREVER = 'select count(*) from generate_series(1, 10000000000000)';

describe('one engine process per user', () => {
  let g: ServedGateway;
  beforeAll(async () => {
    g = await startServe({ engine: { threads: 2, memoryLimit: '1GB' } });
  }, 90000);
  afterAll(async () => {
    await g?.stop();
  });

  test("dave's engine aborts mid-statement: dave gets FATAL 57P02, alice's sessions keep answering, logins go on, dave reconnects", async () => {
    const alice = await connected(g, 'alice');
    const aliceIdle = await connected(g, 'alice');
    expect((await alice.query('select id from sales.orders order by id')).rows).toEqual([{ id: 1 }, { id: 2 }]);
    await aliceIdle.query('select 1');
    const dave = await connected(g, 'dave');
    await dave.query('select 1');
    const davesEngine = enginePidOf(g, 'dave');
    expect(davesEngine).not.toBe(enginePidOf(g, 'alice'));
    expect(g.enginePids()).toContain(davesEngine);

    const running = failure(dave, RUNS_FOREVER);
    const bystander = (async () => {
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        times.push(await ping(alice));
        await sleep(50);
      }
      return times;
    })();
    await sleep(400);
    process.kill(davesEngine, 'SIGABRT');

    const err = await running;
    expect(err).toMatchObject({ code: '57P02', severity: 'FATAL', message: 'terminating connection because the query engine stopped unexpectedly' });
    expect(err.hint).toBe('In a moment you should be able to reconnect to the database and repeat your command.');
    expectClean(err);
    // alice never noticed: every ping answered, her idle session and her rows are as before
    expect((await bystander).every((t) => t < 5000)).toBe(true);
    expect((await aliceIdle.query('select id from sales.orders order by id')).rows).toEqual([{ id: 1 }, { id: 2 }]);
    // the listener still takes logins, and dave gets a new engine
    const again = await connected(g, 'dave');
    expect(await ping(again)).toBeLessThan(10000);
    expect(enginePidOf(g, 'dave')).not.toBe(davesEngine);
    expect(g.alive()).toBe(true);
    expect(g.output()).toContain('engine process died');
    await Promise.all([alice.end(), aliceIdle.end(), again.end()]);
  }, 60000);
});

describe('an engine shared by two users (engine.maxProcesses 1)', () => {
  let g: ServedGateway;
  beforeAll(async () => {
    g = await startServe({ engine: { threads: 2, memoryLimit: '1GB', maxProcesses: 1, spareProcesses: 0 } });
  }, 90000);
  afterAll(async () => {
    await g?.stop();
  });

  test('after a crash, a session that kept nothing in the engine goes on; one whose cursor lived there is told at its next statement', async () => {
    const alice = await connected(g, 'alice');
    const bob = await connected(g, 'bob');
    await alice.query('select 1');
    await bob.query('select 1');
    const shared = enginePidOf(g, 'alice');
    expect(enginePidOf(g, 'bob')).toBe(shared);
    // bob's open cursor lives in the engine
    await bob.query('begin');
    await bob.query('declare c cursor for select i from generate_series(1, 10) as g(i)');
    expect((await bob.query('fetch 2 from c')).rows).toEqual([{ i: 1 }, { i: 2 }]);

    process.kill(shared, 'SIGABRT');
    await sleep(500);

    // control first: alice had nothing there but prepared forms; her next statement simply runs on a new engine
    expect((await alice.query('select id from sales.orders order by id')).rows).toEqual([{ id: 1 }, { id: 2 }]);
    const err = await failure(bob, 'fetch 2 from c');
    expect(err).toMatchObject({ code: '57P02', severity: 'FATAL' });
    expectClean(err);
    const bobAgain = await connected(g, 'bob');
    expect(await ping(bobAgain)).toBeLessThan(10000);
    await Promise.all([alice.end(), bobAgain.end()]);
  }, 60000);
});
