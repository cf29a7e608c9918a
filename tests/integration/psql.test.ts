/**
 * psql (Debian postgresql-client) against a running lakegate demo: values from -c,
 * several statements, ON_ERROR_STOP, wrong password, and the meta-commands \dt, \d,
 * \dn, \l — asserted against the expected lines and, for \d / \dt, against what the
 * same psql prints for the same table on a real PostgreSQL (tests/support/realPostgres.ts).
 * Issue 22: every other \d family command psql 15 sends, \sf of built-ins and ANALYZE, beside PostgreSQL 15.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startTarget, type Target } from '../support/target.js';
import { startPostgres, type RealPostgres } from '../support/realPostgres.js';
import { psqlEnv as psqlEnvFor, run, type RunResult } from '../support/clients.js';

let t: Target;
let ref: RealPostgres | undefined;
let refError: unknown;
let tmp: string;

const DEMO_SQL = `
CREATE DATABASE demo;
\\connect demo
CREATE SCHEMA sales;
-- Strings are presented as text: Iceberg/DuckDB strings have no length, and text is PostgreSQL's type for that.
CREATE TABLE sales.orders(id integer, ssn text, amount decimal(10,2), region text);
INSERT INTO sales.orders VALUES (1, '111-11-1111', 100.00, 'EU'), (2, '222-22-2222', 250.50, 'US');
`;

const psqlEnv = (host: string, port: number, user: string, password: string): NodeJS.ProcessEnv =>
  psqlEnvFor(tmp, host, port, user, password, { PGSSLMODE: 'prefer' });

/** psql against the target as alice: no psqlrc, no pager, never prompts. */
function psql(args: string[], opts: { user?: string; password?: string; input?: string } = {}): Promise<RunResult> {
  const user = opts.user ?? 'alice';
  return run('psql', ['-X', '-w', '-P', 'pager=off', ...args], {
    env: psqlEnv(t.host, t.port, user, opts.password ?? user),
    timeoutMs: 30000,
    input: opts.input,
  });
}

function psqlRef(args: string[]): Promise<RunResult> {
  return run('psql', ['-X', '-w', '-P', 'pager=off', ...args], {
    env: psqlEnv(ref!.host, ref!.port, 'postgres', ''),
    timeoutMs: 30000,
  });
}

/** Aligned psql table → rows of trimmed cells (header first), title lines dropped. */
function cells(out: string): string[][] {
  return out
    .split('\n')
    .filter((l) => l.includes('|'))
    .map((l) => l.split('|').map((c) => c.trim()));
}

