/**
 * Session-level statements through psql, compared with what the same psql prints
 * for the same statements on a real PostgreSQL holding the demo rows
 * (tests/support/realPostgres.ts): COPY … TO STDOUT in text, CSV and binary
 * (byte for byte, through psql's \copy into a file), SQL cursors (DECLARE / FETCH /
 * MOVE / CLOSE), PREPARE / EXECUTE / DEALLOCATE, transaction isolation and SET
 * LOCAL, and the errors of each (messages and SQLSTATEs). Masks and row filters are
 * checked in COPY and cursor output against values computed here from the demo
 * rows, with carol (MASK_NONE) as the control.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ORDERS, startTarget, type Target } from '../support/target.js';
import { startPostgres, type RealPostgres } from '../support/realPostgres.js';
import { psqlEnv, run, type RunResult } from '../support/clients.js';

let t: Target;
let ref: RealPostgres;
let tmp: string;

const DEMO_SQL = `
CREATE DATABASE demo;
\\connect demo
CREATE SCHEMA sales;
CREATE TABLE sales.orders(id integer, ssn text, amount decimal(10,2), region text);
INSERT INTO sales.orders VALUES (1, '111-11-1111', 100.00, 'EU'), (2, '222-22-2222', 250.50, 'US');
CREATE ROLE analyst LOGIN;
GRANT USAGE ON SCHEMA sales TO analyst;
GRANT SELECT ON sales.orders TO analyst;
`;

/** MASK_SHOW_LAST_4 of each demo ssn, from the stored value: letters and digits but the last four become 'x'. */
const LAST4 = ORDERS.map((o) => o.ssn.slice(0, -4).replace(/[A-Za-z0-9]/g, 'x') + o.ssn.slice(-4));
const LONG_QUERY =
  'SELECT count(*) FROM generate_series(1, 100000) a(a) CROSS JOIN generate_series(1, 100000) b(b) WHERE (a.a + b.b) % 7 = 3';

const env = (host: string, port: number, user: string, password: string): NodeJS.ProcessEnv => psqlEnv(tmp, host, port, user, password);

const PSQL = ['-X', '-w', '-P', 'pager=off'];

/** psql on lakegate (carol by default, who reads stored values). */
function lg(args: string[], opts: { user?: string; input?: string } = {}): Promise<RunResult> {
  const user = opts.user ?? 'carol';
  return run('psql', [...PSQL, ...args], { env: env(t.host, t.port, user, user), timeoutMs: 30000, input: opts.input });
}

/** psql on the reference PostgreSQL (postgres, or the non-superuser analyst). */
function pg(args: string[], opts: { user?: string; input?: string } = {}): Promise<RunResult> {
  return run('psql', [...PSQL, ...args], { env: env(ref.host, ref.port, opts.user ?? 'postgres', ''), timeoutMs: 30000, input: opts.input });
}

/** The same psql invocation on both; stdout, stderr and exit code must match. */
async function same(args: string[], opts: { input?: string; pgUser?: string } = {}): Promise<RunResult> {
  const [a, b] = await Promise.all([lg(args, { input: opts.input }), pg(args, { input: opts.input, user: opts.pgUser })]);
  expect({ stdout: a.stdout, stderr: a.stderr, code: a.code }).toEqual({ stdout: b.stdout, stderr: b.stderr, code: b.code });
  return a;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-session-'));
  [t, ref] = await Promise.all([startTarget(), startPostgres()]);
  const seeded = await run('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', 'postgres'], {
    env: { ...env(ref.host, ref.port, 'postgres', ''), PGDATABASE: 'postgres' },
    input: DEMO_SQL,
    timeoutMs: 30000,
  });
  if (seeded.code !== 0) throw new Error(`seeding the reference PostgreSQL failed: ${seeded.stderr}`);
}, 120000);

