/**
 * COPY … FROM STDIN (issue 19) against `lakegate demo` as bob (role engineer: writes in schema
 * analytics) and against a real PostgreSQL 15 holding the demo's users with the same rights
 * (tests/support/dbtWrites.ts startReferenceDemo, plus schema analytics):
 *
 * - psql `\copy … from 'file'` in text and CSV (with a header): NULLs, backslash escapes,
 *   quotes, embedded newlines, unicode; tags, output and errors (with CONTEXT at default
 *   verbosity) byte for byte PostgreSQL's; what lakegate wrote, read back by pyiceberg, equals
 *   what PostgreSQL holds after the same COPYs.
 * - transactions: a COPY in BEGIN … ROLLBACK leaves no snapshot, a bad row in the middle commits
 *   nothing.
 * - governance: alice (may read analytics, not write it) gets PostgreSQL's 42501 before any row
 *   is sent; dave (sees nothing of analytics) 42P01 as for a missing table; control: bob's same COPY.
 * - psycopg2 `copy_expert` and pgJDBC `CopyManager.copyIn`, their counts and SQLSTATEs as
 *   PostgreSQL's, the rows as PostgreSQL's.
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
import { fe, frame, parseError, RawConn, type BackendMessage } from '../support/wire.js';

let lg: Lakegate;
let pg: ReferenceDemo;
let tmp: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-copy-from-'));
  [lg, pg] = await Promise.all([startLakegate(), startReferenceDemo({ analyticsSchema: true }), compileJava('JdbcCopyIn')]).then(([l, p]) => [l, p] as const);
  fs.writeFileSync(path.join(tmp, 'rows.tsv'), TSV);
  fs.writeFileSync(path.join(tmp, 'rows.csv'), CSV);
  for (const server of ['lakegate', 'postgres'] as const) {
    const made = await psql(server, 'bob', ['-v', 'ON_ERROR_STOP=1', '-c', 'CREATE TABLE analytics.cp (id integer, name text, amount numeric(10,2), day date)', '-c', 'CREATE TABLE analytics.cp_clients (id integer, name text)', '-c', 'CREATE TABLE analytics.cp_raw (id integer, name text)']);
    expect(made.stderr).toBe('');
  }
}, 300_000);

afterAll(async () => {
  await lg?.stop();
  await pg?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

type Server = 'lakegate' | 'postgres';
const address = (s: Server) => (s === 'lakegate' ? { host: lg.host, port: lg.port } : { host: pg.server.host, port: pg.server.port });

function psql(server: Server, user: string, args: string[]): Promise<RunResult> {
  const { host, port } = address(server);
  return run('psql', ['-X', '-w', '-P', 'pager=off', ...args], { env: psqlEnv(tmp, host, port, user, user), cwd: tmp, timeoutMs: 120_000 });
}

/** The same psql invocation on both servers: lakegate's output must be PostgreSQL's. */
async function same(user: string, args: string[]): Promise<RunResult> {
  const [ours, theirs] = [await psql('lakegate', user, args), await psql('postgres', user, args)];
  expect({ stdout: ours.stdout, stderr: ours.stderr, code: ours.code }).toEqual({ stdout: theirs.stdout, stderr: theirs.stderr, code: theirs.code });
  return theirs;
}

/** pyiceberg's view of a table lakegate wrote, its rows ordered by their first column. */
async function written(table: string): Promise<TableState> {
  const t = await tableState(['--catalog', 'sql', '--warehouse-dir', lg.dataDir, '--catalog-name', 'demo'], table);
  t.rows.sort((a, b) => Number(a[0]) - Number(b[0]));
  return t;
}

/** What PostgreSQL holds, as pyiceberg prints the same columns (numeric and date as text). */
async function held(table: string, columns: string): Promise<unknown[][]> {
  const r = await pg.admin.query({ text: `select ${columns} from ${table} order by 1`, rowMode: 'array' });
  return r.rows as unknown[][];
}

