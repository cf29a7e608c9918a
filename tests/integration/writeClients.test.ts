/**
 * The same small write script through each client (issue 19), against `lakegate demo` as bob
 * (role engineer: writes in schema analytics) and against a real PostgreSQL 15 holding the
 * demo's users with the same rights (tests/support/dbtWrites.ts startReferenceDemo, plus schema
 * analytics): command tags, update counts and SQLSTATEs must be PostgreSQL's; what lakegate
 * wrote is read back by pyiceberg and compared with rows computed here from the values sent.
 *
 * - psql (simple protocol): a script `\i`ncluded, with BEGIN / COMMIT / ROLLBACK, an aborted
 *   block and errors (`VERBOSITY sqlstate`), output byte for byte PostgreSQL's; several
 *   statements in one -c (one implicit block); `\copy … from` (COPY FROM STDIN; copyFrom.test.ts has the rest).
 * - pgJDBC 42.7 (java/JdbcWrites.java), extended and simple (preferQueryMode=simple):
 *   PreparedStatement of every type README's type table maps, NULLs, executeBatch,
 *   autocommit off with commit and rollback, getUpdateCount.
 * - psycopg2 and psycopg 3 (python/client_writes.py): executemany, server-side parameters in
 *   text and binary (psycopg 3) and client-side interpolation (psycopg2, ClientCursor), the
 *   transaction context manager rolled back by an exception, cursor.rowcount.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { psqlEnv, run, type RunResult } from '../support/clients.js';
import { startReferenceDemo, type ReferenceDemo } from '../support/dbtWrites.js';
import { compileJava, runJava } from '../support/java.js';
import { REPO_ROOT, startLakegate, type Lakegate } from '../support/lakegate.js';
import { venvPython } from '../support/pytest.js';
import { tableState, type TableState } from '../support/writableLake.js';

let lg: Lakegate;
let pg: ReferenceDemo;
let tmp: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-write-clients-'));
  [lg, pg] = await Promise.all([startLakegate(), startReferenceDemo({ analyticsSchema: true }), compileJava('JdbcWrites')]).then(([l, p]) => [l, p] as const);
}, 300_000);

afterAll(async () => {
  await lg?.stop();
  await pg?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

type Server = 'lakegate' | 'postgres';
const address = (s: Server) => (s === 'lakegate' ? { host: lg.host, port: lg.port } : { host: pg.server.host, port: pg.server.port });

/** pyiceberg's view of a table lakegate wrote, its rows ordered by their first column. */
async function written(table: string): Promise<TableState> {
  const t = await tableState(['--catalog', 'sql', '--warehouse-dir', lg.dataDir, '--catalog-name', 'demo'], table);
  t.rows.sort((a, b) => Number(a[0]) - Number(b[0]));
  return t;
}

