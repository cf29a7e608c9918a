/**
 * Per-user limits (issue 18, item 6): one user's idle sessions cannot take
 * every connection slot (maxConnectionsPerUser, PostgreSQL's per-role
 * CONNECTION LIMIT), the last slots are kept for administrators
 * (reservedConnections, as superuser_reserved_connections), and one user's
 * running statements are bounded (maxStatementsPerUser): a statement beyond
 * waits its turn, and statement_timeout and CancelRequest stop it while it
 * waits. Each refusal has its control: the same user below the limit, another
 * user, an administrator. The texts are PostgreSQL 16's (postinit.c).
 */
import net from 'node:net';
import pg from 'pg';
import { connect, LONG_QUERY, rejection, sleep } from '../support/clients.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';

const open: pg.Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.end().catch(() => undefined)));
});

function login(gw: InProcessGateway, user: string): Promise<pg.Client> {
  return connect({ host: '127.0.0.1', port: gw.server.port }, { user, password: user }).then((c) => {
    open.push(c);
    return c;
  });
}

/** PostgreSQL's CancelRequest for a client's backend, on a connection of its own. */
function cancelRequest(gw: InProcessGateway, c: pg.Client): Promise<void> {
  const { processID, secretKey } = c as unknown as { processID: number; secretKey: number };
  const msg = Buffer.alloc(16);
  msg.writeInt32BE(16, 0);
  msg.writeInt32BE(80877102, 4);
  msg.writeInt32BE(processID, 8);
  msg.writeInt32BE(secretKey, 12);
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: '127.0.0.1', port: gw.server.port }, () => s.end(msg));
    s.on('close', () => resolve());
    s.on('error', reject);
  });
}

describe('with the default limits (200 connections, 50 per user, 3 reserved)', () => {
  let gw: InProcessGateway;
  beforeAll(async () => {
    gw = await startInProcess(() => ({}));
  }, 120_000);
  afterAll(async () => {
    await gw?.stop();
  });

  test('dave (no roles) asking for 200 idle sessions gets 50; alice and carol still log in (everyone got 53300 before)', async () => {
    const refusals: string[] = [];
    for (let i = 0; i < 200; i++) {
      try {
        await login(gw, 'dave');
      } catch (e) {
        refusals.push(`${(e as { code?: string }).code} ${(e as Error).message}`);
      }
    }
    // control: below the cap every login of dave's went through
    expect(open).toHaveLength(50);
    expect(new Set(refusals)).toEqual(new Set(['53300 too many connections for role "dave"']));
    expect(refusals).toHaveLength(150);
    const alice = await login(gw, 'alice');
    expect((await alice.query('select current_user as u')).rows).toEqual([{ u: 'alice' }]);
    const carol = await login(gw, 'carol');
    expect((await carol.query('select count(*)::int as n from sales.orders')).rows).toEqual([{ n: 2 }]);
    // one of dave's sessions ends: he may open one again
    await open.shift()!.end();
    let again: pg.Client | null = null;
    for (let i = 0; i < 50 && !again; i++) again = await login(gw, 'dave').catch(async () => (await sleep(20), null));
    expect(again).not.toBeNull();
  }, 120_000);
});

describe('a small server: 6 connections, 3 per user, 2 reserved; 2 running statements per user', () => {
  let gw: InProcessGateway;
  beforeAll(async () => {
    gw = await startInProcess(() => ({
      maxConnections: 6,
      maxConnectionsPerUser: 3,
      reservedConnections: 2,
      maxStatementsPerUser: 2,
      engine: { threads: 1, maxTempDirectorySize: '10GiB' },
    }));
  }, 120_000);
  afterAll(async () => {
    await gw?.stop();
  });

  test('the reserved slots: once only 2 are free, erin is refused naming the admin role; carol (sqe_admin) gets in until the server is full', async () => {
    for (let i = 0; i < 3; i++) await login(gw, 'alice');
    // alice's own limit, with PostgreSQL's text
    expect(await rejection(login(gw, 'alice'))).toMatchObject({ code: '53300', message: 'too many connections for role "alice"' });
    await login(gw, 'bob');
    const refused = await rejection(login(gw, 'erin'));
    expect(refused).toMatchObject({ code: '53300', message: 'remaining connection slots are reserved for roles with privileges of the "sqe_admin" role' });
    // the administrator takes the reserved slots …
    const carol = await login(gw, 'carol');
    expect((await carol.query('select current_user as u')).rows).toEqual([{ u: 'carol' }]);
    await login(gw, 'carol');
    // … until there is none left, for anyone
    expect(await rejection(login(gw, 'carol'))).toMatchObject({ code: '53300', message: 'sorry, too many clients already' });
    // control: with three sessions gone erin is below the reserved slots again
    for (const c of open.splice(0, 3)) await c.end();
    let erin: pg.Client | null = null;
    for (let i = 0; i < 50 && !erin; i++) erin = await login(gw, 'erin').catch(async () => (await sleep(20), null));
    expect(erin).not.toBeNull();
  }, 60_000);

  test("a third running statement of alice's waits its turn: statement_timeout and CancelRequest stop it while it waits; bob is not held up", async () => {
    const [a1, a2, a3, a4] = [await login(gw, 'alice'), await login(gw, 'alice'), await login(gw, 'alice'), await login(gw, 'bob')];
    // every user's engine process started first: what is measured below is the statement slots, not an engine's start
    await Promise.all([a1, a4].map((c) => c.query('select 1')));
    // two long statements take alice's two slots (statement_timeout ends them should anything go wrong)
    const long = [a1, a2].map(async (c) => {
      await c.query("set statement_timeout = '20s'");
      return c.query(LONG_QUERY).then(
        () => 'finished',
        (e: { code?: string; message: string }) => `${e.code} ${e.message}`,
      );
    });
    await sleep(1000);
    // bob, another user: answered at once
    const t = performance.now();
    expect((await a4.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    expect(performance.now() - t).toBeLessThan(5000);
    // alice's third statement waits, and statement_timeout stops the wait (it ran at once before)
    await a3.query("set statement_timeout = '700ms'");
    const timedOut = await rejection(a3.query('select 1 as one'));
    expect(timedOut).toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' });
    // a CancelRequest stops the wait too
    await a3.query('set statement_timeout = 0');
    const waiting = rejection(a3.query('select 1 as one'));
    await sleep(500);
    await cancelRequest(gw, a3);
    expect(await waiting).toMatchObject({ code: '57014', message: 'canceling statement due to user request' });
    // once one of the two ends, the waiting statement runs
    const queued = a3.query('select 2 as two').then((r) => ({ rows: r.rows, at: performance.now() }));
    await sleep(500);
    const canceledAt = performance.now();
    await cancelRequest(gw, a1);
    const { rows, at } = await queued;
    expect(rows).toEqual([{ two: 2 }]);
    expect(at).toBeGreaterThan(canceledAt);
    await cancelRequest(gw, a2);
    expect(await Promise.all(long)).toEqual(['57014 canceling statement due to user request', '57014 canceling statement due to user request']);
    // the slots are all back: alice's sessions answer at once
    expect((await a1.query('select 3 as three')).rows).toEqual([{ three: 3 }]);
  }, 60_000);
});