afterAll(async () => {
  await ref?.stop();
  await t?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const TRICKY =
  "SELECT * FROM (VALUES (1, 'a\"b', NULL::text, E'x\\ty\\\\z\\nw\\r', ''), (2, ',;', 'NULL', E'\\\\.', ' lead|')) AS v(n, a, b, c, d) ORDER BY n";
const TYPED =
  "SELECT 1.5::float8 AS f, '2024-02-29'::date AS d, true AS b, 12.340::numeric(6,3) AS n, '\\x0aff'::bytea AS by, " +
  "9007199254740993::int8 AS i8, '2024-02-29 23:59:59.5'::timestamp AS ts, NULL::int4 AS nul";

describe('COPY … TO STDOUT, as PostgreSQL prints it', () => {
  test.each([
    ['text', `COPY (${TRICKY}) TO STDOUT`],
    ['text with HEADER', `COPY (${TRICKY}) TO STDOUT WITH (FORMAT text, HEADER)`],
    ['text, delimiter |', `COPY (${TRICKY}) TO STDOUT WITH (DELIMITER '|', NULL 'nil')`],
    ['csv with HEADER', `COPY (${TRICKY}) TO STDOUT WITH (FORMAT csv, HEADER)`],
    ['csv, ; NULL and FORCE_QUOTE *', `COPY (${TRICKY}) TO STDOUT WITH (FORMAT csv, DELIMITER ';', NULL 'NULL', FORCE_QUOTE *)`],
    ['csv, quote and escape', `COPY (${TRICKY}) TO STDOUT WITH (FORMAT csv, QUOTE '''', ESCAPE '\\')`],
    ['old syntax CSV HEADER', `COPY (${TRICKY}) TO STDOUT CSV HEADER`],
    ['typed values, text', `COPY (${TYPED}) TO STDOUT`],
    ['typed values, csv', `COPY (${TYPED}) TO STDOUT (FORMAT csv, HEADER true)`],
    ['a table', 'COPY sales.orders TO STDOUT'],
    ['a table with columns, csv', 'COPY sales.orders (region, id) TO STDOUT (FORMAT csv, HEADER)'],
    ['an empty result', 'COPY (SELECT 1 AS a WHERE false) TO STDOUT (FORMAT csv, HEADER)'],
  ])('%s', async (_name, sql) => {
    const r = await same(['-c', sql]);
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(0);
  });

  test('psql \\copy (query) to stdout csv header', async () => {
    const r = await same(['-c', `\\copy (${TYPED}) to stdout with csv header`]);
    expect(r.stdout.split('\n')[0]).toBe('f,d,b,n,by,i8,ts,nul');
  });

  test.each([
    ['typed values', `(${TYPED})`],
    ['a table', 'sales.orders'],
    ['an empty result', '(SELECT 1::int4 AS a, NULL::text AS b WHERE false)'],
  ])('binary, byte for byte (\\copy into a file): %s', async (name, source) => {
    const files = ['lg', 'pg'].map((side) => path.join(tmp, `${side}-${name.replace(/\W/g, '')}.bin`));
    const [a, b] = await Promise.all([
      lg(['-v', 'ON_ERROR_STOP=1', '-c', `\\copy ${source} to '${files[0]}' with (format binary)`]),
      pg(['-v', 'ON_ERROR_STOP=1', '-c', `\\copy ${source} to '${files[1]}' with (format binary)`]),
    ]);
    expect([a.code, a.stderr, b.code, b.stderr]).toEqual([0, '', 0, '']);
    const [la, pa] = files.map((f) => fs.readFileSync(f));
    expect(la.subarray(0, 11).toString('latin1')).toBe('PGCOPY\n\xff\r\n\0');
    expect(la.toString('hex')).toBe(pa!.toString('hex'));
  });

  test('the errors of COPY options', async () => {
    const input = [
      "COPY (SELECT 1) TO STDOUT (FORMAT xml);",
      'COPY (SELECT 1) TO STDOUT (FORMAT binary, DELIMITER \',\');',
      "COPY (SELECT 1) TO STDOUT (DELIMITER ',,');",
      "COPY (SELECT 1) TO STDOUT (QUOTE '\"');",
      'COPY (SELECT 1) TO STDOUT (FORMAT csv, HEADER, HEADER);',
      'COPY (SELECT 1) TO STDOUT (BOGUS 1);',
    ].join('\n');
    await same(['-v', 'VERBOSITY=sqlstate', '-f', '-'], { input });
  });

  test('COPY to a file or a program is refused as for a non-superuser', async () => {
    const input = "COPY (SELECT 1) TO '/tmp/lakegate-copy-out';\nCOPY sales.orders TO PROGRAM 'cat';\nCOPY sales.orders FROM '/etc/hostname';\n";
    await same(['-f', '-'], { input, pgUser: 'analyst' });
    await same(['-v', 'VERBOSITY=sqlstate', '-f', '-'], { input, pgUser: 'analyst' });
    expect(fs.existsSync('/tmp/lakegate-copy-out')).toBe(false);
  });

  test('COPY FROM STDIN into a table the user may not write is refused with 42501 before any row is read', async () => {
    const r = await lg(['-v', 'VERBOSITY=sqlstate', '-c', 'COPY sales.orders FROM STDIN']);
    expect(r.stderr.trim()).toBe('ERROR:  42501');
  });
});

describe('masks and row filters hold in COPY and cursors', () => {
  test('COPY of the table: alice sees masked ssn, carol (control) the stored one', async () => {
    const sql = 'COPY (SELECT id, ssn FROM sales.orders ORDER BY id) TO STDOUT (FORMAT csv)';
    const carol = await lg(['-c', sql]);
    expect(carol.stdout).toBe(ORDERS.map((o) => `${o.id},${o.ssn}\n`).join(''));
    const alice = await lg(['-c', sql], { user: 'alice' });
    expect(alice.stdout).toBe(ORDERS.map((o, i) => `${o.id},${LAST4[i]}\n`).join(''));
    expect(alice.stdout).not.toContain(ORDERS[0].ssn);
  });

  test('\\copy of the whole table as erin: the row filter and the mask', async () => {
    const erin = await lg(['-c', '\\copy sales.orders to stdout'], { user: 'erin' });
    expect(erin.stdout).toBe(`1\t${LAST4[0]}\t100.00\tEU\n`);
  });

  test('a cursor as alice fetches masked values; carol (control) the stored ones', async () => {
    const input = 'BEGIN;\nDECLARE c CURSOR FOR SELECT ssn FROM sales.orders ORDER BY id;\nFETCH ALL FROM c;\nCOMMIT;\n';
    expect((await lg(['-A', '-t', '-f', '-'], { input })).stdout).toBe(`BEGIN\nDECLARE CURSOR\n${ORDERS.map((o) => o.ssn).join('\n')}\nCOMMIT\n`);
    expect((await lg(['-A', '-t', '-f', '-'], { input, user: 'alice' })).stdout).toBe(`BEGIN\nDECLARE CURSOR\n${LAST4.join('\n')}\nCOMMIT\n`);
  });

  test('a SCROLL cursor spools what the user may see: alice masked, erin filtered, carol (control) stored, fetched backward', async () => {
    const input = 'BEGIN;\nDECLARE c SCROLL CURSOR FOR SELECT ssn FROM sales.orders ORDER BY id;\nFETCH LAST FROM c;\nFETCH PRIOR FROM c;\nCOMMIT;\n';
    const out = (ssns: string[]) => `BEGIN\nDECLARE CURSOR\n${ssns.join('\n')}\nCOMMIT\n`;
    expect((await lg(['-A', '-t', '-f', '-'], { input })).stdout).toBe(out([ORDERS[1].ssn, ORDERS[0].ssn]));
    expect((await lg(['-A', '-t', '-f', '-'], { input, user: 'alice' })).stdout).toBe(out([LAST4[1]!, LAST4[0]!]));
    // erin's row filter leaves the EU row only: LAST is that row, PRIOR is before it (no row)
    expect((await lg(['-A', '-t', '-f', '-'], { input, user: 'erin' })).stdout).toBe(out([LAST4[0]!]));
  });

  test('dave (no role) cannot open a cursor or COPY the table: it does not exist for him', async () => {
    const r = await lg(['-c', 'COPY sales.orders TO STDOUT'], { user: 'dave' });
    expect(r.stderr).toContain('relation "sales.orders" does not exist');
  });
});

describe('cursors, as PostgreSQL answers them', () => {
  test('DECLARE, FETCH n / NEXT / ALL / FORWARD, MOVE, CLOSE', async () => {
    const input = [
      'BEGIN;',
      'DECLARE c NO SCROLL CURSOR FOR SELECT i, i * 10 AS t FROM generate_series(1, 20) AS g(i) ORDER BY i;',
      'FETCH 3 FROM c;',
      'FETCH NEXT IN c;',
      'MOVE FORWARD 5 c;',
      'FETCH FORWARD 2 c;',
      'FETCH c;',
      'MOVE ALL IN c;',
      'FETCH ALL FROM c;',
      'CLOSE c;',
      'DECLARE d CURSOR WITHOUT HOLD FOR SELECT region FROM sales.orders ORDER BY id;',
      'FETCH ALL d;',
      'CLOSE ALL;',
      'COMMIT;',
      'DECLARE h CURSOR WITH HOLD FOR SELECT id FROM sales.orders ORDER BY id;',
      'FETCH 1 FROM h;',
      'BEGIN;',
      'FETCH 1 FROM h;',
      'COMMIT;',
      'FETCH 1 FROM h;',
      'CLOSE h;',
      'DECLARE m CURSOR FOR SELECT 1; FETCH m;',
    ].join('\n');
    const r = await same(['-f', '-'], { input });
    expect(r.stdout).toContain('MOVE 5');
  });

  test('errors: 34000, 25P01, 42P03, backward scan, and the session goes on', async () => {
    const input = [
      'FETCH 1 FROM nope;',
      'CLOSE nope;',
      'MOVE 1 IN nope;',
      'DECLARE c CURSOR FOR SELECT 1;',
      'BEGIN;',
      'DECLARE c CURSOR FOR SELECT 1;',
      'DECLARE c CURSOR FOR SELECT 2;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE c NO SCROLL CURSOR FOR SELECT 1;',
      'FETCH BACKWARD 1 FROM c;',
      'ROLLBACK;',
      'SELECT 1 AS after;',
    ].join('\n');
    await same(['-f', '-'], { input });
    await same(['-v', 'VERBOSITY=sqlstate', '-f', '-'], { input });
  });

  test('SCROLL cursors: FETCH / MOVE BACKWARD, PRIOR, FIRST, LAST, ABSOLUTE, RELATIVE, 0 and ALL, past either end; NO SCROLL and plain cursors refuse going back (55000)', async () => {
    const input = [
      'BEGIN;',
      'DECLARE c SCROLL CURSOR FOR SELECT i, i * 10 AS t FROM generate_series(1, 10) AS g(i) ORDER BY i;',
      'FETCH 3 FROM c;',
      'FETCH BACKWARD 2 FROM c;',
      'FETCH PRIOR FROM c;',
      'FETCH PRIOR FROM c;',
      'FETCH NEXT FROM c;',
      'FETCH LAST FROM c;',
      'FETCH NEXT FROM c;',
      'FETCH PRIOR FROM c;',
      'FETCH FIRST FROM c;',
      'FETCH ABSOLUTE 4 FROM c;',
      'FETCH ABSOLUTE -2 FROM c;',
      'FETCH ABSOLUTE 0 FROM c;',
      'FETCH ABSOLUTE 11 FROM c;',
      'FETCH ABSOLUTE -11 FROM c;',
      'FETCH RELATIVE 3 FROM c;',
      'FETCH RELATIVE -1 FROM c;',
      'FETCH RELATIVE 0 FROM c;',
      'FETCH FORWARD 0 FROM c;',
      'FETCH BACKWARD 0 FROM c;',
      'FETCH RELATIVE 20 FROM c;',
      'FETCH RELATIVE 0 FROM c;',
      'FETCH BACKWARD ALL FROM c;',
      'FETCH FORWARD ALL FROM c;',
      'FETCH -3 FROM c;',
      'FETCH FORWARD -2 FROM c;',
      'FETCH BACKWARD -2 FROM c;',
      'MOVE ABSOLUTE 5 IN c;',
      'FETCH c;',
      'MOVE BACKWARD 2 IN c;',
      'FETCH c;',
      'MOVE LAST IN c;',
      'MOVE NEXT IN c;',
      'MOVE NEXT IN c;',
      'MOVE FORWARD 0 IN c;',
      'MOVE PRIOR IN c;',
      'MOVE FORWARD 0 IN c;',
      'MOVE BACKWARD ALL IN c;',
      'MOVE RELATIVE -1 IN c;',
      'MOVE FORWARD 100 IN c;',
      'MOVE RELATIVE 2 IN c;',
      'MOVE FIRST IN c;',
      'MOVE ABSOLUTE -1 IN c;',
      'FETCH c;',
      'CLOSE c;',
      'DECLARE e SCROLL CURSOR FOR SELECT 1 AS a WHERE false;',
      'FETCH LAST FROM e;',
      'FETCH PRIOR FROM e;',
      'FETCH ABSOLUTE 1 FROM e;',
      'MOVE BACKWARD ALL IN e;',
      'DECLARE d SCROLL CURSOR FOR SELECT 1 AS a, 2 AS a, \'x\'::text AS b UNION ALL SELECT 3, 4, NULL;',
      'FETCH LAST FROM d;',
      'FETCH BACKWARD ALL FROM d;',
      'DECLARE n NO SCROLL CURSOR FOR SELECT 1;',
      'FETCH PRIOR FROM n;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE p CURSOR FOR SELECT count(*) FROM generate_series(1, 3);',
      'FETCH NEXT FROM p;',
      'FETCH BACKWARD 1 FROM p;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE z SCROLL CURSOR FOR SELECT 1 / (i - 3) FROM generate_series(1, 5) AS g(i);',
      'FETCH LAST FROM z;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE h SCROLL CURSOR WITH HOLD FOR SELECT i FROM generate_series(1, 4) AS g(i) ORDER BY i;',
      'FETCH 2 FROM h;',
      'COMMIT;',
      'FETCH PRIOR FROM h;',
      'FETCH LAST FROM h;',
      'CLOSE h;',
    ].join('\n');
    const r = await same(['-f', '-'], { input });
    // a control that the rows came at all: after FETCH 3, BACKWARD 2 gives rows 2 and 1 in that order
    expect(r.stdout).toContain(' 2 | 20\n 1 | 10\n(2 rows)');
    await same(['-v', 'VERBOSITY=sqlstate', '-f', '-'], { input });
  });

  test('NO SCROLL cursors: ABSOLUTE / RELATIVE ahead pass over rows, FETCH 0 / MOVE 0, and 55000 wherever PostgreSQL would go back or rewind', async () => {
    const input = [
      'BEGIN;',
      'DECLARE c NO SCROLL CURSOR FOR SELECT i FROM generate_series(1, 10) AS g(i) ORDER BY i;',
      'FETCH ABSOLUTE 3 FROM c;',
      'FETCH RELATIVE 2 FROM c;',
      'MOVE RELATIVE 0 IN c;',
      'MOVE FORWARD 0 IN c;',
      'MOVE BACKWARD 0 IN c;',
      'FETCH ABSOLUTE 7 FROM c;',
      'MOVE RELATIVE 2 IN c;',
      'FETCH 1 FROM c;',
      'FETCH ABSOLUTE 20 FROM c;',
      'FETCH 0 FROM c;',
      'MOVE 0 IN c;',
      'FETCH RELATIVE 1 FROM c;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE c NO SCROLL CURSOR FOR SELECT i FROM generate_series(1, 10) AS g(i) ORDER BY i;',
      'FETCH ABSOLUTE 0 FROM c;',
      'FETCH 0 FROM c;',
      'MOVE 0 IN c;',
      'FETCH FIRST FROM c;',
      'FETCH RELATIVE 0 FROM c;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE c NO SCROLL CURSOR FOR SELECT i FROM generate_series(1, 10) AS g(i) ORDER BY i;',
      'FETCH FIRST FROM c;',
      'FETCH FIRST FROM c;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE c NO SCROLL CURSOR FOR SELECT i FROM generate_series(1, 10) AS g(i) ORDER BY i;',
      'FETCH 4 FROM c;',
      'FETCH ABSOLUTE 4 FROM c;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE c NO SCROLL CURSOR FOR SELECT i FROM generate_series(1, 3) AS g(i) ORDER BY i;',
      'FETCH LAST FROM c;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE c NO SCROLL CURSOR FOR SELECT i FROM generate_series(1, 3) AS g(i) ORDER BY i;',
      'FETCH RELATIVE -1 FROM c;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE c NO SCROLL CURSOR FOR SELECT i FROM generate_series(1, 3) AS g(i) ORDER BY i;',
      'FETCH ALL FROM c;',
      'FETCH ABSOLUTE 0 FROM c;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE c NO SCROLL CURSOR FOR SELECT i FROM generate_series(1, 3) AS g(i) ORDER BY i;',
      'MOVE FORWARD ALL IN c;',
      'FETCH ABSOLUTE 5 FROM c;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE c NO SCROLL CURSOR FOR SELECT i FROM generate_series(1, 10) AS g(i) ORDER BY i;',
      'FETCH BACKWARD 0 FROM c;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE c NO SCROLL CURSOR FOR SELECT i FROM generate_series(1, 10) AS g(i) ORDER BY i;',
      'MOVE BACKWARD 0 IN c;',
      'FETCH 6 FROM c;',
      'FETCH ABSOLUTE 4 FROM c;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE c NO SCROLL CURSOR FOR SELECT i FROM generate_series(1, 10) AS g(i) ORDER BY i;',
      'FETCH 6 FROM c;',
      'FETCH ABSOLUTE 5 FROM c;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE c NO SCROLL CURSOR FOR SELECT i FROM generate_series(1, 10) AS g(i) ORDER BY i;',
      'FETCH 6 FROM c;',
      'FETCH ABSOLUTE 8 FROM c;',
      'FETCH ABSOLUTE 9 FROM c;',
      'MOVE ABSOLUTE 10 IN c;',
      'FETCH ABSOLUTE 12 FROM c;',
      'FETCH NEXT FROM c;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE c CURSOR FOR SELECT 1 WHERE false;',
      'FETCH 1 FROM c;',
      'FETCH ABSOLUTE 0 FROM c;',
      'ROLLBACK;',
      'BEGIN;',
      'DECLARE c CURSOR FOR SELECT 1 WHERE false;',
      'FETCH ABSOLUTE 1 FROM c;',
      'FETCH ABSOLUTE 1 FROM c;',
      'ROLLBACK;',
    ].join('\n');
    const r = await same(['-f', '-'], { input });
    // a control that rows came: ABSOLUTE 3 then RELATIVE 2 from the start are rows 3 and 5
    expect(r.stdout).toMatch(/ i \n---\n 3\n\(1 row\)\n\n i \n---\n 5\n\(1 row\)/);
    await same(['-v', 'VERBOSITY=sqlstate', '-f', '-'], { input });
  });

  test('statement_timeout stops a FETCH from a slow cursor (57014) and the block can roll back', async () => {
    const input = `SET statement_timeout = '300ms';\nBEGIN;\nDECLARE s CURSOR FOR ${LONG_QUERY};\nFETCH 1 FROM s;\nROLLBACK;\nSELECT 'alive';\n`;
    const started = Date.now();
    const r = await lg(['-A', '-t', '-f', '-'], { input });
    expect(Date.now() - started).toBeLessThan(15000);
    expect(r.stderr).toContain('canceling statement due to statement timeout');
    expect(r.stdout).toContain('alive');
  });
});

describe('PREPARE / EXECUTE / DEALLOCATE, as PostgreSQL answers them', () => {
  test('results, tags and errors (42P05, 26000, wrong parameter count)', async () => {
    const input = [
      'PREPARE p(int, text) AS SELECT $1 + 1 AS x, $2 AS y;',
      "EXECUTE p(41, 'a');",
      "EXECUTE p(-1, 'b');",
      'PREPARE q AS SELECT id, region FROM sales.orders WHERE id = $1;',
      'EXECUTE q(2);',
      'PREPARE p AS SELECT 1;',
      'EXECUTE nope;',
      'EXECUTE p(1);',
      'DEALLOCATE p;',
      'DEALLOCATE PREPARE q;',
      'EXECUTE p(1, 2);',
      'DEALLOCATE p;',
      'PREPARE r AS SELECT 3 AS three;',
      'DEALLOCATE ALL;',
      'EXECUTE r;',
    ].join('\n');
    await same(['-f', '-'], { input });
    await same(['-v', 'VERBOSITY=sqlstate', '-f', '-'], { input });
  });
});

describe('session functions, as PostgreSQL prints them', () => {
  test('pg_sleep, set_config, an unknown pid for pg_cancel_backend', async () => {
    const input = [
      'SELECT pg_sleep(0.1);',
      "SELECT set_config('application_name', 'from set_config', false) AS v;",
      'SHOW application_name;',
      'BEGIN;',
      "SELECT set_config('application_name', 'local one', true);",
      'SHOW application_name;',
      'COMMIT;',
      'SHOW application_name;',
      'SELECT pg_cancel_backend(2147483000);',
      'SELECT pg_terminate_backend(2147483000);',
    ].join('\n');
    await same(['-f', '-'], { input });
  });
});

describe('transaction characteristics, as PostgreSQL shows them', () => {
  test('BEGIN ISOLATION LEVEL, SET TRANSACTION, SET LOCAL', async () => {
    const input = [
      'SHOW transaction_isolation;',
      'BEGIN ISOLATION LEVEL SERIALIZABLE;',
      'SHOW transaction_isolation;',
      "SELECT current_setting('transaction_isolation');",
      'COMMIT;',
      'SHOW transaction_isolation;',
      'BEGIN;',
      'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ;',
      'SHOW transaction_isolation;',
      'SELECT 1;',
      'SET TRANSACTION ISOLATION LEVEL SERIALIZABLE;',
      'ROLLBACK;',
      'SET TRANSACTION ISOLATION LEVEL SERIALIZABLE;',
      'SHOW transaction_isolation;',
      "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ;",
      'SHOW default_transaction_isolation;',
      'BEGIN;',
      'SHOW transaction_isolation;',
      'COMMIT;',
      "SET LOCAL statement_timeout = '5s';",
      'BEGIN;',
      "SET LOCAL statement_timeout = '5s';",
      'SHOW statement_timeout;',
      "SET LOCAL application_name = 'inside';",
      'SHOW application_name;',
      'COMMIT;',
      'SHOW statement_timeout;',
      'SHOW application_name;',
      "SET statement_timeout = 90000;",
      'SHOW statement_timeout;',
      "SET statement_timeout = '1500ms';",
      'SHOW statement_timeout;',
    ].join('\n');
    await same(['-f', '-'], { input });
  });

  test('transactions are read-write on a writable database; a READ ONLY one refuses writes with 25006, as PostgreSQL', async () => {
    const r = await lg(['-A', '-t', '-f', '-'], {
      input:
        "SHOW transaction_read_only;\nSHOW default_transaction_read_only;\nBEGIN READ ONLY;\nSELECT current_setting('transaction_read_only');\n" +
        "INSERT INTO sales.orders VALUES (9, 'x', 1, 'EU');\nROLLBACK;\nSET default_transaction_read_only = on;\nBEGIN;\nSHOW transaction_read_only;\nROLLBACK;\n",
    });
    expect(r.stdout).toBe('off\noff\nBEGIN\non\nROLLBACK\nSET\nBEGIN\non\nROLLBACK\n');
    expect(r.stderr).toContain('ERROR:  cannot execute INSERT in a read-only transaction');
  });
});