describe('psql', () => {
  const SCRIPT = `\\set VERBOSITY sqlstate
CREATE TABLE analytics.w_psql (id integer, name text, amount numeric(10,2), day date);
INSERT INTO analytics.w_psql VALUES (1, 'one', 1.50, '2024-01-01'), (2, 'two', NULL, NULL);
BEGIN;
INSERT INTO analytics.w_psql VALUES (3, 'three', 3.00, '2024-01-03');
UPDATE analytics.w_psql SET name = upper(name) WHERE id <= 2;
COMMIT;
BEGIN;
INSERT INTO analytics.w_psql VALUES (4, 'four', 4.00, '2024-01-04');
ROLLBACK;
DELETE FROM analytics.w_psql WHERE id = 1;
UPDATE analytics.w_psql SET amount = amount + 1 WHERE id = 99;
INSERT INTO analytics.w_psql VALUES ('x', 'bad', 0, NULL);
INSERT INTO analytics.no_such_table VALUES (1);
BEGIN;
INSERT INTO analytics.w_psql VALUES (5, 'five', 5.00, NULL);
INSERT INTO analytics.w_psql VALUES (6, 'six', 'not a number', NULL);
INSERT INTO analytics.w_psql VALUES (7, 'seven', 7.00, NULL);
COMMIT;
INSERT INTO analytics.w_psql SELECT id + 10, name || '!', amount, day FROM analytics.w_psql WHERE id = 3;
SELECT id, name, amount, day FROM analytics.w_psql ORDER BY id;
`;

  function psql(server: Server, user: string, args: string[]): Promise<RunResult> {
    const { host, port } = address(server);
    return run('psql', ['-X', '-w', '-P', 'pager=off', ...args], { env: psqlEnv(tmp, host, port, user, user), cwd: tmp, timeoutMs: 120_000 });
  }

  test('a script with transaction blocks and errors, included with \\i: psql prints what it prints against PostgreSQL', async () => {
    fs.writeFileSync(path.join(tmp, 'writes.sql'), SCRIPT);
    fs.writeFileSync(path.join(tmp, 'main.sql'), '\\i writes.sql\n');
    const [ours, theirs] = [await psql('lakegate', 'bob', ['-f', 'main.sql']), await psql('postgres', 'bob', ['-f', 'main.sql'])];
    expect({ stdout: ours.stdout, stderr: ours.stderr, code: ours.code }).toEqual({ stdout: theirs.stdout, stderr: theirs.stderr, code: theirs.code });
    // the tags and errors themselves, so the comparison is with what PostgreSQL is known to print
    expect(theirs.stdout.split('\n').slice(0, 14)).toEqual([
      'CREATE TABLE', 'INSERT 0 2', 'BEGIN', 'INSERT 0 1', 'UPDATE 2', 'COMMIT', 'BEGIN', 'INSERT 0 1', 'ROLLBACK', 'DELETE 1', 'UPDATE 0', 'BEGIN', 'INSERT 0 1', 'ROLLBACK',
    ]);
    expect(theirs.stderr.split('\n').filter((l) => l !== '').map((l) => l.replace(/^psql:writes\.sql:\d+: /, ''))).toEqual(['ERROR:  22P02', 'ERROR:  42P01', 'ERROR:  22P02', 'ERROR:  25P02']);
    const t = await written('analytics.w_psql');
    expect(t.rows).toEqual([
      [2, 'TWO', null, null],
      [3, 'three', '3.00', '2024-01-03'],
      [13, 'three!', '3.00', '2024-01-03'],
    ]);
    expect(t.fields.map((f) => [f.id, f.name, f.type])).toEqual([
      [1, 'id', 'int'],
      [2, 'name', 'string'],
      [3, 'amount', 'decimal(10, 2)'],
      [4, 'day', 'date'],
    ]);
  });

  test('json and jsonb columns: written as Iceberg strings with the type kept, read back as json and jsonb — output, types and errors as PostgreSQL prints them', async () => {
    const script = `\\set VERBOSITY sqlstate
CREATE TABLE analytics.w_json (id integer, j json, b jsonb);
INSERT INTO analytics.w_json VALUES (1, '{"b":1,  "a":[1,2]}', '{"b":1,"a":[1, 2.50], "a":3}'), (2, NULL, '"x"'), (3, '[]', NULL);
UPDATE analytics.w_json SET b = '{"z": {"y":1, "x":2}}' WHERE id = 2;
INSERT INTO analytics.w_json VALUES (4, '{bad', NULL);
INSERT INTO analytics.w_json VALUES (5, NULL, '{bad');
SELECT id, j, b FROM analytics.w_json ORDER BY id;
SELECT * FROM analytics.w_json \\gdesc
SELECT id, b -> 'a' AS ba, b ->> 'b' AS bb, j -> 'a' AS ja, j::text AS jt, b::text AS bt FROM analytics.w_json ORDER BY id;
SELECT count(DISTINCT b) FROM analytics.w_json;
\\d analytics.w_json
CREATE TABLE analytics.w_json2 AS SELECT id, j, b FROM analytics.w_json;
SELECT * FROM analytics.w_json2 \\gdesc
SELECT * FROM analytics.w_json2 ORDER BY id;
`;
    fs.writeFileSync(path.join(tmp, 'json.sql'), script);
    const [ours, theirs] = [await psql('lakegate', 'bob', ['-f', 'json.sql']), await psql('postgres', 'bob', ['-f', 'json.sql'])];
    expect({ stdout: ours.stdout, stderr: ours.stderr, code: ours.code }).toEqual({ stdout: theirs.stdout, stderr: theirs.stderr, code: theirs.code });
    expect(theirs.stderr.split('\n').filter((l) => l !== '').map((l) => l.replace(/^psql:json\.sql:\d+: /, ''))).toEqual(['ERROR:  22P02', 'ERROR:  22P02']);
    // what the Iceberg table holds: strings, jsonb in jsonb's text, the PostgreSQL types in lakegate.pg-types
    const t = await written('analytics.w_json');
    expect(t.fields.map((f) => [f.name, f.type])).toEqual([['id', 'int'], ['j', 'string'], ['b', 'string']]);
    expect(JSON.parse(t.properties['lakegate.pg-types']!)).toEqual({ j: 'json', b: 'jsonb' });
    const pgRows = await pg.admin.query<{ id: number; j: string | null; b: string | null }>('select id, j::text as j, b::text as b from analytics.w_json order by id');
    expect(t.rows).toEqual(pgRows.rows.map((r) => [r.id, r.j, r.b]));
    expect(JSON.parse((await written('analytics.w_json2')).properties['lakegate.pg-types']!)).toEqual({ j: 'json', b: 'jsonb' });
  });

  test('several statements in one -c are one implicit block: a failure takes back the statements before it', async () => {
    const ok = "INSERT INTO analytics.w_psql VALUES (20, 'twenty', NULL, NULL); UPDATE analytics.w_psql SET name = 'changed' WHERE id = 2";
    const bad = "INSERT INTO analytics.w_psql VALUES (21, 'lost', NULL, NULL); INSERT INTO analytics.w_psql VALUES (22, 'bad', 'x', NULL)";
    for (const sql of [ok, bad]) {
      const [ours, theirs] = [await psql('lakegate', 'bob', ['-v', 'VERBOSITY=sqlstate', '-c', sql]), await psql('postgres', 'bob', ['-v', 'VERBOSITY=sqlstate', '-c', sql])];
      expect([ours.stdout, ours.stderr, ours.code]).toEqual([theirs.stdout, theirs.stderr, theirs.code]);
    }
    expect((await written('analytics.w_psql')).rows.map((r) => [r[0], r[1]])).toEqual([
      [2, 'changed'],
      [3, 'three'],
      [13, 'three!'],
      [20, 'twenty'],
    ]);
  });

  test("\\copy … from (COPY FROM STDIN) writes as against PostgreSQL and the session goes on; to a user who may not write the table it is PostgreSQL's own answer, nothing written", async () => {
    fs.writeFileSync(path.join(tmp, 'rows.tsv'), '30\tthirty\t30.00\t2024-01-30\n');
    const copy = ['-v', 'VERBOSITY=sqlstate', '-c', "\\copy analytics.w_psql from 'rows.tsv'", '-c', 'SELECT count(*) FROM analytics.w_psql'];
    const before = await written('analytics.w_psql');
    const [aliceOurs, aliceTheirs] = [await psql('lakegate', 'alice', copy), await psql('postgres', 'alice', copy)];
    expect([aliceOurs.stderr, aliceOurs.stdout]).toEqual([aliceTheirs.stderr, aliceTheirs.stdout]);
    expect(aliceTheirs.stderr).toBe('ERROR:  42501\n');
    expect((await written('analytics.w_psql')).currentSnapshotId).toBe(before.currentSnapshotId);
    const [ours, theirs] = [await psql('lakegate', 'bob', copy), await psql('postgres', 'bob', copy)];
    expect([ours.stderr, ours.stdout]).toEqual([theirs.stderr, theirs.stdout]);
    expect([theirs.stderr, theirs.stdout]).toEqual(['', 'COPY 1\n count \n-------\n     5\n(1 row)\n\n']);
    expect((await written('analytics.w_psql')).rows.find((r) => r[0] === 30)).toEqual([30, 'thirty', '30.00', '2024-01-30']);
  });
});

