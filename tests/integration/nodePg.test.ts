/**
 * node-postgres (pg) against a running lakegate demo: login, every type in text
 * (simple query) and through parameters (extended query), several statements in one
 * message, empty query, errors and recovery, transactions, cancel, statement_timeout,
 * refused statements, unparseable SQL. Expected values are written out here, never
 * taken from lakegate's output.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startTarget, ORDERS, type Target } from '../support/target.js';
import { connect, pgConfig, rawTypes, rejection, sleep, LONG_QUERY } from '../support/clients.js';
import { RawConn, fe, frame } from '../support/wire.js';

let t: Target;
let c: pg.Client;

beforeAll(async () => {
  t = await startTarget();
  c = await connect(t);
  await c.query("SET TimeZone = 'UTC'");
}, 90000);

afterAll(async () => {
  await c?.end().catch(() => {});
  await t?.stop();
});

async function raw(sql: string, values?: unknown[]): Promise<pg.QueryResult> {
  return c.query({ text: sql, values, types: rawTypes });
}

describe('login', () => {
  test('alice logs in with her password and is the session user', async () => {
    const c2 = await connect(t);
    try {
      const r = await c2.query('SELECT 1 AS one, current_user AS u');
      expect(r.rows).toEqual([{ one: 1, u: 'alice' }]);
    } finally {
      await c2.end();
    }
  });

  test.each(['bob', 'carol', 'erin'])('%s logs in with the password equal to the name', async (u) => {
    const c2 = await connect(t, { user: u, password: u });
    try {
      // what each user may read is the data gate's (tests/integration/dataGate.test.ts)
      const r = await c2.query('SELECT current_user AS u');
      expect(r.rows).toEqual([{ u }]);
    } finally {
      await c2.end();
    }
  });

  test('dave logs in, and the table the catalog gate keeps from him does not exist for him', async () => {
    const c2 = await connect(t, { user: 'dave', password: 'dave' });
    try {
      expect((await c2.query('SELECT current_user AS u')).rows).toEqual([{ u: 'dave' }]);
      const e = await rejection(c2.query('SELECT count(*) FROM sales.orders'));
      // PostgreSQL says 42501 permission denied; lakegate hides the table (README: deliberate differences).
      expect(e.code).toBe(t.kind === 'postgres' ? '42501' : '42P01');
      if (t.kind !== 'postgres') expect(e.message).toBe('relation "sales.orders" does not exist');
    } finally {
      await c2.end();
    }
  });

  test('wrong password: 28P01 with PostgreSQL message text', async () => {
    const e = await rejection(connect(t, { password: 'not-alice' }));
    expect(e.code).toBe('28P01');
    expect(e.message).toBe('password authentication failed for user "alice"');
  });

  test('unknown user gets the same 28P01 text as a wrong password (no user enumeration)', async () => {
    const e = await rejection(connect(t, { user: 'mallory', password: 'mallory' }));
    expect(e.code).toBe('28P01');
    expect(e.message).toBe('password authentication failed for user "mallory"');
  });

  test('unknown database: 3D000', async () => {
    const e = await rejection(connect(t, { database: 'nosuchdb' }));
    expect(e.code).toBe('3D000');
    expect(e.message).toBe('database "nosuchdb" does not exist');
  });

  test('the server still serves after failed logins', async () => {
    const r = await c.query('SELECT 2 AS two');
    expect(r.rows[0].two).toBe(2);
  });
});

describe('demo data', () => {
  test('sales.orders rows, decoded', async () => {
    // carol (sqe_admin) reads ssn as stored; the demo masks it for alice
    const carol = await connect(t, { user: 'carol', password: 'carol' });
    const r = await carol.query('SELECT id, ssn, amount, region FROM sales.orders WHERE id IN (1, 2) ORDER BY id').finally(() => carol.end());
    expect(r.rows).toEqual(ORDERS.map((o) => ({ ...o })));
    expect(r.fields.map((f) => f.name)).toEqual(['id', 'ssn', 'amount', 'region']);
    expect(r.fields[0]!.dataTypeID).toBe(23);
    expect([25, 1043]).toContain(r.fields[1]!.dataTypeID);
    expect(r.fields[2]!.dataTypeID).toBe(1700);
    // numeric(10,2): typmod ((10 << 16) | 2) + 4
    expect(r.fields[2]!.dataTypeModifier).toBe(((10 << 16) | 2) + 4);
  });

  test('aggregate over the demo rows', async () => {
    const r = await raw("SELECT sum(amount) AS s, count(*) AS n FROM sales.orders WHERE id IN (1, 2)");
    expect(r.rows[0]).toEqual({ s: '350.50', n: '2' });
    expect(r.fields.map((f) => f.dataTypeID)).toEqual([1700, 20]);
  });
});

/**
 * One row per type: the SQL literal, the OIDs PostgreSQL reports for it, the exact text
 * PostgreSQL prints, and the value node-postgres decodes from that text.
 */
