/**
 * Open cursors (suspended portals) each keep a DuckDB connection, so they are
 * bounded per session. The refusal comes before any row of the portal is
 * written, and the session goes on once a cursor is closed. A SCROLL cursor's
 * spool (server/scrollCursor.ts) is capped in rows (54000) and spills past the
 * engine's memory_limit.
 */
import {
  describe as describeMessage,
  fe,
  parseDataRow,
  parseError,
  parseRowDescription,
  RawConn,
  type BackendMessage,
} from '../support/wire.js';
import { createHash } from 'node:crypto';
import type { Config } from '../../server/config.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';

let gateway: InProcessGateway;
let c: RawConn;

beforeAll(async () => {
  gateway = await startInProcess(() => ({ maxOpenCursorsPerSession: 2 }));
  c = await RawConn.connect('127.0.0.1', gateway.server.port);
  await c.startup('alice', 'demo', 'alice');
}, 60000);

afterAll(async () => {
  c?.close();
  await gateway?.stop();
});

const names = (ms: BackendMessage[]) => ms.map(describeMessage);
const openCursor = (name: string) =>
  Buffer.concat([
    fe.parse('', 'SELECT i FROM generate_series(1, 10) AS g(i) ORDER BY i'),
    fe.bind(name, '', [], [], [0]),
    fe.execute(name, 3),
    fe.sync(),
  ]);

describe('open cursors', () => {
  it('refuses a third suspended portal with 54000 before sending rows, and recovers after Close', async () => {
    await c.simple('BEGIN');
    c.send(openCursor('C_1'));
    expect(names(await c.untilReady())).toContain('PortalSuspended');
    c.send(openCursor('C_2'));
    expect(names(await c.untilReady())).toContain('PortalSuspended');

    c.send(openCursor('C_3'));
    const refused = await c.untilReady();
    expect(refused.some((m) => m.type === 'D')).toBe(false);
    const err = refused.find((m) => m.type === 'E');
    expect(err && parseError(err.body)).toMatchObject({ code: '54000', message: 'too many open cursors (at most 2 per session)' });
    await c.simple('ROLLBACK');

    // ROLLBACK closed C_1 and C_2: cursors can be opened again, and they stream correctly.
    await c.simple('BEGIN');
    c.send(openCursor('C_4'));
    const rows = (await c.untilReady()).filter((m) => m.type === 'D').map((m) => parseDataRow(m.body)[0]!.toString());
    expect(rows).toEqual(['1', '2', '3']);
    c.send(Buffer.concat([fe.execute('C_4', 0), fe.sync()]));
    const rest = (await c.untilReady()).filter((m) => m.type === 'D').map((m) => parseDataRow(m.body)[0]!.toString());
    expect(rest).toEqual(['4', '5', '6', '7', '8', '9', '10']);
    await c.simple('COMMIT');
  });
});

const errorOf = (ms: BackendMessage[]) => {
  const e = ms.find((m) => m.type === 'E');
  return e ? parseError(e.body) : undefined;
};
const texts = (ms: BackendMessage[]) => ms.filter((m) => m.type === 'D').map((m) => parseDataRow(m.body).map((v) => v?.toString() ?? null));
const tagOf = (ms: BackendMessage[]) => ms.filter((m) => m.type === 'C').map((m) => m.body.subarray(0, m.body.length - 1).toString());