function ok(r: RunResult): string {
  if (r.code !== 0 || r.timedOut) {
    throw new Error(`psql exited ${r.code}${r.timedOut ? ' (timed out)' : ''}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  }
  return r.stdout;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-psql-'));
  t = await startTarget();
  try {
    ref = await startPostgres();
    const seeded = await run('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', 'postgres'], {
      env: { ...psqlEnv(ref.host, ref.port, 'postgres', ''), PGDATABASE: 'postgres' },
      input: DEMO_SQL,
      timeoutMs: 30000,
    });
    if (seeded.code !== 0) throw new Error(`seeding the reference PostgreSQL failed: ${seeded.stderr}`);
  } catch (e) {
    refError = e;
  }
}, 120000);

afterAll(async () => {
  await ref?.stop();
  await t?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('psql -c', () => {
  test('psql is installed', async () => {
    const r = await run('psql', ['--version'], { timeoutMs: 10000 });
    expect(r.stdout).toMatch(/^psql \(PostgreSQL\) \d+/);
  });

  test('select the demo rows (unaligned)', async () => {
    // carol (sqe_admin) reads the demo rows as stored; tests/integration/dataGate.test.ts covers the other users
    const out = ok(await psql(['-A', '-t', '-F', '|', '-c', 'SELECT id, ssn, amount, region FROM sales.orders WHERE id IN (1,2) ORDER BY id'], { user: 'carol' }));
    expect(out).toBe('1|111-11-1111|100.00|EU\n2|222-22-2222|250.50|US\n');
  });

  test('aligned output with header and row count', async () => {
    const out = ok(await psql(['-c', 'SELECT id, region FROM sales.orders WHERE id IN (1,2) ORDER BY id']));
    expect(out).toBe([' id | region ', '----+--------', '  1 | EU', '  2 | US', '(2 rows)', '', ''].join('\n'));
  });

  test('values of each type as psql prints them', async () => {
    const sql =
      "SET TimeZone = 'UTC'; SELECT 7::int2, 2147483647::int4, 9007199254740993::int8, 1.5::float4, 0.1::float8, " +
      "12.340::numeric(6,3), true, false, 'héllo'::text, 'v'::varchar, '\\x0aff'::bytea, '2024-02-29'::date, " +
      "'2024-02-29 23:59:59.5'::timestamp, '2024-02-29 23:59:59.5+01'::timestamptz, " +
      "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, NULL::int4";
    const out = ok(await psql(['-A', '-t', '-F', '|', '-c', sql]));
    expect(out).toBe(
      [
        'SET',
        '7|2147483647|9007199254740993|1.5|0.1|12.340|t|f|héllo|v|\\x0aff|2024-02-29|2024-02-29 23:59:59.5|2024-02-29 22:59:59.5+00|a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11|',
        '',
      ].join('\n'),
    );
  });

  test('current_database() and current_user', async () => {
    const out = ok(await psql(['-A', '-t', '-F', '|', '-c', 'SELECT current_database(), current_user'], { user: 'bob' }));
    expect(out).toBe('demo|bob\n');
  });

  test('several statements in one -c: every result is printed', async () => {
    const out = ok(await psql(['-A', '-t', '-c', "SELECT 1; SELECT 'two'; SELECT count(*) FROM sales.orders WHERE id <= 2"]));
    expect(out).toBe('1\ntwo\n2\n');
  });

  test('several -c options run in order', async () => {
    const out = ok(await psql(['-A', '-t', '-c', 'SELECT 10', '-c', 'SELECT 20']));
    expect(out).toBe('10\n20\n');
  });

  test('wrong password: exit 2 and the PostgreSQL message', async () => {
    const r = await psql(['-c', 'SELECT 1'], { password: 'wrong' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('password authentication failed for user "alice"');
  });

  test('unknown database: exit 2, database does not exist', async () => {
    const r = await psql(['-d', 'nosuchdb', '-c', 'SELECT 1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('database "nosuchdb" does not exist');
  });
});

describe('ON_ERROR_STOP and scripts', () => {
  const script = 'SELECT 1 AS a;\nSELECT * FROM no_such_table_psql;\nSELECT 2 AS b;\n';

  test('-v ON_ERROR_STOP=1: stops at the error, exit 3', async () => {
    const r = await psql(['-A', '-t', '-v', 'ON_ERROR_STOP=1', '-f', '-'], { input: script });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('1\n');
    expect(r.stderr).toContain('relation "no_such_table_psql" does not exist');
  });

  test('without ON_ERROR_STOP: reports the error, runs on, exit 0', async () => {
    const r = await psql(['-A', '-t', '-f', '-'], { input: script });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('1\n2\n');
    expect(r.stderr).toContain('relation "no_such_table_psql" does not exist');
  });

  test('a script with a transaction and a refused statement under ON_ERROR_STOP', async () => {
    const r = await psql(['-A', '-t', '-v', 'ON_ERROR_STOP=1', '-f', '-'], {
      input: "BEGIN;\nSELECT region FROM sales.orders WHERE id = 1;\nCOMMIT;\nCREATE TABLE nope_psql(a int);\nSELECT 'after';\n",
    });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('BEGIN\nEU\nCOMMIT\n');
    expect(r.stdout).not.toContain('after');
  });

  test('syntax error reports the position with a caret', async () => {
    const r = await psql(['-c', 'SELECT * FROM WHERE 1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('syntax error at or near "WHERE"');
    expect(r.stderr).toMatch(/LINE 1: SELECT \* FROM WHERE 1\n\s+\^/);
  });
});

describe('meta-commands', () => {
  test('\\dt sales.*', async () => {
    const rows = cells(ok(await psql(['-c', '\\dt sales.*'])));
    expect(rows[0]).toEqual(['Schema', 'Name', 'Type', 'Owner']);
    expect(rows.slice(1).map((r) => r.slice(0, 3))).toEqual([['sales', 'orders', 'table']]);
  });

  test('\\d sales.orders: columns and types', async () => {
    const out = ok(await psql(['-c', '\\d sales.orders']));
    expect(out).toContain('Table "sales.orders"');
    const rows = cells(out);
    expect(rows[0]).toEqual(['Column', 'Type', 'Collation', 'Nullable', 'Default']);
    expect(rows.slice(1)).toEqual([
      ['id', 'integer', '', '', ''],
      ['ssn', 'text', '', '', ''],
      ['amount', 'numeric(10,2)', '', '', ''],
      ['region', 'text', '', '', ''],
    ]);
  });

  test('\\d orders with search_path set to sales', async () => {
    const out = ok(await psql(['-c', 'SET search_path = sales', '-c', '\\d orders']));
    expect(out).toContain('Table "sales.orders"');
    expect(cells(out).slice(1).map((r) => r[0])).toEqual(['id', 'ssn', 'amount', 'region']);
  });

  test('\\d of a missing table', async () => {
    const r = await psql(['-c', '\\d sales.no_such_table']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Did not find any relation named "sales.no_such_table".');
  });

  test('\\dn lists the sales schema', async () => {
    const rows = cells(ok(await psql(['-c', '\\dn'])));
    expect(rows[0]).toEqual(['Name', 'Owner']);
    expect(rows.slice(1).map((r) => r[0])).toContain('sales');
    expect(rows.slice(1).map((r) => r[0])).not.toContain('pg_catalog');
    expect(rows.slice(1).map((r) => r[0])).not.toContain('information_schema');
  });

  test('\\l lists the demo database with UTF8 encoding', async () => {
    const out = ok(await psql(['-c', '\\l']));
    expect(out).toContain('List of databases');
    const rows = cells(out);
    expect(rows[0]!.slice(0, 3)).toEqual(['Name', 'Owner', 'Encoding']);
    const demo = rows.find((r) => r[0] === 'demo');
    expect(demo).toBeDefined();
    expect(demo![2]).toBe('UTF8');
  });
});

describe('meta-commands of issue 10', () => {
  test('\\du: the session user, its roles as roles it is a member of, nobody else', async () => {
    const rows = (user: string) => psql(['-c', '\\du'], { user }).then((r) => cells(ok(r)).slice(1));
    const alice = await rows('alice');
    expect(alice.find((r) => r[0] === 'alice')?.[2]).toBe('{analyst}');
    expect(alice.find((r) => r[0] === 'analyst')?.[1]).toBe('Cannot login');
    expect(alice.map((r) => r[0]).filter((n) => ['bob', 'carol', 'dave', 'erin', 'engineer'].includes(n))).toEqual([]);
    // control: carol's roles differ, and she sees hers
    const carol = await rows('carol');
    expect(carol.find((r) => r[0] === 'carol')?.[2]).toBe('{analyst,engineer,sqe_admin}');
  });

  test('\\dp sales.*: SELECT for the session user, granted by the owner, nothing else', async () => {
    const rows = cells(ok(await psql(['-c', '\\dp sales.*'])));
    expect(rows.slice(1)).toEqual([['sales', 'orders', 'table', 'alice=r/lakegate', '', '']]);
    const dave = cells(ok(await psql(['-c', '\\dp sales.*'], { user: 'dave' })));
    expect(dave.slice(1)).toEqual([]);
  });

  test('\\dconfig: the settings this session changed', async () => {
    const rows = cells(ok(await psql(['-c', '\\dconfig'])));
    expect(rows).toContainEqual(['application_name', 'psql']);
    expect(rows.map((r) => r[0])).not.toContain('server_version');
  });

  test('\\l+: the demo database, its size unknown (0 bytes)', async () => {
    const rows = cells(ok(await psql(['-c', '\\l+'])));
    const demo = rows.find((r) => r[0] === 'demo');
    expect([demo?.[2], demo?.[8], demo?.[9]]).toEqual(['UTF8', '0 bytes', 'pg_default']);
  });
});

describe('same output as psql on a real PostgreSQL with the same table', () => {
  function needRef(): void {
    if (refError) throw new Error(`reference PostgreSQL unavailable: ${String(refError)}`);
  }

  test('\\d sales.orders is identical', async () => {
    needRef();
    const mine = ok(await psql(['-c', '\\d sales.orders']));
    const theirs = ok(await psqlRef(['-c', '\\d sales.orders']));
    expect(mine).toBe(theirs);
  });

  test('\\dt sales.* is identical except the Owner column', async () => {
    needRef();
    const strip = (s: string) => cells(s).map((r) => r.slice(0, 3));
    const mine = strip(ok(await psql(['-c', '\\dt sales.*'])));
    const theirs = strip(ok(await psqlRef(['-c', '\\dt sales.*'])));
    expect(mine).toEqual(theirs);
  });

  test('a query prints identically (aligned)', async () => {
    needRef();
    const sql = 'SELECT id, ssn, amount, region, amount * 2 AS dbl FROM sales.orders WHERE id IN (1,2) ORDER BY id';
    expect(ok(await psql(['-c', sql], { user: 'carol' }))).toBe(ok(await psqlRef(['-c', sql])));
  });

  test('\\df lower is identical', async () => {
    needRef();
    expect(ok(await psql(['-c', '\\df lower']))).toBe(ok(await psqlRef(['-c', '\\df lower'])));
  });

  test('\\df+ split_part is identical except the Owner column', async () => {
    needRef();
    const strip = (s: string) => cells(s).map((r) => [...r.slice(0, 7), ...r.slice(8)]);
    expect(strip(ok(await psql(['-c', '\\df+ split_part'])))).toEqual(strip(ok(await psqlRef(['-c', '\\df+ split_part']))));
  });

  test('\\gdesc is identical', async () => {
    needRef();
    // (a computed numeric is left out: lakegate describes amount * 2 as numeric(18,2), PostgreSQL as numeric)
    const input = 'SELECT id, ssn, amount, region, id + 1 AS next, now() AS at FROM sales.orders \\gdesc\n';
    expect(ok(await psql(['-f', '-'], { user: 'carol', input }))).toBe(ok(await run('psql', ['-X', '-w', '-P', 'pager=off', '-f', '-'], {
      env: psqlEnv(ref!.host, ref!.port, 'postgres', ''),
      timeoutMs: 30000,
      input,
    })));
  });
});

describe('issue 22: every \\d command psql 15 sends, beside PostgreSQL 15 with the same table', () => {
  function needRef(): void {
    if (refError) throw new Error(`reference PostgreSQL unavailable: ${String(refError)}`);
  }
  const title = (out: string): string => out.split('\n')[0]!.trim();

  // Identical byte for byte: the table's own description, the built-ins' definitions, and the
  // object kinds neither server holds a user-made one of (empty lists with PostgreSQL's title and columns).
  test.each([
    '\\d+ sales.orders', '\\sf split_part', '\\sf+ split_part', '\\sf lower(text)', '\\sf split_part(text,text,int4)',
    // (\dv \dm \di \ds \dE \dT \dD \dP \dRp were already identical before issue 22 and are not repeated here)
    '\\do', '\\do+', '\\dc', '\\dd', '\\des', '\\dew', '\\det', '\\deu', '\\dy', '\\drds', '\\dRs', '\\dX', '\\ddp',
  ])('%s is identical', async (cmd) => {
    needRef();
    expect(ok(await psql(['-c', cmd]))).toBe(ok(await psqlRef(['-c', cmd])));
  });

  // \sf of what is not one function: PostgreSQL's error, word for word
  test.each(['\\sf lower', '\\sf nosuch', '\\sf count', '\\sf lower(int4)'])('%s fails as on PostgreSQL', async (cmd) => {
    needRef();
    const mine = await psql(['-c', cmd]);
    const theirs = await run('psql', ['-X', '-w', '-P', 'pager=off', '-c', cmd], { env: psqlEnv(ref!.host, ref!.port, 'postgres', ''), timeoutMs: 30000 });
    expect(mine.code).toBe(1);
    expect([mine.code, mine.stderr]).toEqual([theirs.code, theirs.stderr]);
  });

  // Normalised: the Owner column (lakegate's objects belong to its own role, PostgreSQL's to postgres) and \db+'s Size
  // (PostgreSQL's data directory; lakegate's data is in object storage, 0 bytes as for \l+).
  test('\\db and \\db+: the two tablespaces but their owner and size', async () => {
    needRef();
    for (const cmd of ['\\db', '\\db+']) {
      const strip = (s: string) => cells(s).map((r) => r.filter((_, i) => i !== 1 && i !== 5));
      expect(strip(ok(await psql(['-c', cmd])))).toEqual(strip(ok(await psqlRef(['-c', cmd]))));
    }
    expect(cells(ok(await psql(['-c', '\\db+']))).slice(1).map((r) => r[5])).toEqual(['0 bytes', '0 bytes']);
  });

  // Kinds PostgreSQL ships built-in objects of and lakegate has none of (casts, text search, languages, operator
  // classes): PostgreSQL's title and columns, and an empty list — never an error.
  // (\dx already listed none before issue 22)
  test.each(['\\dC', '\\dF', '\\dFd', '\\dFp', '\\dFt', '\\dL', '\\dAc', '\\dAf', '\\dAo', '\\dAp', '\\dO'])(
    '%s: PostgreSQL\'s title and columns, no rows',
    async (cmd) => {
      needRef();
      const mine = ok(await psql(['-c', cmd]));
      const theirs = ok(await psqlRef(['-c', cmd]));
      expect(title(mine)).toBe(title(theirs));
      expect(cells(mine)[0]).toEqual(cells(theirs)[0]);
      expect(cells(mine).slice(1)).toEqual([]);
      expect(mine).toContain('(0 rows)');
    },
  );

  test('ANALYZE is a no-op with PostgreSQL\'s tag; a table the user may not load is missing, a missing column named as PostgreSQL does', async () => {
    needRef();
    const sql = ['ANALYZE sales.orders', 'ANALYZE sales.orders (id, region)', 'ANALYZE'];
    const args = sql.flatMap((s) => ['-c', s]);
    expect(ok(await psql(args))).toBe('ANALYZE\nANALYZE\nANALYZE\n');
    expect(ok(await psqlRef(args))).toBe('ANALYZE\nANALYZE\nANALYZE\n');
    const missingColumn = await psql(['-c', 'ANALYZE sales.orders (nope)']);
    const theirs = await run('psql', ['-X', '-w', '-c', 'ANALYZE sales.orders (nope)'], { env: psqlEnv(ref!.host, ref!.port, 'postgres', ''), timeoutMs: 30000 });
    expect(missingColumn.stderr).toBe(theirs.stderr);
    expect(missingColumn.stderr).toContain('column "nope" of relation "orders" does not exist');
    // dave may not load sales.orders (control: alice above): answered as for a missing table
    const dave = await psql(['-c', 'ANALYZE sales.orders'], { user: 'dave' });
    expect(dave.code).toBe(1);
    expect(dave.stderr).toContain('relation "sales.orders" does not exist');
    const vacuum = await psql(['-c', 'VACUUM sales.orders']);
    expect(vacuum.stderr).toContain('VACUUM is not supported by lakegate');
  });
});

describe('issue 22: a mistyped column, as PostgreSQL 15 reports it (position, caret, "Perhaps you meant")', () => {
  const refRun = (sql: string) =>
    run('psql', ['-X', '-w', '-P', 'pager=off', '-c', sql], { env: psqlEnv(ref!.host, ref!.port, 'postgres', ''), timeoutMs: 30000 });

  test.each([
    'select regionx from sales.orders',
    'select o.regio from sales.orders o',
    'select id, amout from sales.orders where id = 1',
    'select zzzzzz from sales.orders',
    'select orders.idd from sales.orders',
    'select a.id from sales.orders a join sales.orders b on a.id = b.idx',
    'select id from sales.orders where exists (select 1 from sales.orders o2 where o2.id = orders.idz)',
    'select reg from sales.orders',
    // a masked column (alice sees ssn's last four) is named like any other: its name is in \d for her too
    'select ssnn from sales.orders',
  ])('%s', async (sql) => {
    if (refError) throw new Error(`reference PostgreSQL unavailable: ${String(refError)}`);
    const mine = await psql(['-c', sql]);
    const theirs = await refRun(sql);
    expect(mine.code).toBe(1);
    expect(mine.stderr).toMatch(/\n\s+\^\n/);
    expect(mine.stderr).toBe(theirs.stderr);
  });

  test('a user who may not load the table learns nothing of its columns: 42P01, where alice gets the hint', async () => {
    const alice = await psql(['-c', 'select regio from sales.orders']);
    expect(alice.stderr).toContain('HINT:  Perhaps you meant to reference the column "orders.region".');
    const dave = await psql(['-c', 'select regio from sales.orders'], { user: 'dave' });
    expect(dave.stderr).toContain('relation "sales.orders" does not exist');
    expect(dave.stderr).not.toContain('region');
  });
});

describe('issue 22: database "postgres", the default of DBeaver and pgAdmin', () => {
  test('psql -d postgres logs in to the default database: its tables, gated as under its own name', async () => {
    const out = ok(await psql(['-d', 'postgres', '-A', '-t', '-c', 'SELECT current_database()', '-c', 'SELECT id, ssn FROM sales.orders ORDER BY id']));
    expect(out).toBe('demo\n1|xxx-xx-1111\n2|xxx-xx-2222\n');
    // dave may not load the table under either name; another unknown database is still 3D000
    const dave = await psql(['-d', 'postgres', '-c', 'SELECT 1 FROM sales.orders'], { user: 'dave' });
    expect(dave.stderr).toContain('relation "sales.orders" does not exist');
    const other = await psql(['-d', 'postgres2', '-c', 'SELECT 1']);
    expect(other.stderr).toContain('database "postgres2" does not exist');
  });
});