interface TypeCase {
  name: string;
  sql: string;
  oids: number[];
  text: string;
  check: (v: unknown) => void;
}

const PI = Math.PI; // 3.141592653589793
const TS_UTC = Date.UTC(2024, 1, 29, 11, 45, 1, 500);

const TYPE_CASES: TypeCase[] = [
  { name: 'int2', sql: "'-32768'::int2", oids: [21], text: '-32768', check: (v) => expect(v).toBe(-32768) },
  { name: 'int4', sql: "'2147483647'::int4", oids: [23], text: '2147483647', check: (v) => expect(v).toBe(2 ** 31 - 1) },
  {
    name: 'int8',
    sql: "'-9223372036854775808'::int8",
    oids: [20],
    text: '-9223372036854775808',
    check: (v) => expect(BigInt(v as string)).toBe(-(2n ** 63n)),
  },
  { name: 'float4', sql: "'1.5'::float4", oids: [700], text: '1.5', check: (v) => expect(v).toBe(1.5) },
  { name: 'float8', sql: "'3.141592653589793'::float8", oids: [701], text: '3.141592653589793', check: (v) => expect(v).toBe(PI) },
  { name: 'float8 -Infinity', sql: "'-Infinity'::float8", oids: [701], text: '-Infinity', check: (v) => expect(v).toBe(-Infinity) },
  { name: 'float8 NaN', sql: "'NaN'::float8", oids: [701], text: 'NaN', check: (v) => expect(Number.isNaN(v)).toBe(true) },
  { name: 'numeric', sql: "'12345.678'::numeric", oids: [1700], text: '12345.678', check: (v) => expect(v).toBe('12345.678') },
  { name: 'numeric(10,2)', sql: "'1.5'::numeric(10,2)", oids: [1700], text: '1.50', check: (v) => expect(v).toBe('1.50') },
  { name: 'bool true', sql: 'true', oids: [16], text: 't', check: (v) => expect(v).toBe(true) },
  { name: 'bool false', sql: '1 > 2', oids: [16], text: 'f', check: (v) => expect(v).toBe(false) },
  { name: 'text', sql: "'héllo wörld ✓'::text", oids: [25], text: 'héllo wörld ✓', check: (v) => expect(v).toBe('héllo wörld ✓') },
  { name: 'varchar', sql: "'abc'::varchar", oids: [1043, 25], text: 'abc', check: (v) => expect(v).toBe('abc') },
  {
    name: 'bytea',
    sql: "'\\x00ff10'::bytea",
    oids: [17],
    text: '\\x00ff10',
    check: (v) => expect(Buffer.from(v as Buffer).equals(Buffer.from([0x00, 0xff, 0x10]))).toBe(true),
  },
  {
    name: 'date',
    sql: "'2024-02-29'::date",
    oids: [1082],
    text: '2024-02-29',
    check: (v) => {
      const d = v as Date;
      expect([d.getFullYear(), d.getMonth() + 1, d.getDate()]).toEqual([2024, 2, 29]);
    },
  },
  {
    name: 'timestamp',
    sql: "'2024-02-29 13:45:01.123456'::timestamp",
    oids: [1114],
    text: '2024-02-29 13:45:01.123456',
    check: (v) => {
      const d = v as Date; // node-postgres reads timestamp without time zone as local time
      expect([d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds()]).toEqual([
        2024, 2, 29, 13, 45, 1, 123,
      ]);
    },
  },
  {
    name: 'timestamptz',
    sql: "'2024-02-29 13:45:01.5+02'::timestamptz",
    oids: [1184],
    text: '2024-02-29 11:45:01.5+00',
    check: (v) => expect((v as Date).getTime()).toBe(TS_UTC),
  },
  {
    name: 'uuid',
    sql: "'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid",
    oids: [2950],
    text: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    check: (v) => expect(v).toBe('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
  },
  { name: 'NULL int4', sql: 'NULL::int4', oids: [23], text: null as unknown as string, check: (v) => expect(v).toBeNull() },
];

describe('types in text (simple query)', () => {
  test.each(TYPE_CASES.map((tc) => [tc.name, tc] as const))('%s: OID and exact text', async (_n, tc) => {
    const r = await raw(`SELECT ${tc.sql} AS v`);
    expect(r.rows).toEqual([{ v: tc.text }]);
    const oid = r.fields[0]!.dataTypeID;
    expect(tc.oids.includes(oid) ? 'ok' : `type OID ${oid}, expected ${tc.oids.join(' or ')}`).toBe('ok');
    expect(r.fields[0]!.format).toBe('text');
  });

  test.each(TYPE_CASES.map((tc) => [tc.name, tc] as const))('%s: decoded by node-postgres', async (_n, tc) => {
    const r = await c.query(`SELECT ${tc.sql} AS v`);
    expect(r.rows.length).toBe(1);
    tc.check(r.rows[0].v);
  });

  test('all types in one row', async () => {
    const r = await c.query(`SELECT ${TYPE_CASES.map((tc, i) => `${tc.sql} AS c${i}`).join(', ')}`);
    TYPE_CASES.forEach((tc, i) => tc.check(r.rows[0][`c${i}`]));
  });

  test('timestamptz follows the session TimeZone', async () => {
    const c2 = await connect(t);
    try {
      await c2.query("SET TimeZone = 'America/New_York'");
      const r = await c2.query({ text: "SELECT '2024-02-29 13:45:01.5+02'::timestamptz AS v", types: rawTypes });
      expect(r.rows[0].v).toBe('2024-02-29 06:45:01.5-05');
      const s = await c2.query('SHOW TimeZone');
      expect(Object.values(s.rows[0])[0]).toBe('America/New_York');
    } finally {
      await c2.end();
    }
  });
});

/** Parameter round trips: the JS value node-postgres sends and the text PostgreSQL prints back. */
const PARAM_CASES: { name: string; cast: string; value: unknown; text: string | null }[] = [
  { name: 'int2', cast: 'int2', value: -32768, text: '-32768' },
  { name: 'int4', cast: 'int4', value: 2147483647, text: '2147483647' },
  { name: 'int8', cast: 'int8', value: 9223372036854775807n, text: '9223372036854775807' },
  { name: 'float4', cast: 'float4', value: 1.5, text: '1.5' },
  { name: 'float8', cast: 'float8', value: PI, text: '3.141592653589793' },
  { name: 'numeric', cast: 'numeric', value: '12345.678', text: '12345.678' },
  // 29 significant digits: a float8 on the way would show as 1.2345678901234568e+19.
  { name: 'numeric wide', cast: 'numeric', value: '12345678901234567890.123456789', text: '12345678901234567890.123456789' },
  { name: 'numeric scale kept', cast: 'numeric', value: '-0.50', text: '-0.50' },
  { name: 'bool', cast: 'bool', value: true, text: 't' },
  { name: 'bool false', cast: 'bool', value: false, text: 'f' },
  { name: 'text', cast: 'text', value: 'héllo wörld ✓', text: 'héllo wörld ✓' },
  { name: 'text with quotes', cast: 'text', value: "O'Brien'; DROP TABLE x; --", text: "O'Brien'; DROP TABLE x; --" },
  { name: 'varchar', cast: 'varchar', value: 'abc', text: 'abc' },
  // node-postgres sends a Buffer parameter in binary format
  { name: 'bytea (binary param)', cast: 'bytea', value: Buffer.from([0x00, 0xff, 0x10]), text: '\\x00ff10' },
  { name: 'date', cast: 'date', value: '2024-02-29', text: '2024-02-29' },
  { name: 'timestamp', cast: 'timestamp', value: '2024-02-29 13:45:01.123456', text: '2024-02-29 13:45:01.123456' },
  { name: 'timestamptz (JS Date)', cast: 'timestamptz', value: new Date(TS_UTC), text: '2024-02-29 11:45:01.5+00' },
  { name: 'uuid', cast: 'uuid', value: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', text: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' },
  { name: 'NULL', cast: 'int4', value: null, text: null },
];

describe('types through parameters (extended query)', () => {
  test('SELECT $1::int4 + 1', async () => {
    const r = await c.query('SELECT $1::int4 + 1 AS v', [41]);
    expect(r.rows).toEqual([{ v: 42 }]);
    expect(r.fields[0]!.dataTypeID).toBe(23);
  });

  test.each(PARAM_CASES.map((p) => [p.name, p] as const))('%s round trip', async (_n, p) => {
    const r = await raw(`SELECT $1::${p.cast} AS v`, [p.value]);
    expect(r.rows).toEqual([{ v: p.text }]);
  });

  test.each([
    ['int8 arithmetic', 'SELECT $1::int8 * 2 AS v', [4611686018427387903n], '9223372036854775806'],
    ['float8 arithmetic', 'SELECT $1::float8 / 4 AS v', [10], '2.5'],
    ['numeric arithmetic', 'SELECT $1::numeric * 2 AS v', ['12345.678'], '24691.356'],
    ['bool negation', 'SELECT NOT $1::bool AS v', [true], 'f'],
    ['text concat', "SELECT $1::text || '!' AS v", ['ab'], 'ab!'],
    ['date + 1', 'SELECT $1::date + 1 AS v', ['2024-02-28'], '2024-02-29'],
    ['bytea length', 'SELECT length($1::bytea) AS v', [Buffer.from('hello')], '5'],
    ['two params', 'SELECT $1::int4 + $2::int4 AS v', [20, 22], '42'],
    ['param in WHERE (int)', 'SELECT region AS v FROM sales.orders WHERE id = $1', [2], 'US'],
    ['param in WHERE (text)', 'SELECT amount AS v FROM sales.orders WHERE region = $1 AND id = 1', ['EU'], '100.00'],
  ] as const)('%s', async (_n, sql, values, text) => {
    const r = await raw(sql, [...values]);
    expect(r.rows).toEqual([{ v: text }]);
  });

  test('named prepared statement reused with new values', async () => {
    for (const n of [41, 42, -7]) {
      const r = await c.query({ name: 'np_q1', text: 'SELECT $1::int + 1 AS v', values: [n] });
      expect(r.rows).toEqual([{ v: n + 1 }]);
    }
  });

  test('no rows with a parameter', async () => {
    const r = await c.query('SELECT id FROM sales.orders WHERE id = $1', [-1]);
    expect(r.rows).toEqual([]);
    expect(r.rowCount).toBe(0);
    expect(r.command).toBe('SELECT');
  });
});

describe('several statements in one message, empty query', () => {
  test('results of all statements', async () => {
    const rs = (await c.query("SELECT 1 AS a; SELECT 'x'::text AS b, 2 AS c")) as unknown as pg.QueryResult[];
    expect(Array.isArray(rs)).toBe(true);
    expect(rs.length).toBe(2);
    expect(rs[0]!.rows).toEqual([{ a: 1 }]);
    expect(rs[1]!.rows).toEqual([{ b: 'x', c: 2 }]);
  });

  test('command tags of mixed statements', async () => {
    const rs = (await c.query("SET application_name = 'it'; SELECT id FROM sales.orders WHERE id IN (1,2) ORDER BY id; SHOW application_name")) as unknown as pg.QueryResult[];
    expect(rs.map((r) => r.command)).toEqual(['SET', 'SELECT', 'SHOW']);
    expect(rs[1]!.rows).toEqual([{ id: 1 }, { id: 2 }]);
    expect(rs[1]!.rowCount).toBe(2);
    expect(rs[2]!.rows).toEqual([{ application_name: 'it' }]);
  });

  test('an error in the middle stops the rest, the session recovers', async () => {
    const e = await rejection(c.query('SELECT 1; SELECT * FROM no_such_table_x; SELECT 2'));
    expect(e.code).toBe('42P01');
    const r = await c.query('SELECT 3 AS v');
    expect(r.rows).toEqual([{ v: 3 }]);
  });

  test('empty query', async () => {
    const r = await c.query('');
    expect(r.rows).toEqual([]);
    expect(r.command).toBeNull();
  });

  test('whitespace and comment only query', async () => {
    const r = await c.query('  -- nothing here\n ');
    expect(r.rows).toEqual([]);
    expect(r.command).toBeNull();
  });
});

describe('errors and recovery', () => {
  test('unknown table: 42P01, then the same session works', async () => {
    const e = await rejection(c.query('SELECT * FROM no_such_table_y'));
    expect(e.code).toBe('42P01');
    expect(e.message).toBe('relation "no_such_table_y" does not exist');
    expect((await c.query('SELECT 1 AS v')).rows).toEqual([{ v: 1 }]);
  });

  test('bad parameter value (extended): 22P02, then the same session works', async () => {
    const e = await rejection(c.query('SELECT $1::int4 AS v', ['not-a-number']));
    expect(e.code).toBe('22P02');
    expect((await c.query('SELECT $1::int4 AS v', [5])).rows).toEqual([{ v: 5 }]);
  });

  test('division by zero: 22012', async () => {
    const e = await rejection(c.query('SELECT 1 / 0'));
    expect(e.code).toBe('22012');
    expect((await c.query('SELECT 1 AS v')).rows).toEqual([{ v: 1 }]);
  });

  test('unparseable SQL: 42601 with the position of the offending token', async () => {
    const sql = 'SELECT * FROM WHERE id = 1';
    const e = await rejection(c.query(sql));
    expect(e.code).toBe('42601');
    expect(e.message).toBe('syntax error at or near "WHERE"');
    expect(e.position).toBe(String(sql.indexOf('WHERE') + 1));
  });

  test('unparseable SQL at the start: position 1', async () => {
    const e = await rejection(c.query('SELEC 1'));
    expect(e.code).toBe('42601');
    expect(e.position).toBe('1');
    expect((await c.query('SELECT 1 AS v')).rows).toEqual([{ v: 1 }]);
  });

  test('unparseable SQL through the extended protocol: 42601', async () => {
    const e = await rejection(c.query('SELECT $1 FROM FROM', [1]));
    expect(e.code).toBe('42601');
    expect(e.position).toBe(String('SELECT $1 FROM FROM'.lastIndexOf('FROM') + 1));
    expect((await c.query('SELECT 1 AS v')).rows).toEqual([{ v: 1 }]);
  });
});

describe('transactions', () => {
  test('BEGIN … COMMIT', async () => {
    expect((await c.query('BEGIN')).command).toBe('BEGIN');
    const r = await raw('SELECT amount FROM sales.orders WHERE id = 1');
    expect(r.rows).toEqual([{ amount: '100.00' }]);
    expect((await c.query('COMMIT')).command).toBe('COMMIT');
  });

  test('BEGIN … ROLLBACK', async () => {
    await c.query('BEGIN');
    expect((await c.query('SELECT 1 AS v')).rows).toEqual([{ v: 1 }]);
    expect((await c.query('ROLLBACK')).command).toBe('ROLLBACK');
  });

  test('error in a transaction: 25P02 until ROLLBACK, then normal', async () => {
    await c.query('BEGIN');
    await rejection(c.query('SELECT * FROM no_such_table_z'));
    const e = await rejection(c.query('SELECT 1'));
    expect(e.code).toBe('25P02');
    expect(e.message).toBe('current transaction is aborted, commands ignored until end of transaction block');
    expect((await c.query('ROLLBACK')).command).toBe('ROLLBACK');
    expect((await c.query('SELECT 1 AS v')).rows).toEqual([{ v: 1 }]);
  });

  test('COMMIT of a failed transaction reports ROLLBACK', async () => {
    await c.query('BEGIN');
    await rejection(c.query('SELECT * FROM no_such_table_c'));
    expect((await c.query('COMMIT')).command).toBe('ROLLBACK');
    expect((await c.query('SELECT 1 AS v')).rows).toEqual([{ v: 1 }]);
  });

  test('extended-protocol queries inside a transaction', async () => {
    await c.query('BEGIN');
    const r = await c.query('SELECT region FROM sales.orders WHERE id = $1', [1]);
    expect(r.rows).toEqual([{ region: 'EU' }]);
    await c.query('COMMIT');
  });
});

describe('cancel and statement_timeout', () => {
  test('CancelRequest from a second connection: 57014, session usable afterwards', async () => {
    const victim = await connect(t);
    try {
      let settle: (v: { err?: Error & { code?: string }; ok?: boolean }) => void = () => {};
      const outcome = new Promise<{ err?: Error & { code?: string }; ok?: boolean }>((resolve) => (settle = resolve));
      // a callback, not 'error'/'end' events: with query_timeout set pg reports through the callback
      const query = new pg.Query(LONG_QUERY, (err) => settle(err ? { err } : { ok: true }));
      const started = Date.now();
      victim.query(query);
      await sleep(700);
      // pg's own cancel: opens a new connection and sends CancelRequest(pid, secret)
      const canceller = new pg.Client(pgConfig(t));
      (canceller as unknown as { cancel(c: pg.Client, q: pg.Query): void }).cancel(victim, query);
      const res = await Promise.race([outcome, sleep(15000).then(() => ({ timeout: true }) as const)]);
      expect(res).not.toHaveProperty('timeout');
      const { err, ok } = res as { err?: Error & { code?: string }; ok?: boolean };
      expect(ok).toBeUndefined();
      expect(err?.code).toBe('57014');
      expect(err?.message).toBe('canceling statement due to user request');
      expect(Date.now() - started).toBeLessThan(15000);
      expect((await victim.query('SELECT 1 AS v')).rows).toEqual([{ v: 1 }]);
    } finally {
      await victim.end().catch(() => {});
    }
  }, 40000);

  test('CancelRequest with a wrong secret cancels nothing', async () => {
    // the query ends by statement_timeout (after 2 s), not by the bogus cancel sent at 0.3 s
    const victim = await connect(t);
    try {
      const v = victim as unknown as { processID: number; secretKey: number };
      expect(typeof v.processID).toBe('number');
      await victim.query("SET statement_timeout = '2s'");
      const started = Date.now();
      const q = rejection(victim.query(LONG_QUERY));
      await sleep(300);
      const rc = await RawConn.connect(t.host, t.port);
      rc.send(fe.cancel(v.processID, (v.secretKey ^ 0x5a5a5a5a) | 0));
      expect(await rc.drainUntilClosed(5000)).toEqual([]);
      rc.close();
      const e = await q;
      expect(e.code).toBe('57014');
      expect(e.message).toBe('canceling statement due to statement timeout');
      expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
      await victim.query('SET statement_timeout = 0');
      expect((await victim.query('SELECT 1 AS v')).rows).toEqual([{ v: 1 }]);
    } finally {
      await victim.end().catch(() => {});
    }
  }, 30000);

  test('statement_timeout interrupts a long query: 57014, then the session works', async () => {
    const c2 = await connect(t);
    try {
      await c2.query("SET statement_timeout = '500ms'");
      const started = Date.now();
      const e = await rejection(c2.query(LONG_QUERY));
      expect(e.code).toBe('57014');
      expect(e.message).toBe('canceling statement due to statement timeout');
      expect(Date.now() - started).toBeLessThan(10000);
      await c2.query('SET statement_timeout = 0');
      expect((await c2.query('SELECT 1 AS v')).rows).toEqual([{ v: 1 }]);
    } finally {
      await c2.end().catch(() => {});
    }
  }, 30000);
});

describe('refused statements', () => {
  const REFUSED = ['42501', '0A000'];

  test('CREATE TABLE where the user may not create: 42501; with no schema to create in: 3F000, as PostgreSQL', async () => {
    const e = await rejection(c.query('CREATE TABLE sales.x_it(a int)'));
    expect([e.code, e.message]).toEqual(['42501', 'permission denied for schema sales']);
    const nowhere = await rejection(c.query('CREATE TABLE x_it(a int)'));
    expect([nowhere.code, nowhere.message]).toEqual(['3F000', 'no schema has been selected to create in']);
  });

  test('INSERT / DELETE / DROP on sales.orders are refused and the data is intact', async () => {
    for (const sql of [
      "INSERT INTO sales.orders VALUES (3, '333-33-3333', 1.00, 'EU')",
      'DELETE FROM sales.orders',
      "UPDATE sales.orders SET region = 'XX'",
      'DROP TABLE sales.orders',
    ]) {
      const e = await rejection(c.query(sql));
      expect({ sql, code: e.code }).toEqual({ sql, code: expect.stringMatching(/^(42501|0A000)$/) });
    }
    const r = await raw('SELECT id, region FROM sales.orders ORDER BY id');
    expect(r.rows.slice(0, 2)).toEqual([
      { id: '1', region: 'EU' },
      { id: '2', region: 'US' },
    ]);
  });

  test('COPY … TO a server file is refused and writes nothing', async () => {
    const file = path.join(os.tmpdir(), `lakegate-it-copy-${process.pid}-${Date.now()}.csv`);
    const e = await rejection(c.query(`COPY sales.orders TO '${file}'`));
    expect(REFUSED).toContain(e.code);
    expect(fs.existsSync(file)).toBe(false);
  });

  test.each([
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM read_csv_auto('/etc/passwd')",
    "SELECT * FROM '/etc/passwd'",
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT pg_read_file('/etc/passwd')",
    "ATTACH '/tmp/lakegate-it.db' AS x",
    'INSTALL httpfs',
    'LOAD httpfs',
    "SET memory_limit = '1GB'",
    "SELECT * FROM duckdb_settings()",
  ])('%s → an error, and nothing leaks', async (sql) => {
    const e = await rejection(raw(sql));
    expect(e.code).toMatch(/^[0-9A-Z]{5}$/);
    expect(e.message).not.toMatch(/root:|\/bin\/(ba)?sh/);
    expect((await c.query('SELECT 1 AS v')).rows).toEqual([{ v: 1 }]);
  });
});

describe('bad input disturbs no other session', () => {
  test('wrong password, unknown database, syntax error, refused statement, malformed frame: a bystander transaction carries on', async () => {
    const bystander = await connect(t, { user: 'carol', password: 'carol' });
    try {
      await bystander.query('BEGIN');
      expect((await bystander.query('SELECT region FROM sales.orders WHERE id = 1')).rows).toEqual([{ region: 'EU' }]);

      expect((await rejection(connect(t, { password: 'nope' }))).code).toBe('28P01');
      expect((await rejection(connect(t, { database: 'nosuchdb' }))).code).toBe('3D000');
      const other = await connect(t, { user: 'dave', password: 'dave' });
      try {
        expect((await rejection(other.query('SELECT FROM FROM'))).code).toBe('42601');
        // dave may not load sales: to him it is a schema that does not exist
        expect((await rejection(other.query('CREATE TABLE sales.x_by(a int)'))).code).toBe('3F000');
      } finally {
        await other.end();
      }
      const raw = await RawConn.connect(t.host, t.port);
      await raw.startup('bob', 'demo', 'bob');
      raw.send(frame('y', Buffer.from('junk')));
      await raw.drainUntilClosed(10000);
      raw.close();

      const r = await bystander.query({ text: 'SELECT id, amount FROM sales.orders WHERE id = 2', types: rawTypes });
      expect(r.rows).toEqual([{ id: '2', amount: '250.50' }]);
      expect((await bystander.query('COMMIT')).command).toBe('COMMIT');
      expect(t.alive()).toBe(true);
    } finally {
      await bystander.end().catch(() => {});
    }
  });

  test('eight concurrent sessions get their own results', async () => {
    // users who read both demo rows (dave reads none, erin one: tests/integration/dataGate.test.ts)
    const users = ['alice', 'bob', 'carol', 'alice', 'bob', 'carol', 'alice', 'bob'];
    const clients = await Promise.all(users.map((u) => connect(t, { user: u, password: u })));
    try {
      const results = await Promise.all(
        clients.map((cl, i) => cl.query('SELECT $1::int4 * 1000 + count(*)::int4 AS v, current_user AS u FROM sales.orders WHERE id <= 2', [i])),
      );
      expect(results.map((r) => r.rows[0])).toEqual(users.map((u, i) => ({ v: i * 1000 + 2, u })));
    } finally {
      await Promise.all(clients.map((cl) => cl.end().catch(() => {})));
    }
  });
});