describe('SQL cursors (DECLARE) share the cap and the portal namespace', () => {
  it('counts DECLAREd cursors against the open-cursor cap (54000), and CLOSE frees a slot', async () => {
    await c.simple('BEGIN');
    expect(tagOf(await c.simple('DECLARE a CURSOR FOR SELECT 1'))).toEqual(['DECLARE CURSOR']);
    expect(tagOf(await c.simple('DECLARE b CURSOR FOR SELECT 2'))).toEqual(['DECLARE CURSOR']);
    const refused = await c.simple('DECLARE d CURSOR FOR SELECT 3');
    expect(errorOf(refused)).toMatchObject({ code: '54000', message: 'too many open cursors (at most 2 per session)' });
    await c.simple('ROLLBACK');
    await c.simple('BEGIN');
    await c.simple('DECLARE a CURSOR FOR SELECT 1');
    await c.simple('DECLARE b CURSOR FOR SELECT 2');
    await c.simple('CLOSE a');
    expect(tagOf(await c.simple('DECLARE d CURSOR FOR SELECT 3'))).toEqual(['DECLARE CURSOR']);
    expect(texts(await c.simple('FETCH ALL FROM d'))).toEqual([['3']]);
    await c.simple('COMMIT');
    // Non-holdable cursors end with their block.
    expect(errorOf(await c.simple('FETCH 1 FROM b'))).toMatchObject({ code: '34000', message: 'cursor "b" does not exist' });
  });

  it('extended protocol (as psycopg 3 does it): DECLARE with a parameter, Describe of the cursor portal, FETCH with binary results', async () => {
    await c.simple('BEGIN');
    c.send(
      Buffer.concat([
        fe.parse('', 'DECLARE "cur" CURSOR FOR SELECT i::int4 AS i, i::text AS t FROM generate_series(1, 10) AS g(i) WHERE i > $1 ORDER BY i', [23]),
        fe.bind('', '', ['6']),
        fe.describe('P', ''),
        fe.execute('', 0),
        fe.sync(),
      ]),
    );
    const declared = await c.untilReady();
    expect(names(declared)).toEqual(['ParseComplete', 'BindComplete', 'NoData', 'CommandComplete DECLARE CURSOR', 'ReadyForQuery T']);
    c.send(Buffer.concat([fe.describe('P', 'cur'), fe.sync()]));
    const described = await c.untilReady();
    const fields = parseRowDescription(described.find((m) => m.type === 'T')!.body);
    expect(fields.map((f) => [f.name, f.typeOid, f.format])).toEqual([['i', 23, 0], ['t', 25, 0]]);
    c.send(
      Buffer.concat([
        fe.parse('', 'FETCH FORWARD 2 FROM "cur"'),
        fe.bind('', '', [], [], [1]),
        fe.describe('P', ''),
        fe.execute('', 0),
        fe.sync(),
      ]),
    );
    const fetched = await c.untilReady();
    const rd = parseRowDescription(fetched.find((m) => m.type === 'T')!.body);
    expect(rd.map((f) => f.format)).toEqual([1, 1]);
    const rows = fetched.filter((m) => m.type === 'D').map((m) => parseDataRow(m.body));
    expect(rows.map((r) => [r[0]!.readInt32BE(0), r[1]!.toString()])).toEqual([[7, '7'], [8, '8']]);
    expect(tagOf(fetched)).toEqual(['FETCH 2']);
    // The rest in text through a simple query; then the cursor is exhausted.
    expect(texts(await c.simple('FETCH ALL FROM cur'))).toEqual([['9', '9'], ['10', '10']]);
    expect(tagOf(await c.simple('FETCH 5 FROM cur'))).toEqual(['FETCH 0']);
    expect(tagOf(await c.simple('CLOSE cur'))).toEqual(['CLOSE CURSOR']);
    await c.simple('COMMIT');
  });

  it('a BINARY cursor fetched by a simple query sends binary values', async () => {
    await c.simple('BEGIN');
    await c.simple('DECLARE bc BINARY CURSOR FOR SELECT 258::int4 AS n');
    const ms = await c.simple('FETCH 1 FROM bc');
    expect(parseRowDescription(ms.find((m) => m.type === 'T')!.body)[0]!.format).toBe(1);
    expect(parseDataRow(ms.find((m) => m.type === 'D')!.body)[0]!.readInt32BE(0)).toBe(258);
    await c.simple('COMMIT');
  });

  it('a WITH HOLD cursor outlives COMMIT (and the Sync of an extended batch) but not a ROLLBACK of its block', async () => {
    await c.simple('BEGIN');
    await c.simple('DECLARE held CURSOR WITH HOLD FOR SELECT i FROM generate_series(1, 5) AS g(i) ORDER BY i');
    await c.simple('COMMIT');
    c.send(Buffer.concat([fe.parse('', 'FETCH 2 FROM held'), fe.bind('', '', []), fe.execute('', 0), fe.sync()]));
    expect(texts(await c.untilReady())).toEqual([['1'], ['2']]);
    expect(texts(await c.simple('FETCH ALL FROM held'))).toEqual([['3'], ['4'], ['5']]);
    await c.simple('CLOSE held');
    await c.simple('BEGIN');
    await c.simple('DECLARE gone CURSOR WITH HOLD FOR SELECT 1');
    await c.simple('ROLLBACK');
    expect(errorOf(await c.simple('FETCH 1 FROM gone'))).toMatchObject({ code: '34000' });
  });
});

