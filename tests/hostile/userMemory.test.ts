/**
 * Memory is bounded per user, not only per engine (issue 18, item 3): a
 * constant-folded 1 GB string is not DuckDB's to account for, so four of them
 * at once once pushed a 4 GiB engine to 6.7 GB, and other users' queries
 * failed with 53200 under the pressure. Each user's statements now run in an
 * engine process of their own, whose resident memory the gateway watches:
 * past the user's bound they are stopped (53200), and every other user goes
 * on as if nothing happened.
 */
import { startServe, type ServedGateway } from '../support/lakegateServe.js';
import { connected, expectClean, failure, ping, sleep } from './support.js';

const MB = 1024 * 1024;
const HUGE = "select length(repeat('x', 999999999)) as n";

describe("one user's memory is that user's problem", () => {
  let g: ServedGateway;
  let peak = 0;
  let sampler: NodeJS.Timeout;

  beforeAll(async () => {
    g = await startServe({ engine: { threads: 2, memoryLimit: '1GB', userMemoryLimit: '256MB', watchIntervalMs: 100 } });
    sampler = setInterval(() => {
      try {
        peak = Math.max(peak, g.rssBytes());
      } catch {
        // gone; the tests say so
      }
    }, 20);
  }, 90000);

  afterAll(async () => {
    clearInterval(sampler);
    await g?.stop();
  });

  test('control: a large string within the bound is answered', async () => {
    const c = await connected(g, 'dave');
    expect((await c.query("select length(repeat('x', 50000000))::int as n")).rows).toEqual([{ n: 50_000_000 }]);
    await c.end();
  });

  test("four 1 GB strings at once: dave's statements stop with 53200, resident memory stays far below four of them, alice never fails", async () => {
    const alice = await connected(g, 'alice');
    await alice.query('select count(*) from sales.orders');
    const daves = await Promise.all([1, 2, 3, 4].map(() => connected(g, 'dave')));
    await Promise.all(daves.map((d) => d.query('select 1')));
    peak = 0;
    let stop = false;
    const aliceErrors: string[] = [];
    const bystander = (async () => {
      let answered = 0;
      while (!stop) {
        try {
          const r = await alice.query('select id from sales.orders order by id');
          if (r.rows.length !== 2) aliceErrors.push('wrong rows');
          await ping(alice);
          answered++;
        } catch (e) {
          aliceErrors.push((e as { code?: string }).code ?? String(e));
        }
        await sleep(20);
      }
      return answered;
    })();
    const results = await Promise.all(daves.map((d) => failure(d, HUGE).catch((e: Error) => ({ code: 'answered', message: e.message }))));
    stop = true;
    const answered = await bystander;
    for (const r of results) {
      expect(r).toMatchObject({ code: '53200', message: 'out of memory' });
      expectClean(r as never);
    }
    // four strings would be 4 GB; the user's bound is 256 MB of DuckDB plus the process around it
    expect(Math.round(peak / MB)).toBeLessThan(2600);
    expect(aliceErrors).toEqual([]);
    expect(answered).toBeGreaterThan(0);
    // dave's sessions are still there, and answer once his statements are within bounds
    for (const d of daves) expect(await ping(d)).toBeLessThan(10000);
    await Promise.all([alice.end(), ...daves.map((d) => d.end())]);
  }, 120000);
});
