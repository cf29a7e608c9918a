/**
 * Statements as the statement log and the metrics see them: each one ends at
 * its CommandComplete (kind and rows from the tag) or at its error (SQLSTATE),
 * across simple queries of several statements, flushes of long results and
 * extended-protocol pipelines, with the gate decisions recorded meanwhile
 * attached to the statement they belong to.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import * as be from '../../protocol/backend.js';
import { PgError, SqlState } from '../../protocol/errors.js';
import type { BindRequest, Output, QuerySession } from '../../protocol/handler.js';
import { MessageWriter } from '../../protocol/writer.js';
import { loadRedactor } from '../audit/redact.js';
import { emptyDetail } from './gateSummary.js';
import { OpsMetrics } from './metrics.js';
import { ObservedSession } from './observedSession.js';
import { kindOfText, parseTag, StatementWatch } from './statementWatch.js';

beforeAll(async () => {
  await loadRedactor();
});

type Step = (out: Output) => Promise<void> | void;

/** A session that runs whatever the test scripts for its next call, writing to the protocol's writer. */
class ScriptedSession implements QuerySession {
  readonly processId = 4242;
  readonly secretKey = 1;
  next: Step[] = [];
  constructor(private readonly out: Output) {}
  private async step(out?: Output): Promise<void> {
    const s = this.next.shift();
    if (s) await s(out ?? this.out);
  }
  initialParameters(): [string, string][] {
    return [];
  }
  simpleQuery(_sql: string, out: Output) {
    return this.step(out);
  }
  parse(_n: string, _s: string, _p: number[]) {
    return this.step();
  }
  bind(_r: BindRequest) {
    return this.step();
  }
  describeStatement() {
    return Promise.resolve();
  }
  describePortal() {
    return Promise.resolve();
  }
  execute(_p: string, _m: number, out: Output) {
    return this.step(out);
  }
  close() {
    return Promise.resolve();
  }
  sync() {
    return Promise.resolve();
  }
  errorOccurred() {}
  interrupt() {}
  transactionStatus() {
    return 'I' as const;
  }
  end() {
    return Promise.resolve();
  }
}

function setup() {
  const writer = new MessageWriter(256);
  const sent: Buffer[] = [];
  const out: Output = {
    writer,
    flush: async () => void sent.push(writer.take()),
    maybeFlush: async () => {
      if (writer.length > 1024) sent.push(writer.take());
    },
    copyIn: () => (async function* () {})(),
  };
  const lines: Record<string, unknown>[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _e, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    }),
  );
  const metrics = new OpsMetrics({ processMetrics: false });
  const watch = new StatementWatch(metrics, log);
  const inner = new ScriptedSession(out);
  let ended = 0;
  const session = new ObservedSession(inner, watch.open(inner.processId, 'alice'), () => ended++);
  // pino writes through a stream: give it a turn before reading the lines
  const logged = async () => {
    await new Promise((r) => setImmediate(r));
    return lines;
  };
  return { out, inner, session, watch, metrics, logged, ended: () => ended };
}

const gateOn = (watch: StatementWatch, table: string) => watch.gate(4242, { ...emptyDetail(), tables: [table], masked: [`${table}.ssn`] });

test('a simple query of two statements: a line each, kinds and rows from the tags, texts redacted and split', async () => {
  const { out, inner, session, watch, logged } = setup();
  inner.next.push((o) => {
    gateOn(watch, 'sales.orders');
    be.commandComplete(o.writer, 'SELECT 2');
    // the second statement's decisions come after the first one's tag, before any flush
    gateOn(watch, 'sales.other');
    be.commandComplete(o.writer, 'INSERT 0 5');
  });
  await session.simpleQuery("select ssn from sales.orders where ssn = '111-11-1111'; insert into sales.other values (1, 'x')", out);
  const lines = await logged();
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatchObject({ event: 'statement', user: 'alice', pid: 4242, kind: 'SELECT', rows: 2, sqlstate: '00000', tables: ['sales.orders'], statement: 'select ssn from sales.orders where ssn = $1' });
  expect(lines[1]).toMatchObject({ kind: 'INSERT', rows: 5, tables: ['sales.other'], statement: 'insert into sales.other values ($2, $3)' });
  expect(lines[0]!['statementId']).not.toBe(lines[1]!['statementId']);
  expect(JSON.stringify(lines)).not.toContain('111-11');
});

test('an error ends the statement in progress with its SQLSTATE; the kind comes from its text', async () => {
  const { out, inner, session, logged, metrics } = setup();
  inner.next.push((o) => {
    be.commandComplete(o.writer, 'SET');
    throw new PgError(SqlState.undefinedTable, 'relation "nope" does not exist');
  });
  await expect(session.simpleQuery('set search_path = sales; delete from nope', out)).rejects.toThrow('nope');
  const lines = await logged();
  expect(lines.map((l) => [l['kind'], l['sqlstate'], l['rows']])).toEqual([
    ['SET', '00000', null],
    ['DELETE', '42P01', null],
  ]);
  const text = await metrics.render();
  expect(text).toContain('lakegate_statements_total{kind="DELETE",sqlstate_class="42"} 1');
});