// text format: NULLs, every backslash escape, a backslash-escaped delimiter, unicode, the end marker
const TSV = [
  '1\tone\t1.50\t2024-01-01',
  '2\t\\N\t\\N\t\\N',
  '3\ttab\\there\\nnew line \\\\ back\\rcr\t3\t2024-01-03',
  '4\toctal \\101\\102 hex \\x41\\x4a\\x7e \\b\\f\\v done\t4.25\t2024-02-29',
  '5\tünïcödé ✓ 日本\t-5\t2024-01-05',
  '6\tescaped \\\tdelimiter\t6\t2024-01-06',
  '7\t\t7\t2024-01-07',
  '\\.',
  '',
].join('\n');

// CSV with a header: quotes, doubled quotes, a delimiter and newlines inside quotes, NULL as the
// empty unquoted field, the empty quoted field as ''
const CSV = [
  'id,name,amount,day',
  '10,"quoted, with comma",10,2024-03-01',
  '11,,11,',
  '12,"",12,2024-03-03',
  '13,"multi',
  'line ""quoted"" value",13,2024-03-04',
  '14,ünï ✓,14.5,2024-03-05',
  '15,\\N stays text,15,2024-03-06',
  '',
].join('\n');

describe('psql \\copy … from', () => {
  test('text and CSV with a header: tags and rows as PostgreSQL prints them, pyiceberg reads what PostgreSQL holds', async () => {
    const out = await same('bob', ['-c', "\\copy analytics.cp from 'rows.tsv'", '-c', "\\copy analytics.cp from 'rows.csv' (format csv, header)", '-c', 'SELECT * FROM analytics.cp ORDER BY id']);
    expect(out.stdout.split('\n').slice(0, 2)).toEqual(['COPY 7', 'COPY 6']);
    const t = await written('analytics.cp');
    const rows = await held('analytics.cp', 'id, name, amount::text, day::text');
    expect(rows).toHaveLength(13);
    expect(t.rows).toEqual(rows);
    // what the escapes became, known independently of both servers
    expect(t.rows.find((r) => r[0] === 3)![1]).toBe('tab\there\nnew line \\ back\rcr');
    expect(t.rows.find((r) => r[0] === 4)![1]).toBe('octal AB hex AJ~ \b\f\v done');
    expect(t.rows.find((r) => r[0] === 13)![1]).toBe('multi\nline "quoted" value');
    expect(t.rows.filter((r) => r[1] === null).map((r) => r[0])).toEqual([2, 11]);
  });

  test('errors: missing and extra columns, a bad value in the middle — words, CONTEXT and SQLSTATE as PostgreSQL, nothing committed', async () => {
    fs.writeFileSync(path.join(tmp, 'missing.tsv'), '20\ttwenty\t20\t2024-04-01\n21\ttwenty-one\n');
    fs.writeFileSync(path.join(tmp, 'extra.csv'), '22,x,1,2024-04-02,surplus\n');
    fs.writeFileSync(path.join(tmp, 'badvalue.tsv'), '23\tok\t1\t2024-04-03\n24\tbad\tnot a number\t2024-04-04\n25\tok\t1\t2024-04-05\n');
    fs.writeFileSync(path.join(tmp, 'badint.tsv'), '26\tok\t1\t2024-04-06\nx26\tbad\t1\t2024-04-07\n');
    fs.writeFileSync(path.join(tmp, 'mixed.tsv'), '27\tok\t1\t2024-04-08\n28\tcr\t1\t2024-04-09\r\n');
    fs.writeFileSync(path.join(tmp, 'mixed.csv'), '27,ok,1,2024-04-08\r\n28,lf,1,2024-04-09\n');
    const before = await written('analytics.cp');
    for (const copy of [
      "\\copy analytics.cp from 'missing.tsv'",
      "\\copy analytics.cp from 'extra.csv' (format csv)",
      "\\copy analytics.cp from 'badvalue.tsv'",
      "\\copy analytics.cp from 'badint.tsv'",
      "\\copy analytics.cp (id, nosuch) from 'missing.tsv'",
      "\\copy analytics.cp from 'mixed.tsv'",
      "\\copy analytics.cp from 'mixed.csv' (format csv)",
    ]) {
      await same('bob', ['-c', copy]);
      await same('bob', ['-v', 'VERBOSITY=sqlstate', '-c', copy]);
    }
    const words = await psql('postgres', 'bob', ['-c', "\\copy analytics.cp from 'badvalue.tsv'"]);
    expect(words.stderr).toBe('ERROR:  invalid input syntax for type numeric: "not a number"\nCONTEXT:  COPY cp, line 2, column amount: "not a number"\n');
    expect((await written('analytics.cp')).currentSnapshotId).toBe(before.currentSnapshotId);
  });

  test('\\r\\n line ends throughout are taken, in text and CSV, as by PostgreSQL', async () => {
    fs.writeFileSync(path.join(tmp, 'crlf.tsv'), '60\tcrlf\t1\t2024-08-01\r\n61\t\\N\t\\N\t\\N\r\n');
    fs.writeFileSync(path.join(tmp, 'crlf.csv'), 'id,name,amount,day\r\n62,"two\r\nlines",2,2024-08-02\r\n');
    const out = await same('bob', ['-c', "\\copy analytics.cp from 'crlf.tsv'", '-c', "\\copy analytics.cp from 'crlf.csv' (format csv, header)"]);
    expect(out.stdout).toBe('COPY 2\nCOPY 1\n');
    expect((await written('analytics.cp')).rows.filter((r) => [60, 61, 62].includes(Number(r[0])))).toEqual(await held('analytics.cp where id in (60, 61, 62)', 'id, name, amount::text, day::text'));
  });

  test('25,000 rows (three batches to the engine) are one catalog commit, the rows PostgreSQL holds', async () => {
    const many = Array.from({ length: 25_000 }, (_, i) => `${100_000 + i}\trow ${i}\t${i % 1000}.25\t2024-07-01\n`).join('');
    fs.writeFileSync(path.join(tmp, 'many.tsv'), many);
    const before = await written('analytics.cp');
    const out = await same('bob', ['-c', "\\copy analytics.cp from 'many.tsv'"]);
    expect(out.stdout).toBe('COPY 25000\n');
    const after = await written('analytics.cp');
    // one catalog commit (one new metadata file), holding one snapshot per batch of at most 10,000 rows
    const metadataFiles = (t: TableState) => t.files.filter((f) => f.endsWith('.metadata.json')).length;
    expect(metadataFiles(after)).toBe(metadataFiles(before) + 1);
    expect(after.snapshots.length).toBe(before.snapshots.length + 3);
    expect(after.rows.filter((r) => Number(r[0]) >= 100_000)).toEqual(await held('analytics.cp where id >= 100000', 'id, name, amount::text, day::text'));
  });

  test('json, jsonb and array columns take the text as an INSERT\'s literal would: output and a bad JSON value as PostgreSQL', async () => {
    const made = await same('bob', ['-c', 'CREATE TABLE analytics.cp_types (id integer, j json, b jsonb, tags text[], ok boolean)']);
    expect(made.stderr).toBe('');
    fs.writeFileSync(path.join(tmp, 'types.csv'), '1,"{""b"":1,  ""a"":[1,2]}","{""b"":1,""a"":[1, 2.50]}","{x,""y z"",NULL}",t\n2,,"""s""",{},false\n');
    fs.writeFileSync(path.join(tmp, 'badjson.csv'), '3,{bad,,,\n');
    const out = await same('bob', ['-c', "\\copy analytics.cp_types from 'types.csv' (format csv)", '-c', 'SELECT id, j, b, tags, ok FROM analytics.cp_types ORDER BY id']);
    expect(out.stdout.split('\n')[0]).toBe('COPY 2');
    // PostgreSQL's DETAIL names the JSON token lakegate's engine does not: compared by SQLSTATE
    const bad = await same('bob', ['-v', 'VERBOSITY=sqlstate', '-c', "\\copy analytics.cp_types from 'badjson.csv' (format csv)"]);
    expect(bad.stderr).toBe('ERROR:  22P02\n');
    const t = await written('analytics.cp_types');
    expect(t.rows.map((r) => [r[0], r[1], r[2]])).toEqual(await held('analytics.cp_types', 'id, j::text, b::text'));
  });

  test('FORCE_NOT_NULL and FORCE_NULL (CSV): values and refusals as PostgreSQL', async () => {
    const made = await same('bob', ['-c', 'CREATE TABLE analytics.cp_force (id integer, a text, b text)']);
    expect(made.stderr).toBe('');
    fs.writeFileSync(path.join(tmp, 'force.csv'), '1,,""\n2,x,"y"\n3,"",\n');
    for (const options of ['(format csv, force_not_null (a), force_null (b))', '(format csv, force_not_null (a, b), force_null (a, b))', "(format csv, null 'x', force_null (a))"]) {
      await same('bob', ['-c', `\\copy analytics.cp_force from 'force.csv' ${options}`]);
    }
    await same('bob', ['-c', "\\copy analytics.cp_force (id, a) from 'force.csv' (format csv, force_null (b))"]);
    await same('bob', ['-c', "\\copy analytics.cp_force from 'force.csv' (format csv, force_not_null (nosuch))"]);
    await same('bob', ['-c', "\\copy analytics.cp_force from 'force.csv' (force_not_null (a))"]);
    const out = await same('bob', ['-c', "SELECT id, coalesce(a, '<null>') AS a, coalesce(b, '<null>') AS b FROM analytics.cp_force ORDER BY id, a, b"]);
    expect(out.stdout).toContain('<null>');
    const sorted = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort();
    const t = await written('analytics.cp_force');
    expect(sorted(t.rows)).toEqual(sorted(await held('analytics.cp_force', 'id, a, b')));
    expect(t.rows).toHaveLength(9);
  });

  test('inside BEGIN … ROLLBACK nothing is left; inside BEGIN … COMMIT the rows are the block\'s', async () => {
    fs.writeFileSync(path.join(tmp, 'block.tsv'), '30\tthirty\t30\t2024-05-01\n31\tthirty-one\t31\t2024-05-02\n');
    const before = await written('analytics.cp');
    await same('bob', ['-c', 'BEGIN', '-c', "\\copy analytics.cp from 'block.tsv'", '-c', 'ROLLBACK']);
    expect((await written('analytics.cp')).currentSnapshotId).toBe(before.currentSnapshotId);
    const out = await same('bob', ['-c', 'BEGIN', '-c', "\\copy analytics.cp from 'block.tsv'", '-c', 'INSERT INTO analytics.cp (id) VALUES (32)', '-c', 'COMMIT']);
    expect(out.stdout).toBe('BEGIN\nCOPY 2\nINSERT 0 1\nCOMMIT\n');
    const t = await written('analytics.cp');
    expect(t.rows).toEqual(await held('analytics.cp', 'id, name, amount::text, day::text'));
    expect(t.rows.map((r) => r[0])).toEqual(expect.arrayContaining([30, 31, 32]));
  });

  test('alice, who may read analytics but not write it, is refused as PostgreSQL refuses her; dave, who sees nothing there, gets 42P01; bob (control) writes', async () => {
    fs.writeFileSync(path.join(tmp, 'gov.tsv'), '40\tforty\t40\t2024-06-01\n');
    const copy = "\\copy analytics.cp from 'gov.tsv'";
    const before = await written('analytics.cp');
    const alice = await same('alice', ['-c', copy]);
    expect(alice.stderr).toBe('ERROR:  permission denied for table cp\n');
    await same('alice', ['-v', 'VERBOSITY=sqlstate', '-c', copy]);
    const dave = await psql('lakegate', 'dave', ['-c', copy]);
    expect([dave.stdout, dave.stderr]).toEqual(['', 'ERROR:  relation "analytics.cp" does not exist\n']);
    expect((await written('analytics.cp')).currentSnapshotId).toBe(before.currentSnapshotId);
    const bob = await same('bob', ['-c', copy]);
    expect(bob.stdout).toBe('COPY 1\n');
    expect((await written('analytics.cp')).rows.map((r) => r[0])).toContain(40);
  });
});

