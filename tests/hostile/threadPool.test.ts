/**
 * Whichever way the gateway is started (issue 18, item 4): `node
 * dist/bin/lakegate.js`, as the container does, used to leave libuv's thread
 * pool at four threads, so four long statements held every thread and every
 * other session's `select 1` waited 13–30 s. DuckDB now runs in engine
 * processes the gateway starts with a pool sized for its sessions, so neither
 * another user nor the same user's fifth session waits.
 */
import { startServe, type ServedGateway } from '../support/lakegateServe.js';
import { connected, failure, percentile, ping, sleep } from './support.js';

// a predicate over every pair (no join key, nothing to fold): runs for minutes
const LONG_CROSS_JOIN = 'select count(*) from generate_series(1, 200000) a(i), generate_series(1, 200000) b(j) where (i * 7 + j) % 1000003 = 12345';

describe('started as `node dist/bin/lakegate.js serve`', () => {
  let g: ServedGateway;
  beforeAll(async () => {
    g = await startServe({ engine: { threads: 2, memoryLimit: '1GB' } }, { entry: 'js' });
  }, 90000);
  afterAll(async () => {
    await g?.stop();
  });

  test("four sessions in long cross joins stall neither another user's select 1 nor the same user's fifth session", async () => {
    const alice = await connected(g, 'alice');
    const daveFifth = await connected(g, 'dave');
    await alice.query('select 1');
    await daveFifth.query('select 1');
    const busy = await Promise.all([1, 2, 3, 4].map(() => connected(g, 'dave')));
    await Promise.all(busy.map((b) => b.query("set statement_timeout = '20s'")));
    const running = busy.map((b) => failure(b, LONG_CROSS_JOIN));
    await sleep(1000);
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      times.push(await ping(alice));
      times.push(await ping(daveFifth));
      await sleep(50);
    }
    expect(Math.round(percentile(times, 0.99))).toBeLessThan(2000);
    // the cross joins were still running all along: each ends at its statement_timeout
    for (const r of await Promise.all(running)) expect(r.code).toBe('57014');
    await Promise.all([alice.end(), daveFifth.end(), ...busy.map((b) => b.end())]);
  }, 90000);
});