test('a long result flushed midway: its tag is read before the bytes go', async () => {
  const { out, inner, session, logged } = setup();
  inner.next.push(async (o) => {
    be.commandComplete(o.writer, 'SELECT 1');
    for (let i = 0; i < 200; i++) {
      o.writer.begin('D').int16(1).int32(10).bytes(Buffer.from('0123456789')).end();
      await o.maybeFlush();
    }
    be.commandComplete(o.writer, 'SELECT 200');
    await o.flush();
  });
  await session.simpleQuery('select 1; select x from generate_series(1, 200) x', out);
  expect((await logged()).map((l) => l['rows'])).toEqual([1, 200]);
});

test('after a flush hands the buffer over, reading starts at its new beginning, however much is written next', async () => {
  const { out, inner, session, logged } = setup();
  const row = (o: Output, n: number) => o.writer.begin('D').int16(1).int32(n).bytes(Buffer.alloc(n, 0x41)).end();
  inner.next.push(async (o) => {
    row(o, 1500);
    await o.maybeFlush(); // over 1024 bytes: handed over
    be.commandComplete(o.writer, 'SELECT 1');
    row(o, 900);
    row(o, 900);
    be.commandComplete(o.writer, 'SELECT 2');
  });
  await session.simpleQuery('select a; select b', out);
  expect((await logged()).map((l) => l['rows'])).toEqual([1, 2]);
});

test('an extended pipeline: each Execute its statement, with the text its Parse gave', async () => {
  const { out, inner, session, logged } = setup();
  const exec = (tag: string) => (o: Output) => void be.commandComplete(o.writer, tag);
  inner.next.push(() => undefined, () => undefined, exec('SELECT 1'), () => undefined, () => undefined, exec('UPDATE 3'));
  await session.parse('s1', 'select * from t where id = $1', []);
  await session.bind({ portal: '', statement: 's1', paramFormats: [], params: [], resultFormats: [] });
  await session.execute('', 0, out);
  await session.parse('', "update t set a = 'secret' where id > 4", []);
  await session.bind({ portal: '', statement: '', paramFormats: [], params: [], resultFormats: [] });
  await session.execute('', 0, out);
  await session.sync();
  // a Parse and Describe alone is no statement
  inner.next.push(() => undefined);
  await session.parse('s2', 'select 1', []);
  await session.sync();
  const lines = await logged();
  expect(lines.map((l) => [l['kind'], l['rows'], l['statement']])).toEqual([
    ['SELECT', 1, 'select * from t where id = $1'],
    ['UPDATE', 3, 'update t set a = $1 where id > $2'],
  ]);
});

test('a Bind that fails is the statement failing', async () => {
  const { inner, session, logged } = setup();
  inner.next.push(
    () => undefined,
    () => {
      throw new PgError(SqlState.invalidTextRepresentation, 'invalid input syntax for type integer');
    },
  );
  await session.parse('', 'select * from t where id = $1', []);
  await expect(session.bind({ portal: '', statement: '', paramFormats: [], params: [], resultFormats: [] })).rejects.toThrow('invalid input');
  await session.sync();
  expect((await logged()).map((l) => [l['kind'], l['sqlstate']])).toEqual([['SELECT', '22P02']]);
});

test('the session gauge follows the session, and the log can be turned off', async () => {
  const { out, inner, session, watch, logged, metrics, ended } = setup();
  expect(await metrics.render()).toContain('lakegate_sessions 0');
  watch.setLog(null);
  inner.next.push((o) => void be.commandComplete(o.writer, 'SELECT 1'));
  await session.simpleQuery('select 1', out);
  expect(await logged()).toHaveLength(0);
  expect(await metrics.render()).toContain('lakegate_statements_total{kind="SELECT",sqlstate_class="00"} 1');
  await session.end();
  expect(ended()).toBe(1);
});

test('the texts kept by statement name are bounded: a name pushed out logs its statement without text', async () => {
  const { out, inner, session, logged } = setup();
  await session.parse('first', "select 'kept?'", []);
  for (let i = 0; i < 2048; i++) await session.parse(`s${i}`, 'select 1', []);
  await session.sync();
  inner.next.push(() => undefined, (o) => void be.commandComplete(o.writer, 'SELECT 1'));
  await session.bind({ portal: '', statement: 'first', paramFormats: [], params: [], resultFormats: [] });
  await session.execute('', 0, out);
  await session.sync();
  expect((await logged()).map((l) => [l['kind'], l['statement']])).toEqual([['SELECT', '']]);
});

test('parseTag and kindOfText keep kinds to command names', () => {
  expect(parseTag('INSERT 0 5')).toEqual({ kind: 'INSERT', rows: 5 });
  expect(parseTag('SELECT 12')).toEqual({ kind: 'SELECT', rows: 12 });
  expect(parseTag('CREATE TABLE')).toEqual({ kind: 'CREATE TABLE', rows: null });
  expect(parseTag('FETCH 0')).toEqual({ kind: 'FETCH', rows: 0 });
  expect(kindOfText('  (select 1)')).toBe('SELECT');
  expect(kindOfText('with x as (select 1) select * from x')).toBe('WITH');
  expect(kindOfText('alice_secret_word from t')).toBe('OTHER');
  expect(kindOfText('')).toBe('EMPTY');
});