describe('drivers', () => {
  test("psycopg2's copy_expert: counts and SQLSTATEs as PostgreSQL's, the rows PostgreSQL holds", async () => {
    const steps = async (server: Server) => {
      const { host, port } = address(server);
      const r = await run(venvPython(), [path.join(REPO_ROOT, 'tests', 'integration', 'python', 'copy_from.py'), '--host', host, '--port', String(port), '--table', 'analytics.cp_clients'], {
        timeoutMs: 120_000,
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
      });
      expect({ code: r.code, stderr: r.stderr.slice(-3000) }).toEqual({ code: 0, stderr: '' });
      return (JSON.parse(r.stdout) as { steps: unknown[] }).steps;
    };
    const [ours, theirs] = [await steps('lakegate'), await steps('postgres')];
    expect(ours).toEqual(theirs);
    expect(theirs).toEqual([['COPY', 2], ['ERROR', '22P04'], ['COPY', 1]]);
    const t = await written('analytics.cp_clients');
    expect(t.rows).toEqual(await held('analytics.cp_clients', 'id, name'));
    expect(t.rows.map((r) => r[1])).toEqual(['psycopg2 \t tab', null, null]);
  });

  test("pgJDBC's CopyManager.copyIn: counts and SQLSTATEs as PostgreSQL's, the rows PostgreSQL holds", async () => {
    const runs = async (server: Server) => {
      const { host, port } = address(server);
      const r = await runJava('JdbcCopyIn', [host, String(port), 'demo', 'bob', 'bob', 'analytics.cp_clients']);
      expect(r.stderr).toBe('');
      return r.stdout;
    };
    const [ours, theirs] = [await runs('lakegate'), await runs('postgres')];
    expect(ours).toBe(theirs);
    expect(theirs).toBe('COPY 3\nERROR 22P02\nCOPY 1\n');
    const t = await written('analytics.cp_clients');
    expect(t.rows).toEqual(await held('analytics.cp_clients', 'id, name'));
  });
});