describe('SCROLL cursors spool into the engine, within its memory bounds', () => {
  let small: InProcessGateway;
  let s: RawConn;

  beforeAll(async () => {
    // the engine holds 64MB in memory and spills the rest; a spool has at most 200000 rows
    small = await startInProcess((dir) => ({
      engine: { threads: 1, memoryLimit: '256MB', userMemoryLimit: '64MB', tempDirectory: `${dir}/spill`, maxTempDirectorySize: '1GiB' },
      limits: { maxScrollCursorRows: 200_000 } as Config['limits'],
    }));
    s = await RawConn.connect('127.0.0.1', small.server.port);
    await s.startup('alice', 'demo', 'alice');
  }, 60000);

  afterAll(async () => {
    s?.close();
    await small?.stop();
  });

  it('a spool past maxScrollCursorRows is refused with 54000, the session goes on; one larger than memory_limit spills and scrolls', async () => {
    await s.simple('BEGIN');
    await s.simple('DECLARE big SCROLL CURSOR FOR SELECT i FROM generate_series(1, 200001) AS g(i)');
    expect(errorOf(await s.simple('MOVE LAST IN big'))).toMatchObject({
      code: '54000',
      message: 'SCROLL cursor result is too large (more than 200000 rows)',
    });
    await s.simple('ROLLBACK');
    await s.simple('BEGIN');
    // about 130MB of distinct text in 200000 rows: twice what the engine may hold in memory
    await s.simple(
      'DECLARE wide SCROLL CURSOR FOR SELECT i, md5(i::text) || md5((i + 1)::text) || md5((i + 2)::text) || md5((i + 3)::text) AS pad FROM generate_series(1, 200000) AS g(i) ORDER BY i',
    );
    const last = texts(await s.simple('FETCH LAST FROM wide'));
    expect(last.map((r) => r[0])).toEqual(['200000']);
    expect(last[0]![1]).toBe([200000, 200001, 200002, 200003].map((n) => createHash('md5').update(String(n)).digest('hex')).join(''));
    expect(texts(await s.simple('FETCH ABSOLUTE 2 FROM wide')).map((r) => r[0])).toEqual(['2']);
    await s.simple('ROLLBACK');
    expect(texts(await s.simple('SELECT 41 + 1'))).toEqual([['42']]);
    await s.simple('BEGIN');
    await s.simple('DECLARE few SCROLL CURSOR FOR SELECT i FROM generate_series(1, 50000) AS g(i) ORDER BY i');
    expect(texts(await s.simple('FETCH LAST FROM few'))).toEqual([['50000']]);
    expect(texts(await s.simple('FETCH BACKWARD 2 FROM few'))).toEqual([['49999'], ['49998']]);
    expect(texts(await s.simple('FETCH ABSOLUTE 7 FROM few'))).toEqual([['7']]);
    await s.simple('COMMIT');
  });
});
