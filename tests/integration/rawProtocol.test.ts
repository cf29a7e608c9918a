/**
 * The wire itself, driven from a raw socket (tests/support/wire.ts): the startup
 * sequence captured from PostgreSQL in reference/pg-traces/, pipelined extended
 * queries and their ReadyForQuery statuses, binary parameters and results for every
 * type, row limits with PortalSuspended, and malformed / oversized frames that must
 * end only the offending connection.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startTarget, type Target } from '../support/target.js';
import {
  RawConn,
  describe as name,
  fe,
  frame,
  parseDataRow,
  parseError,
  parseParameterStatus,
  parseRowDescription,
  type BackendMessage,
} from '../support/wire.js';
import { dec, enc, pgMicros } from '../support/binary.js';

let t: Target;
const open: RawConn[] = [];

beforeAll(async () => {
  t = await startTarget();
}, 90000);

afterAll(async () => {
  for (const c of open) c.close();
  await t?.stop();
});

async function login(user = 'alice', extra: Record<string, string> = {}): Promise<RawConn> {
  const c = await RawConn.connect(t.host, t.port);
  open.push(c);
  await c.startup(user, 'demo', user, extra);
  return c;
}

const names = (ms: BackendMessage[]) => ms.map(name);
const status = (ms: BackendMessage[]) => String.fromCharCode(ms[ms.length - 1]!.body[0]!);

async function expectWorks(c: RawConn): Promise<void> {
  const ms = await c.simple('SELECT 41 + 1');
  const row = ms.find((m) => m.type === 'D');
  expect(row && parseDataRow(row.body)[0]!.toString()).toBe('42');
}

describe('startup (reference/pg-traces: ParameterStatus set, BackendKeyData, ReadyForQuery)', () => {
  test('node-postgres style startup gets the PostgreSQL ParameterStatus set, then BackendKeyData, then ReadyForQuery I', async () => {
    const c = await RawConn.connect(t.host, t.port);
    open.push(c);
    const ms = await c.startup('alice', 'demo', 'alice', { application_name: 'np', client_encoding: 'UTF8' });
    const kinds = ms.map((m) => m.type);
    const okAt = ms.findIndex((m) => m.type === 'R' && m.body.readInt32BE(0) === 0);
    const firstS = kinds.indexOf('S');
    const lastS = kinds.lastIndexOf('S');
    const keyAt = kinds.indexOf('K');
    expect(okAt).toBeGreaterThanOrEqual(0);
    expect(firstS).toBeGreaterThan(okAt);
    expect(keyAt).toBeGreaterThan(lastS);
    expect(kinds[kinds.length - 1]).toBe('Z');
    expect(status(ms)).toBe('I');
    const p = Object.fromEntries(ms.filter((m) => m.type === 'S').map((m) => parseParameterStatus(m.body)));
    expect(p).toMatchObject({
      application_name: 'np',
      client_encoding: 'UTF8',
      DateStyle: 'ISO, MDY',
      // lakegate serves read-only queries: every transaction is read-only (PostgreSQL's own default is off)
      default_transaction_read_only: 'off',
      in_hot_standby: 'off',
      integer_datetimes: 'on',
      IntervalStyle: 'postgres',
      is_superuser: 'off',
      server_encoding: 'UTF8',
      session_authorization: 'alice',
      standard_conforming_strings: 'on',
    });
    expect(p['server_version']).toMatch(/^1[5-9]\.\d+/);
    expect(typeof p['TimeZone']).toBe('string');
    expect(p['TimeZone']!.length).toBeGreaterThan(0);
    expect(c.pid).not.toBe(0);
  });

  test('SSLRequest without a certificate is answered N, then a normal startup works', async () => {
    const c = await RawConn.connect(t.host, t.port);
    open.push(c);
    expect(await c.sslRequest()).toBe('N');
    await c.startup('bob', 'demo', 'bob');
    await expectWorks(c);
  });

  test('GSSENCRequest is answered N, then a normal startup works on the same connection', async () => {
    const c = await RawConn.connect(t.host, t.port);
    open.push(c);
    const a = await c.gssEncRequest();
    if (t.kind === 'postgres' && a === 'G') return; // Debian's PostgreSQL is built with GSSAPI and offers it
    expect(a).toBe('N');
    await c.startup('dave', 'demo', 'dave');
    await expectWorks(c);
  });

  test('StartupMessage 3.2 gets NegotiateProtocolVersion (3.0), then login completes', async () => {
    const c = await RawConn.connect(t.host, t.port);
    open.push(c);
    c.send(fe.startup({ user: 'alice', database: 'demo' }, 2));
    const first = await c.next();
    expect(first && first.type).toBe('v');
    expect(first!.body.readInt32BE(0)).toBe(196608);
    // then the usual authentication request
    const auth = await c.next();
    expect(auth && auth.type).toBe('R');
  });

  test('SET application_name / TimeZone re-sends ParameterStatus before ReadyForQuery', async () => {
    const c = await login();
    const ms = await c.simple("SET application_name = 'it-raw'");
    expect(names(ms)).toContain('CommandComplete SET');
    expect(names(ms)).toContain('ParameterStatus application_name=it-raw');
    expect(ms[ms.length - 1]!.type).toBe('Z');
    const tz = await c.simple("SET TimeZone = 'Europe/Paris'");
    expect(names(tz)).toContain('ParameterStatus TimeZone=Europe/Paris');
  });

  test('Terminate closes the connection', async () => {
    const c = await login();
    c.send(fe.terminate());
    expect(await c.drainUntilClosed(5000)).toEqual([]);
  });
});

describe('simple query', () => {
  test('empty query: EmptyQueryResponse, ReadyForQuery', async () => {
    const c = await login();
    expect(names(await c.simple(''))).toEqual(['EmptyQueryResponse', 'ReadyForQuery I']);
  });

  test('two statements in one Query: two results, one ReadyForQuery (psycopg2 trace shape)', async () => {
    const c = await login();
    expect(names(await c.simple('select 1; select 2'))).toEqual([
      'RowDescription',
      'DataRow',
      'CommandComplete SELECT 1',
      'RowDescription',
      'DataRow',
      'CommandComplete SELECT 1',
      'ReadyForQuery I',
    ]);
  });

  test('psycopg2 trace: BEGIN / query / COMMIT statuses T T I', async () => {
    const c = await login();
    expect(names(await c.simple('BEGIN'))).toEqual(['CommandComplete BEGIN', 'ReadyForQuery T']);
    const q = await c.simple('select current_database()');
    const rd = parseRowDescription(q.find((m) => m.type === 'T')!.body);
    expect(rd.map((f) => f.name)).toEqual(['current_database']);
    expect(parseDataRow(q.find((m) => m.type === 'D')!.body)[0]!.toString()).toBe('demo');
    expect(status(q)).toBe('T');
    expect(names(await c.simple('COMMIT'))).toEqual(['CommandComplete COMMIT', 'ReadyForQuery I']);
  });

  test('error inside a transaction: ReadyForQuery E, then ROLLBACK gives I', async () => {
    const c = await login();
    await c.simple('BEGIN');
    const e = await c.simple('SELECT * FROM no_such_table_raw');
    expect(e.map((m) => m.type)).toEqual(['E', 'Z']);
    expect(parseError(e[0]!.body).code).toBe('42P01');
    expect(status(e)).toBe('E');
    const again = await c.simple('SELECT 1');
    expect(parseError(again[0]!.body).code).toBe('25P02');
    expect(names(await c.simple('ROLLBACK'))).toEqual(['CommandComplete ROLLBACK', 'ReadyForQuery I']);
  });
});

interface ExtResult {
  all: BackendMessage[];
  formats: number[];
  oids: number[];
  rows: (Buffer | null)[][];
  tag: string | undefined;
}

async function extended(
  c: RawConn,
  sql: string,
  paramOids: number[],
  values: (Buffer | string | null)[],
  paramFormats: number[],
  resultFormats: number[],
): Promise<ExtResult> {
  c.send(
    Buffer.concat([
      fe.parse('', sql, paramOids),
      fe.bind('', '', values, paramFormats, resultFormats),
      fe.describe('P', ''),
      fe.execute('', 0),
      fe.sync(),
    ]),
  );
  const all = await c.untilReady();
  const err = all.find((m) => m.type === 'E');
  if (err) throw new Error(`server error: ${JSON.stringify(parseError(err.body))} in ${names(all).join(' | ')}`);
  const rd = parseRowDescription(all.find((m) => m.type === 'T')!.body);
  return {
    all,
    formats: rd.map((f) => f.format),
    oids: rd.map((f) => f.typeOid),
    rows: all.filter((m) => m.type === 'D').map((m) => parseDataRow(m.body)),
    tag: names(all).find((n) => n.startsWith('CommandComplete'))?.slice('CommandComplete '.length),
  };
}

/** Each type: OID, a binary-encoded value, how to decode it, the decoded value, and PostgreSQL's text for it. */
const BIN_CASES: {
  name: string;
  oid: number;
  cast: string;
  bin: Buffer;
  decode: (b: Buffer) => unknown;
  value: unknown;
  text: string;
}[] = [
  { name: 'int2', oid: 21, cast: 'int2', bin: enc.int2(-12345), decode: dec.int2, value: -12345, text: '-12345' },
  { name: 'int4', oid: 23, cast: 'int4', bin: enc.int4(-2147483648), decode: dec.int4, value: -2147483648, text: '-2147483648' },
  {
    name: 'int8',
    oid: 20,
    cast: 'int8',
    bin: enc.int8(9223372036854775807n),
    decode: dec.int8,
    value: 9223372036854775807n,
    text: '9223372036854775807',
  },
  { name: 'float4', oid: 700, cast: 'float4', bin: enc.float4(-2.5), decode: dec.float4, value: -2.5, text: '-2.5' },
  { name: 'float8', oid: 701, cast: 'float8', bin: enc.float8(Math.E), decode: dec.float8, value: Math.E, text: '2.718281828459045' },
  { name: 'numeric', oid: 1700, cast: 'numeric', bin: enc.numeric('-12345.678'), decode: dec.numeric, value: '-12345.678', text: '-12345.678' },
  { name: 'numeric small', oid: 1700, cast: 'numeric', bin: enc.numeric('0.05'), decode: dec.numeric, value: '0.05', text: '0.05' },
  { name: 'bool', oid: 16, cast: 'bool', bin: enc.bool(true), decode: dec.bool, value: true, text: 't' },
  { name: 'text', oid: 25, cast: 'text', bin: enc.text('grüße ✓'), decode: dec.text, value: 'grüße ✓', text: 'grüße ✓' },
  { name: 'varchar', oid: 1043, cast: 'varchar', bin: enc.text('abc'), decode: dec.text, value: 'abc', text: 'abc' },
  {
    name: 'bytea',
    oid: 17,
    cast: 'bytea',
    bin: Buffer.from([0xde, 0xad, 0x00, 0xbe, 0xef]),
    decode: (b) => b.toString('hex'),
    value: 'dead00beef',
    text: '\\xdead00beef',
  },
  { name: 'date', oid: 1082, cast: 'date', bin: enc.date('1999-12-31'), decode: dec.date, value: '1999-12-31', text: '1999-12-31' },
  {
    name: 'timestamp',
    oid: 1114,
    cast: 'timestamp',
    bin: enc.timestampMicros(pgMicros(2024, 2, 29, 13, 45, 1, 123456)),
    decode: dec.timestampMicros,
    value: pgMicros(2024, 2, 29, 13, 45, 1, 123456),
    text: '2024-02-29 13:45:01.123456',
  },
  {
    name: 'timestamptz',
    oid: 1184,
    cast: 'timestamptz',
    bin: enc.timestampMicros(pgMicros(1970, 1, 1, 0, 0, 0, 1)),
    decode: dec.timestampMicros,
    value: pgMicros(1970, 1, 1, 0, 0, 0, 1),
    text: '1970-01-01 00:00:00.000001+00',
  },
  {
    name: 'uuid',
    oid: 2950,
    cast: 'uuid',
    bin: enc.uuid('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
    decode: dec.uuid,
    value: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    text: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
  },
];

describe('extended query: binary parameters and results', () => {
  let c: RawConn;
  beforeAll(async () => {
    c = await login();
    await c.simple("SET TimeZone = 'UTC'");
  });

  test.each(BIN_CASES.map((x) => [x.name, x] as const))('%s: binary param → binary result', async (_n, x) => {
    const r = await extended(c, `SELECT $1::${x.cast} AS v`, [x.oid], [x.bin], [1], [1]);
    expect(r.formats).toEqual([1]);
    expect(r.rows.length).toBe(1);
    if (x.name !== 'varchar') expect({ oid: r.oids[0] }).toEqual({ oid: x.oid });
    else expect([25, 1043]).toContain(r.oids[0]);
    expect(x.decode(r.rows[0]![0]!)).toEqual(x.value);
  });

  test.each(BIN_CASES.map((x) => [x.name, x] as const))('%s: binary param → text result', async (_n, x) => {
    const r = await extended(c, `SELECT $1::${x.cast} AS v`, [x.oid], [x.bin], [1], [0]);
    expect(r.formats).toEqual([0]);
    expect(r.rows[0]![0]!.toString('utf8')).toBe(x.text);
  });

  test.each(BIN_CASES.map((x) => [x.name, x] as const))('%s: text param → binary result', async (_n, x) => {
    const r = await extended(c, `SELECT $1::${x.cast} AS v`, [x.oid], [x.text], [0], [1]);
    if (x.name !== 'varchar') expect({ oid: r.oids[0] }).toEqual({ oid: x.oid });
    expect(x.decode(r.rows[0]![0]!)).toEqual(x.value);
  });

  test('NULL parameter in binary gives a NULL column', async () => {
    const r = await extended(c, 'SELECT $1::int4 AS v', [23], [null], [1], [1]);
    expect(r.rows).toEqual([[null]]);
  });

  test('mixed result formats per column (pgJDBC style [1,1,0])', async () => {
    const r = await extended(c, 'SELECT id, amount, region FROM sales.orders WHERE id = $1', [23], [enc.int4(2)], [1], [1, 1, 0]);
    expect(r.formats).toEqual([1, 1, 0]);
    expect(dec.int4(r.rows[0]![0]!)).toBe(2);
    expect(dec.numeric(r.rows[0]![1]!)).toBe('250.50');
    expect(r.rows[0]![2]!.toString()).toBe('US');
  });

  test('demo table in binary: int4, numeric(10,2), varchar', async () => {
    // carol (sqe_admin) reads ssn as stored
    const carol = await login('carol');
    const r = await extended(carol, 'SELECT id, ssn, amount, region FROM sales.orders WHERE id IN (1,2) ORDER BY id', [], [], [], [1]);
    expect(r.rows.map((row) => [dec.int4(row[0]!), dec.text(row[1]!), dec.numeric(row[2]!), dec.text(row[3]!)])).toEqual([
      [1, '111-11-1111', '100.00', 'EU'],
      [2, '222-22-2222', '250.50', 'US'],
    ]);
    expect(r.tag).toBe('SELECT 2');
  });
});

describe('extended query: statements, portals, row limits, errors', () => {
  test('Describe statement: ParameterDescription and RowDescription without running it', async () => {
    const c = await login();
    c.send(Buffer.concat([fe.parse('s_desc', 'SELECT $1::int4 + 1 AS v, $2::text AS w', []), fe.describe('S', 's_desc'), fe.sync()]));
    const ms = await c.untilReady();
    expect(names(ms)).toEqual(['ParseComplete', 'ParameterDescription', 'RowDescription', 'ReadyForQuery I']);
    const pd = ms[1]!.body;
    expect(pd.readInt16BE(0)).toBe(2);
    expect([pd.readUInt32BE(2), pd.readUInt32BE(6)]).toEqual([23, 25]);
    const rd = parseRowDescription(ms[2]!.body);
    expect(rd.map((f) => [f.name, f.typeOid])).toEqual([
      ['v', 23],
      ['w', 25],
    ]);
  });

  test('pgJDBC trace: SET without Describe, Execute maxRows=1 → ParseComplete, BindComplete, CommandComplete SET', async () => {
    const c = await login();
    c.send(Buffer.concat([fe.parse('', 'SET extra_float_digits = 3'), fe.bind('', '', []), fe.execute('', 1), fe.sync()]));
    expect(names(await c.untilReady())).toEqual(['ParseComplete', 'BindComplete', 'CommandComplete SET', 'ReadyForQuery I']);
  });

  test('pgJDBC trace: BEGIN pipelined with the first query under one Sync → ReadyForQuery T', async () => {
    const c = await login();
    c.send(
      Buffer.concat([
        fe.parse('', 'BEGIN'),
        fe.bind('', '', []),
        fe.execute('', 0),
        fe.parse('', 'SELECT region FROM sales.orders WHERE id = 1'),
        fe.bind('', '', []),
        fe.describe('P', ''),
        fe.execute('', 0),
        fe.sync(),
      ]),
    );
    const ms = await c.untilReady();
    expect(names(ms)).toEqual([
      'ParseComplete',
      'BindComplete',
      'CommandComplete BEGIN',
      'ParseComplete',
      'BindComplete',
      'RowDescription',
      'DataRow',
      'CommandComplete SELECT 1',
      'ReadyForQuery T',
    ]);
    c.send(Buffer.concat([fe.parse('S_1', 'COMMIT'), fe.bind('', 'S_1', []), fe.execute('', 1), fe.sync()]));
    expect(names(await c.untilReady())).toEqual(['ParseComplete', 'BindComplete', 'CommandComplete COMMIT', 'ReadyForQuery I']);
  });

  test('named portal with a row limit: PortalSuspended across Syncs, then the rest, then Close', async () => {
    const c = await login();
    await c.simple('BEGIN');
    c.send(
      Buffer.concat([
        fe.parse('', 'SELECT i FROM generate_series(1, 5) AS g(i) ORDER BY i'),
        fe.bind('C_1', '', [], [], [0]),
        fe.describe('P', 'C_1'),
        fe.execute('C_1', 2),
        fe.sync(),
      ]),
    );
    const first = await c.untilReady();
    expect(names(first)).toEqual(['ParseComplete', 'BindComplete', 'RowDescription', 'DataRow', 'DataRow', 'PortalSuspended', 'ReadyForQuery T']);
    const got = first.filter((m) => m.type === 'D').map((m) => parseDataRow(m.body)[0]!.toString());
    c.send(Buffer.concat([fe.execute('C_1', 2), fe.sync()]));
    const second = await c.untilReady();
    expect(names(second)).toEqual(['DataRow', 'DataRow', 'PortalSuspended', 'ReadyForQuery T']);
    got.push(...second.filter((m) => m.type === 'D').map((m) => parseDataRow(m.body)[0]!.toString()));
    c.send(Buffer.concat([fe.execute('C_1', 2), fe.sync()]));
    const third = await c.untilReady();
    expect(names(third)).toEqual(['DataRow', 'CommandComplete SELECT 1', 'ReadyForQuery T']);
    got.push(...third.filter((m) => m.type === 'D').map((m) => parseDataRow(m.body)[0]!.toString()));
    expect(got).toEqual(['1', '2', '3', '4', '5']);
    c.send(Buffer.concat([fe.close('P', 'C_1'), fe.sync()]));
    expect(names(await c.untilReady())).toEqual(['CloseComplete', 'ReadyForQuery T']);
    expect(names(await c.simple('COMMIT'))).toEqual(['CommandComplete COMMIT', 'ReadyForQuery I']);
  });

  test('named statement: Parse once, Bind/Execute many times (binary results)', async () => {
    const c = await login();
    c.send(Buffer.concat([fe.parse('S_7', 'SELECT $1::int8 * 3 AS v', [20]), fe.sync()]));
    expect(names(await c.untilReady())).toEqual(['ParseComplete', 'ReadyForQuery I']);
    for (const n of [1n, -5n, 1000000000000n]) {
      c.send(Buffer.concat([fe.bind('', 'S_7', [enc.int8(n)], [1], [1]), fe.execute('', 0), fe.sync()]));
      const ms = await c.untilReady();
      expect(names(ms)).toEqual(['BindComplete', 'DataRow', 'CommandComplete SELECT 1', 'ReadyForQuery I']);
      expect(dec.int8(parseDataRow(ms[1]!.body)[0]!)).toBe(n * 3n);
    }
    c.send(Buffer.concat([fe.close('S', 'S_7'), fe.sync()]));
    expect(names(await c.untilReady())).toEqual(['CloseComplete', 'ReadyForQuery I']);
    c.send(Buffer.concat([fe.bind('', 'S_7', [enc.int8(1n)], [1], [1]), fe.execute('', 0), fe.sync()]));
    const gone = await c.untilReady();
    expect(gone.map((m) => m.type)).toEqual(['E', 'Z']);
    expect(parseError(gone[0]!.body).code).toBe('26000');
  });

  test('after an error the server skips to Sync: one ErrorResponse, one ReadyForQuery', async () => {
    const c = await login();
    c.send(
      Buffer.concat([
        fe.parse('', 'SELECT * FROM no_such_table_ext'),
        fe.bind('', '', []),
        fe.describe('P', ''),
        fe.execute('', 0),
        fe.parse('', 'SELECT 1'),
        fe.bind('', '', []),
        fe.execute('', 0),
        fe.sync(),
      ]),
    );
    const ms = await c.untilReady();
    expect(ms.map((m) => m.type)).toEqual(['E', 'Z']);
    expect(parseError(ms[0]!.body).code).toBe('42P01');
    expect(status(ms)).toBe('I');
    await expectWorks(c);
  });

  test('unparseable SQL in Parse: 42601 with position', async () => {
    const c = await login();
    const sql = 'SELECT 1 FROM FROM x';
    c.send(Buffer.concat([fe.parse('', sql), fe.sync()]));
    const ms = await c.untilReady();
    expect(ms.map((m) => m.type)).toEqual(['E', 'Z']);
    const e = parseError(ms[0]!.body);
    expect(e.code).toBe('42601');
    expect(e.position).toBe(String(sql.lastIndexOf('FROM') + 1));
  });

  test('Flush returns pending results before Sync', async () => {
    const c = await login();
    c.send(Buffer.concat([fe.parse('', 'SELECT 5'), fe.bind('', '', []), fe.execute('', 0), fe.flush()]));
    const ms = await c.until((m) => m.type === 'C');
    expect(names(ms)).toEqual(['ParseComplete', 'BindComplete', 'DataRow', 'CommandComplete SELECT 1']);
    c.send(fe.sync());
    expect(names(await c.untilReady())).toEqual(['ReadyForQuery I']);
  });
});

describe('malformed and oversized frames: 08P01 and close, other sessions carry on', () => {
  /**
   * lakegate must answer ErrorResponse 08P01 before closing. PostgreSQL answers an unknown
   * message type with FATAL 08P01, but closes silently on a bad length (it only logs
   * "invalid message length"); against PostgreSQL those cases only require the close.
   */
  async function expectProtocolViolation(c: RawConn, requireError: boolean): Promise<void> {
    const ms = await c.drainUntilClosed(10000);
    const errs = ms.filter((m) => m.type === 'E').map((m) => parseError(m.body));
    if (requireError || t.kind === 'lakegate') {
      expect(errs.length).toBeGreaterThanOrEqual(1);
    }
    for (const e of errs) expect(e.code).toBe('08P01');
    expect(c.ended).toBe(true);
  }

  async function bystander(): Promise<RawConn> {
    const b = await login('bob');
    expect(names(await b.simple('BEGIN'))).toEqual(['CommandComplete BEGIN', 'ReadyForQuery T']);
    return b;
  }

  async function bystanderStillWorks(b: RawConn): Promise<void> {
    const ms = await b.simple('SELECT region FROM sales.orders WHERE id = 2');
    expect(parseDataRow(ms.find((m) => m.type === 'D')!.body)[0]!.toString()).toBe('US');
    expect(status(ms)).toBe('T');
    expect(names(await b.simple('COMMIT'))).toEqual(['CommandComplete COMMIT', 'ReadyForQuery I']);
    // and a brand-new login works too
    await expectWorks(await login('carol'));
  }

  test('unknown message type after login', async () => {
    const b = await bystander();
    const c = await login();
    c.send(frame('y', Buffer.from('garbage')));
    await expectProtocolViolation(c, true);
    await bystanderStillWorks(b);
  });

  test('message length below 4', async () => {
    const b = await bystander();
    const c = await login();
    c.send(Buffer.from([0x51, 0, 0, 0, 2, 0x41, 0x42]));
    await expectProtocolViolation(c, false);
    await bystanderStillWorks(b);
  });

  test('oversized message length (2 GiB announced)', async () => {
    const b = await bystander();
    const c = await login();
    const hdr = Buffer.from([0x51, 0x7f, 0xff, 0xff, 0xff]);
    c.send(Buffer.concat([hdr, Buffer.alloc(64 * 1024, 0x41)]));
    await expectProtocolViolation(c, false);
    await bystanderStillWorks(b);
  });

  test('message length just above PostgreSQL\'s 1 GiB limit', async () => {
    const b = await bystander();
    const c = await login();
    const hdr = Buffer.alloc(5);
    hdr.write('Q', 0, 'latin1');
    hdr.writeInt32BE(0x40000000 + 5, 1);
    c.send(Buffer.concat([hdr, Buffer.alloc(1024 * 1024, 0x20)]));
    await expectProtocolViolation(c, false);
    await bystanderStillWorks(b);
  });

  test('Bind with a truncated body', async () => {
    const b = await bystander();
    const c = await login();
    c.send(Buffer.concat([fe.parse('', 'SELECT $1::int4', [23]), frame('B', Buffer.from([0, 0, 0, 1, 0])), fe.sync()]));
    const ms: BackendMessage[] = [];
    for (let m = await c.next(10000); m; m = m.type === 'Z' ? null : await c.next(10000)) ms.push(m);
    const errs = ms.filter((m) => m.type === 'E').map((m) => parseError(m.body));
    expect(errs.length).toBeGreaterThanOrEqual(1);
    expect(errs[0]!.code).toBe('08P01');
    if (t.kind === 'lakegate') expect(c.ended).toBe(true);
    await bystanderStillWorks(b);
  }, 30000);

  test('startup packet with a bad length', async () => {
    const b = await bystander();
    const c = await RawConn.connect(t.host, t.port);
    open.push(c);
    c.send(Buffer.from([0, 0, 0, 3, 0, 0, 0, 0]));
    const ms = await c.drainUntilClosed(10000);
    for (const m of ms) {
      expect(m.type).toBe('E');
      expect(parseError(m.body).code).toBe('08P01');
    }
    expect(c.ended).toBe(true);
    await bystanderStillWorks(b);
  });

  test('oversized startup packet', async () => {
    const b = await bystander();
    const c = await RawConn.connect(t.host, t.port);
    open.push(c);
    const big = Buffer.alloc(200000);
    big.writeInt32BE(200000, 0);
    big.writeInt32BE(196608, 4);
    c.send(big);
    const ms = await c.drainUntilClosed(10000);
    for (const m of ms) {
      expect(m.type).toBe('E');
      expect(parseError(m.body).code).toBe('08P01');
    }
    expect(c.ended).toBe(true);
    await bystanderStillWorks(b);
  });

  test('the server process is still alive', () => {
    expect(t.alive()).toBe(true);
  });
});