describe('the wire, message by message (a raw socket, as bob)', () => {
  const copyData = (text: string) => frame('d', Buffer.from(text, 'utf8'));
  const copyDone = () => frame('c');
  const copyFail = (reason: string) => frame('f', Buffer.from(`${reason}\0`, 'utf8'));
  /** Each message as its type, an error as its SQLSTATE and message, a completion as its tag, CopyInResponse with its formats. */
  const shown = (ms: BackendMessage[]) =>
    ms.map((m) => (m.type === 'E' ? `E ${parseError(m.body).code} ${parseError(m.body).message}` : m.type === 'C' ? `C ${m.body.toString('utf8', 0, m.body.length - 1)}` : m.type === 'G' ? `G ${m.body.toString('hex')}` : m.type === 'Z' ? `Z ${String.fromCharCode(m.body[0]!)}` : m.type));

  /** Which server each raw connection talks to (a cancel goes to the same one). */
  const serverOf = new Map<RawConn, Server>();

  async function session(server: Server, steps: (c: RawConn) => Promise<BackendMessage[]>): Promise<string[]> {
    const { host, port } = address(server);
    const c = await RawConn.connect(host, port);
    serverOf.set(c, server);
    try {
      await c.startup('bob', 'demo', 'bob');
      return shown(await steps(c));
    } finally {
      c.socket.destroy();
    }
  }

  /** The same exchange with both servers: lakegate must answer what PostgreSQL answers. */
  async function sameExchange(steps: (c: RawConn) => Promise<BackendMessage[]>): Promise<string[]> {
    const [ours, theirs] = [await session('lakegate', steps), await session('postgres', steps)];
    expect(ours).toEqual(theirs);
    return theirs;
  }

  const sentUntilCopyIn = async (c: RawConn, first: Buffer) => {
    c.send(first);
    return c.until((m) => m.type === 'G' || m.type === 'Z');
  };

  test("CopyFail: Flush and Sync in copy-in mode ignored, the client's reason in PostgreSQL's 57014, nothing written, the session goes on", async () => {
    const before = await written('analytics.cp_raw');
    const out = await sameExchange(async (c) => {
      const ms = await sentUntilCopyIn(c, fe.query('COPY analytics.cp_raw FROM STDIN'));
      c.send(Buffer.concat([copyData('1\tone\n'), fe.flush(), fe.sync(), copyData('2\ttwo\n'), copyFail('the client gave up')]));
      ms.push(...(await c.untilReady()));
      c.send(copyData('3\tdropped\n'));
      c.send(copyDone());
      ms.push(...(await c.simple('SELECT 1')));
      return ms;
    });
    expect(out).toEqual(['G 00000200000000', 'E 57014 COPY from stdin failed: the client gave up', 'Z I', 'T', 'D', 'C SELECT 1', 'Z I']);
    expect((await written('analytics.cp_raw')).currentSnapshotId).toBe(before.currentSnapshotId);
  });

  test('another message in copy-in mode is 08P01 and ends the connection, as PostgreSQL answers it', async () => {
    const out = await sameExchange(async (c) => {
      const ms = await sentUntilCopyIn(c, fe.query('COPY analytics.cp_raw FROM STDIN'));
      c.send(Buffer.concat([copyData('1\tone\n'), fe.query('SELECT 1')]));
      ms.push(...(await c.drainUntilClosed()));
      return ms;
    });
    expect(out).toEqual(['G 00000200000000', 'E 08P01 unexpected message type 0x51 during COPY from stdin', 'E 08P01 terminating connection because protocol synchronization was lost']);
  });

  test('from an extended-protocol Execute: the Sync sent with it is ignored, CopyDone then Sync completes it; the rows are what PostgreSQL holds', async () => {
    const out = await sameExchange(async (c) => {
      const ms = await sentUntilCopyIn(c, Buffer.concat([fe.parse('', 'COPY analytics.cp_raw (id, name) FROM STDIN (FORMAT csv)'), fe.bind('', '', []), fe.describe('P', ''), fe.execute(''), fe.sync()]));
      c.send(Buffer.concat([copyData('10,"ten'), copyData(' ✓"\n11,\n'), copyDone(), fe.sync()]));
      ms.push(...(await c.untilReady()));
      return ms;
    });
    expect(out).toEqual(['1', '2', 'n', 'G 00000200000000', 'C COPY 2', 'Z I']);
    const t = await written('analytics.cp_raw');
    expect(t.rows).toEqual(await held('analytics.cp_raw', 'id, name'));
    expect(t.rows).toEqual([[10, 'ten ✓'], [11, null]]);
  });

  test('a CancelRequest during COPY FROM is 57014 and nothing is written; what the client still sends is dropped, as by PostgreSQL', async () => {
    const before = await written('analytics.cp_raw');
    await sameExchange(async (c) => {
      const ms = await sentUntilCopyIn(c, fe.query('COPY analytics.cp_raw FROM STDIN'));
      c.send(copyData('30\tbefore the cancel\n'));
      const { host, port } = address(serverOf.get(c)!);
      const canceller = await RawConn.connect(host, port);
      canceller.socket.end(fe.cancel(c.pid, c.secret));
      await new Promise((resolve) => setTimeout(resolve, 500));
      // PostgreSQL acts on the cancel when it next reads data; lakegate at once
      c.send(Buffer.concat([copyData('31\tafter the cancel\n'), copyDone()]));
      ms.push(...(await c.untilReady()));
      ms.push(...(await c.simple('SELECT 1')));
      expect(shown(ms)).toEqual(['G 00000200000000', 'E 57014 canceling statement due to user request', 'Z I', 'T', 'D', 'C SELECT 1', 'Z I']);
      return ms;
    });
    expect((await written('analytics.cp_raw')).currentSnapshotId).toBe(before.currentSnapshotId);
  });

  test('statement_timeout stops a COPY waiting for its data (57014; PostgreSQL reports it only once data arrives); the data sent late is dropped', async () => {
    const out = await session('lakegate', async (c) => {
      const ms = await c.simple('SET statement_timeout = 300');
      ms.push(...(await sentUntilCopyIn(c, fe.query('COPY analytics.cp_raw FROM STDIN'))));
      ms.push(...(await c.untilReady(15_000)));
      c.send(Buffer.concat([copyData('20\tlate\n'), copyDone()]));
      ms.push(...(await c.simple('SELECT 1')));
      return ms;
    });
    expect(out).toEqual(['C SET', 'Z I', 'G 00000200000000', 'E 57014 canceling statement due to statement timeout', 'Z I', 'T', 'D', 'C SELECT 1', 'Z I']);
    expect((await written('analytics.cp_raw')).rows.map((r) => r[0])).toEqual([10, 11]);
  });
});
