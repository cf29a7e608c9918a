/**
 * Resource caps with clear errors (issue 11): prepared statements and
 * portals per session, logins in progress per client address, result
 * columns, UNION chains, nesting and function arguments. Where PostgreSQL
 * has the same limit, lakegate's SQLSTATE and text are compared with the real
 * PostgreSQL the test starts; where lakegate is stricter (statement nesting,
 * per-session caps), the README says so and the error says which limit.
 */
import net from 'node:net';
import pg from 'pg';
import type { ServedGateway } from '../support/lakegateServe.js';
import { RawConn, fe, parseError, type BackendMessage } from '../support/wire.js';
import { expectClean, failure, ping, sleep, startPair, type Pair } from './support.js';

let pair: Pair;
let g: ServedGateway;
let theirs: pg.Client;
let ours: pg.Client;
const raws: RawConn[] = [];

beforeAll(async () => {
  pair = await startPair({
    maxConnections: 20,
    limits: { maxPreparedStatements: 50, maxPortals: 50, maxPendingLoginsPerAddress: 8 },
  });
  ({ g, theirs, ours } = pair);
}, 120000);

afterAll(async () => {
  for (const r of raws) r.close();
  await pair?.stop();
});

async function raw(): Promise<RawConn> {
  const c = await RawConn.connect(g.host, g.port);
  raws.push(c);
  await c.startup('alice', 'demo', 'alice');
  return c;
}

const errorOf = (ms: BackendMessage[]) => {
  const e = ms.find((m) => m.type === 'E');
  return e ? parseError(e.body) : undefined;
};

describe('PostgreSQL’s own limits, answered as PostgreSQL answers them', () => {
  const same = async (sql: string) => {
    const a = await failure(theirs, sql);
    const b = await failure(ours, sql);
    expect({ code: b.code, message: b.message }).toEqual({ code: a.code, message: a.message });
    expectClean(b);
    return b;
  };
  const columns = (n: number) => Array.from({ length: n }, (_, i) => `${i} as c${i}`).join(', ');

  test('1,665 result columns → 54011 target lists can have at most 1664 entries', async () => {
    const e = await same(`select ${columns(1665)}`);
    expect(e.code).toBe('54011');
    // control: 1,664 columns are fine in both
    expect((await ours.query(`select ${columns(1664)}`)).fields).toHaveLength(1664);
  });

  test('* expanding past 1,664 columns → 54011 (before: ≥ 32,768 columns broke the stream)', async () => {
    const half = `(select ${columns(900)})`;
    await same(`select * from ${half} a, ${half} b`);
  });

  test('ARRAY[ nested 600 deep (4.6 s and 1.2 GB before) → 54000 array dimensions', async () => {
    await same(`select ${'array['.repeat(600)}1${']'.repeat(600)}`);
  });

  test('101 function arguments → 54023', async () => {
    await same(`select concat(${Array(101).fill('1').join(',')})`);
  });

  test('10,000 UNION ALL arms and 20,000 terms of 1+1+… (a JavaScript stack overflow reported as 42601 before) → 54001 stack depth limit exceeded', async () => {
    await same(`select count(*) from (${Array(10000).fill('select 1').join(' union all ')}) s`);
    await same(`select ${Array(20000).fill('1').join('+')}`);
  });

  test('10,000 nested parentheses → the parser’s own 42601', async () => {
    await same(`select ${'('.repeat(10000)}1${')'.repeat(10000)}`);
  });

  test('lakegate is stricter on nesting (README, Limits): 3,000 UNION ALL arms → 54001 with a hint naming the limit, not XX000', async () => {
    const e = await failure(ours, `select count(*) from (${Array(3000).fill('select 1').join(' union all ')}) s`);
    expect(e).toMatchObject({ code: '54001', message: 'stack depth limit exceeded' });
    expect(e.hint).toMatch(/limits\.maxStatementDepth/);
    // control: 200 arms are answered
    const ok = await ours.query(`select count(*)::int as n from (${Array(200).fill('select 1').join(' union all ')}) s`);
    expect(ok.rows).toEqual([{ n: 200 }]);
  });
});

describe('per-session caps', () => {
  test('named prepared statements: the 51st Parse → 54000 (20,000 Parses grew memory by 212 MB before); Close frees a slot', async () => {
    const c = await raw();
    for (let i = 0; i < 50; i++) c.send(fe.parse(`s${i}`, 'select 1'));
    c.send(fe.sync());
    const ok = await c.untilReady();
    expect(ok.filter((m) => m.type === '1')).toHaveLength(50);
    c.send(fe.parse('s50', 'select 1'));
    c.send(fe.sync());
    const refused = errorOf(await c.untilReady());
    expect(refused).toMatchObject({ code: '54000', message: 'too many prepared statements (at most 50 per session)' });
    // the unnamed statement is not counted, and closing one makes room
    c.send(fe.parse('', 'select 2'));
    c.send(fe.close('S', 's0'));
    c.send(fe.parse('s50', 'select 3'));
    c.send(fe.sync());
    const after = await c.untilReady();
    expect(errorOf(after)).toBeUndefined();
    expect(after.filter((m) => m.type === '1')).toHaveLength(2);
  });

  test('portals: the 51st named portal in a transaction → 54000', async () => {
    const c = await raw();
    await c.simple('begin');
    c.send(fe.parse('', 'select 1'));
    for (let i = 0; i < 50; i++) c.send(fe.bind(`p${i}`, '', []));
    c.send(fe.sync());
    const ok = await c.untilReady();
    expect(errorOf(ok)).toBeUndefined();
    c.send(fe.bind('p50', '', []));
    c.send(fe.sync());
    expect(errorOf(await c.untilReady())).toMatchObject({ code: '54000', message: 'too many portals (at most 50 per session)' });
    await c.simple('rollback');
  });
});

describe('logins in progress per client address', () => {
  test('40 idle sockets from one address (before: they filled every slot) → the 9th on is refused with 53300; another address still logs in', async () => {
    const idle: net.Socket[] = [];
    const answers: Promise<string>[] = [];
    for (let i = 0; i < 40; i++) {
      const s = net.connect({ host: g.host, port: g.port, localAddress: '127.0.0.3' });
      s.on('error', () => undefined);
      idle.push(s);
      answers.push(
        new Promise((resolve) => {
          let got = '';
          s.on('data', (d) => (got += d.toString('latin1')));
          s.on('close', () => resolve(got));
          setTimeout(() => resolve(got), 3000);
        }),
      );
      await new Promise((r) => s.once('connect', r));
    }
    await sleep(300);
    // node-postgres has no local-address option: its socket connects from 127.0.0.2
    const stream = new net.Socket();
    const connect = stream.connect.bind(stream) as (o: net.TcpSocketConnectOpts) => net.Socket;
    (stream as unknown as { connect: (port: number, host: string) => net.Socket }).connect = (port, host) => connect({ port, host, localAddress: '127.0.0.2' });
    const other = new pg.Client({ host: g.host, port: g.port, user: 'bob', password: 'bob', database: 'demo', stream: () => stream });
    const t = performance.now();
    await other.connect();
    expect(performance.now() - t).toBeLessThan(3000);
    expect(await ping(other)).toBeLessThan(5000);
    await other.end();
    const got = await Promise.all(answers);
    const refused = got.filter((a) => a.startsWith('E') && a.includes('53300') && a.includes('sorry, too many clients already'));
    expect(refused).toHaveLength(32);
    for (const s of idle) s.destroy();
  }, 30000);
});