describe('pgJDBC', () => {
  /** The rows JdbcWrites leaves, as pyiceberg prints them: every column in the program's order. */
  const nulls = (n: number) => Array.from({ length: n }, () => null);
  const row = (id: number, set: Record<number, unknown>) => {
    const r: unknown[] = [id, ...nulls(21)];
    for (const [i, v] of Object.entries(set)) r[Number(i)] = v;
    return r;
  };
  const EXPECTED = [
    [
      1, true, 7, 42, 1099511627776, 1.5, 2.25, '12.345', '-0.500000000', 'text ✓', 'vc', 'ab', '\\x00ff', '2024-02-29', '13:14:15.123456',
      '2024-01-02T03:04:05.678901', '2024-01-02T01:04:05+00:00', '12345678-1234-5678-1234-567812345678', '{"b": 1, "a": [1, 2]}', '{"a": [1, 2], "b": 1}',
      [1, 2, null], ['x', 'y z'],
    ],
    row(2, {}),
    row(10, { 7: '10.500', 9: 'b' }),
    row(11, { 7: '11.500', 9: 'b' }),
    row(20, { 9: 'committed' }),
    row(30, { 3: 30 }),
    row(31, { 3: 31 }),
    // setString into an integer column: see DIFFERENT
    row(40, {}),
  ];
  /**
   * The one step whose answer is not PostgreSQL's (README, Writes): a parameter the client
   * declares as varchar (setString) is converted to the integer column as an untyped value
   * would be; PostgreSQL has no assignment cast from varchar and refuses it (42804). In simple
   * mode the driver writes the value in as a literal, and both servers take it.
   */
  const DIFFERENT: Record<'extended' | 'simple', Record<string, { lakegate: string; postgres: string }>> = {
    extended: { varchar_parameter_into_integer: { lakegate: '1', postgres: 'error 42804' } },
    simple: {},
  };

  const runProgram = async (server: Server, table: string, mode: 'extended' | 'simple') => {
    const { host, port } = address(server);
    const r = await runJava('JdbcWrites', [host, String(port), table, mode]);
    expect({ code: r.code, done: r.stdout.trimEnd().endsWith('DONE'), stderr: r.code === 0 ? '' : r.stderr.slice(-3000) }).toEqual({ code: 0, done: true, stderr: '' });
    return r.stdout.trimEnd().split('\n');
  };

  test.each(['extended', 'simple'] as const)('%s protocol: every update count and SQLState as PostgreSQL\'s; pyiceberg reads every type back', async (mode) => {
    const table = `analytics.w_jdbc_${mode}`;
    const [ours, theirs] = [await runProgram('lakegate', table, mode), await runProgram('postgres', table, mode)];
    const known = DIFFERENT[mode];
    const outcome = (lines: string[], server: Server) => lines.map((l) => {
      const [name, answer] = l.split(/: (.*)/s) as [string, string | undefined];
      return known[name] ? `${name}: ${known[name]![server] === answer ? 'the known difference' : answer}` : l;
    });
    expect(outcome(ours, 'lakegate')).toEqual(outcome(theirs, 'postgres'));
    expect(theirs).toEqual(expect.arrayContaining(['prepared_every_type: 1', 'prepared_batch: [1, 1, 1]', 'statement_batch: [3, 1, 0]', 'two_statements_update_counts: [2, 2]', 'tx_after_error: error 25P02']));
    const t = await written(table);
    expect(t.fields.map((f) => f.type)).toEqual([
      'int', 'boolean', 'int', 'int', 'long', 'float', 'double', 'decimal(12, 3)', 'decimal(38, 9)', 'string', 'string', 'string', 'binary', 'date', 'time',
      'timestamp', 'timestamptz', 'uuid', 'string', 'string', 'list<int>', 'list<string>',
    ]);
    expect(t.rows).toEqual(EXPECTED);
  });
});

