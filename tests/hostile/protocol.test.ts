/**
 * Protocol details (issue 11, Low), each compared with the real PostgreSQL the
 * test starts: a FunctionCall's error is flushed with its ReadyForQuery;
 * invalid UTF-8 in a query or a text parameter is 22021 with PostgreSQL's
 * byte report (not a silent U+FFFD); binary date, timestamp and time
 * parameters outside PostgreSQL's ranges are 22008, not XX000.
 */
import { startServe, type ServedGateway } from '../support/lakegateServe.js';
import { startPostgres, type RealPostgres } from '../support/realPostgres.js';
import { RawConn, fe, frame, parseError, type BackendMessage } from '../support/wire.js';

let g: ServedGateway;
let reference: RealPostgres;
let ours: RawConn;
let theirs: RawConn;

beforeAll(async () => {
  g = await startServe({});
  reference = await startPostgres();
  ours = await RawConn.connect(g.host, g.port);
  await ours.startup('alice', 'demo', 'alice');
  theirs = await RawConn.connect(reference.host, reference.port);
  await theirs.startup('postgres', 'postgres', '');
}, 120000);

afterAll(async () => {
  ours?.close();
  theirs?.close();
  await reference?.stop();
  await g?.stop();
});

/** The messages up to ReadyForQuery, as type letters, and the error's code and message. */
function summary(ms: BackendMessage[]) {
  const e = ms.find((m) => m.type === 'E');
  const err = e ? parseError(e.body) : undefined;
  return { types: ms.map((m) => m.type).join(''), code: err?.code, message: err?.message };
}

/** Send the same bytes to both servers; both must answer up to ReadyForQuery. */
async function both(...messages: Buffer[]) {
  const out = [];
  for (const c of [ours, theirs]) {
    for (const m of messages) c.send(m);
    out.push(summary(await c.untilReady(5000)));
  }
  return { ours: out[0]!, theirs: out[1]! };
}

const i32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(v);
  return b;
};
const i64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(v);
  return b;
};
const extended = (sql: string, oid: number, value: Buffer, format: 0 | 1) => [
  fe.parse('', sql, [oid]),
  fe.bind('', '', [value], [format]),
  fe.execute(''),
  fe.sync(),
];

test('an error after a FunctionCall is sent at once, with ReadyForQuery, without waiting for a Sync (it was held back before)', async () => {
  // FunctionCall: function OID 0, no argument formats, no arguments, text result.
  const call = frame('F', i32(0), Buffer.from([0, 0, 0, 0]), Buffer.from([0, 0]));
  const r = await both(call);
  expect(r.ours.types).toBe('EZ');
  expect(r.ours.types).toBe(r.theirs.types);
  expect(r.ours.code).toBe('0A000');
  // the session carries on
  const after = await both(fe.query('select 1'));
  expect(after.ours.types).toBe(after.theirs.types);
});

describe('invalid UTF-8 → 22021, as PostgreSQL reports it', () => {
  const bad = [
    ['a truncated sequence', Buffer.from([0xc3, 0x28])],
    ['a byte that cannot start a character', Buffer.from([0xff])],
    ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80])],
    ['an overlong encoding', Buffer.from([0xc0, 0xaf])],
  ] as const;

  test.each(bad)('in a simple query: %s', async (_name, bytes) => {
    const q = frame('Q', Buffer.from("select 'x"), bytes, Buffer.from("'"), Buffer.from([0]));
    const r = await both(q);
    expect(r.ours).toEqual(r.theirs);
    expect(r.ours.code).toBe('22021');
    expect(r.ours.message).toMatch(/^invalid byte sequence for encoding "UTF8": 0x[0-9a-f]{2}/);
  });

  test.each(bad)('in a Parse message: %s', async (_name, bytes) => {
    const p = frame('P', Buffer.from([0]), Buffer.from("select 'x"), bytes, Buffer.from("'"), Buffer.from([0]), Buffer.from([0, 0]));
    const r = await both(p, fe.sync());
    expect(r.ours).toEqual(r.theirs);
  });

  test.each(bad)('in a text parameter: %s', async (_name, bytes) => {
    const r = await both(...extended('select $1::text', 25, Buffer.concat([Buffer.from('x'), bytes]), 0));
    expect(r.ours).toEqual(r.theirs);
    expect(r.ours.code).toBe('22021');
  });

  test('a NUL byte inside a text parameter', async () => {
    const r = await both(...extended('select $1::text', 25, Buffer.from([0x61, 0x00, 0x62]), 0));
    expect(r.ours).toEqual(r.theirs);
    expect(r.ours.message).toBe('invalid byte sequence for encoding "UTF8": 0x00');
  });

  test('control: valid UTF-8 comes through unchanged', async () => {
    ours.send(fe.query("select 'äöü€𝄞' as t"));
    const ms = await ours.untilReady();
    const row = ms.find((m) => m.type === 'D')!;
    expect(row.body.subarray(6).toString('utf8')).toBe('äöü€𝄞');
  });
});

describe('binary date/time parameters outside PostgreSQL’s ranges → 22008 (XX000 before)', () => {
  const cases = [
    ['date after 5874897-12-31', 'select $1::date', 1082, i32(2145031949)],
    ['date before 4714-11-24 BC', 'select $1::date', 1082, i32(-2451546)],
    ['timestamp at the end of the range', 'select $1::timestamp', 1114, i64(9223371331200000000n)],
    ['timestamp before 4714-11-24 BC', 'select $1::timestamp', 1114, i64(-211813488000000001n)],
    ['timestamptz at the end of the range', 'select $1::timestamptz', 1184, i64(9223371331200000000n)],
    ['time -1', 'select $1::time', 1083, i64(-1n)],
    ['time past 24:00:00', 'select $1::time', 1083, i64(86400000001n)],
  ] as const;

  test.each(cases)('%s', async (_name, sql, oid, value) => {
    const r = await both(...extended(sql, oid, value, 1));
    expect(r.ours).toEqual(r.theirs);
    expect(r.ours.code).toBe('22008');
  });

  test('controls: the last valid date, 24:00:00 and infinity are accepted by both', async () => {
    for (const [sql, oid, value] of [
      ['select $1::date', 1082, i32(2145031948)],
      ['select $1::time', 1083, i64(86400000000n)],
      ['select $1::timestamp', 1114, i64(0x7fffffffffffffffn)],
    ] as const) {
      const r = await both(...extended(sql, oid, value, 1));
      expect(r.ours.types).toBe(r.theirs.types);
      expect(r.ours.code).toBeUndefined();
    }
  });
});