describe('psycopg2 and psycopg 3', () => {
  const runScript = async (server: Server, driver: string, protocol: string, table: string) => {
    const { host, port } = address(server);
    const r = await run(venvPython(), [path.join(REPO_ROOT, 'tests', 'integration', 'python', 'client_writes.py'), '--driver', driver, '--protocol', protocol, '--host', host, '--port', String(port), '--table', table], {
      timeoutMs: 120_000,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect({ code: r.code, stderr: r.stderr.slice(-3000) }).toEqual({ code: 0, stderr: '' });
    return (JSON.parse(r.stdout) as { steps: [string, unknown][] }).steps;
  };
  const EXPECTED = [
    [2, 'TWO', null, null, false, null, [], '\\x', null],
    [3, 'three', '-3.25', '2024-02-29', null, '2024-03-01T04:59:59.500000+00:00', null, null, '00000000-0000-0000-0000-000000000003'],
    [4, 'committed', null, null, null, null, null, null, null],
  ];

  test.each([
    ['psycopg2', 'simple'],
    ['psycopg3', 'extended'],
    ['psycopg3', 'binary'],
    ['psycopg3', 'simple'],
  ])('%s, %s: statusmessage, rowcount and SQLSTATE as PostgreSQL\'s; pyiceberg reads the rows back', async (driver, protocol) => {
    const table = `analytics.w_${driver}_${protocol}`;
    const [ours, theirs] = [await runScript('lakegate', driver, protocol, table), await runScript('postgres', driver, protocol, table)];
    // psycopg 3 dumps a str parameter in binary as text: PostgreSQL refuses text into an integer column (42804),
    // lakegate converts it as an untyped value and finds it is not an integer (22P02); both refuse (README, Writes)
    const known = protocol === 'binary' ? { bad_integer: { lakegate: { error: '22P02' }, postgres: { error: '42804' } } } : {};
    const outcome = (steps: [string, unknown][], server: Server) =>
      steps.map(([name, answer]) => {
        const k = (known as Record<string, Record<Server, unknown>>)[name];
        return [name, k && JSON.stringify(k[server]) === JSON.stringify(answer) ? 'the known difference' : answer];
      });
    expect(outcome(ours, 'lakegate')).toEqual(outcome(theirs, 'postgres'));
    expect(Object.fromEntries(theirs)).toMatchObject({
      executemany: { rowcount: 3 },
      update: { status: 'UPDATE 2', rowcount: 2 },
      abandoned: 'rolled back by the context manager',
      bad_date: { error: '22008' },
      delete: { status: 'DELETE 1', rowcount: 1 },
    });
    expect((await written(table)).rows).toEqual(EXPECTED);
  });
});
