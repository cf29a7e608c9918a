/**
 * A bounded fuzz of the gateway (issue 11, "How to prove it"): random SQL
 * built from the grammar's pieces (deep nesting, long chains, big lists,
 * hostile LIKE patterns, casts, functions, invalid bytes) and random frames
 * before and after login, for a fixed time. Asserts that the server stays up,
 * a bystander session keeps answering within a bound, and every error
 * carries a PostgreSQL SQLSTATE other than XX000 and no internal text.
 *
 * Reproducible: the seed is printed; LAKEGATE_FUZZ_SEED=N repeats a run,
 * LAKEGATE_FUZZ_SECONDS=N changes its length (default 20 + 10).
 */
import net from 'node:net';
import { startServe, type ServedGateway } from '../support/lakegateServe.js';
import { mulberry32 } from '../support/random.js';
import { RawConn, fe, frame, parseError, type ErrorFields } from '../support/wire.js';
import { connected, expectClean, ping } from './support.js';

const SEED = Number(process.env['LAKEGATE_FUZZ_SEED'] ?? Date.now() % 1_000_000);
const SECONDS = Number(process.env['LAKEGATE_FUZZ_SECONDS'] ?? 20);

const random = mulberry32(SEED);
const int = (n: number) => Math.floor(random() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
const chance = (p: number) => random() < p;

const LITERALS = ['1', '0', '-1', '2147483647', '9223372036854775807', '1.5', "'x'", "''", "'abc'", 'null', 'true', "'2024-01-01'", "'1 day'", "'{1,2}'", "'\\x00ff'", "repeat('ab', 1000)", '1e308', "'NaN'"];
const FUNCTIONS = ['abs', 'lower', 'upper', 'length', 'substr', 'repeat', 'lpad', 'rpad', 'coalesce', 'nullif', 'md5', 'concat', 'replace', 'split_part', 'regexp_replace', 'chr', 'ascii', 'round', 'power', 'sqrt', 'ln', 'date_trunc', 'to_hex', 'string_agg', 'array_agg', 'count', 'sum', 'max', 'nosuchfn', 'read_csv', 'pg_sleep', 'current_setting', 'version'];
const OPERATORS = ['+', '-', '*', '/', '%', '||', '=', '<>', '<', '>=', 'and', 'or', '~', '~*', '!~', 'like', 'ilike', 'not like', '^', '&', '|', '<<', '@>', '->>'];
const TYPES = ['int', 'bigint', 'smallint', 'text', 'numeric', 'numeric(5,2)', 'float8', 'bool', 'date', 'timestamp', 'timestamptz', 'interval', 'bytea', 'json', 'uuid', 'int[]', 'text[]', 'regclass', 'nosuchtype'];
const PATTERNS = ["'%a%a%a%a%a%a%a%a%a%b'", "'%_%_%_%_%_%_%_%'", "'a\\'", "'\\%'", "'%'", "'_'", "'%[%'", "'(?'", "'" + '%a'.repeat(30) + "'"];

function expr(depth: number): string {
  if (depth <= 0 || chance(0.25)) return pick(LITERALS);
  switch (int(11)) {
    case 0:
      return `(${expr(depth - 1)} ${pick(OPERATORS)} ${expr(depth - 1)})`;
    case 1:
      return `${pick(FUNCTIONS)}(${Array.from({ length: int(4) }, () => expr(depth - 1)).join(', ')})`;
    case 2:
      return `cast(${expr(depth - 1)} as ${pick(TYPES)})`;
    case 3:
      return `${expr(depth - 1)}::${pick(TYPES)}`;
    case 4:
      return `case when ${expr(depth - 1)} then ${expr(depth - 1)} else ${expr(depth - 1)} end`;
    case 5:
      return `${expr(depth - 1)} ${pick(['like', 'ilike', 'not like'])} ${pick(PATTERNS)}${chance(0.3) ? ` escape '${pick(['!', '', 'ab', '\\'])}'` : ''}`;
    case 6:
      return `(select ${expr(depth - 1)})`;
    case 7:
      return `array[${Array.from({ length: int(5) }, () => expr(depth - 1)).join(', ')}]`;
    case 8:
      return `${expr(depth - 1)} in (${Array.from({ length: 1 + int(chance(0.1) ? 6000 : 20) }, (_, i) => i).join(',')})`;
    case 9:
      return Array(2 + int(chance(0.1) ? 400 : 20)).fill(expr(0)).join(pick([' + ', ' || ', ' * ', ' / ']));
    default:
      return `${'('.repeat(int(60))}${expr(depth - 1)}${')'.repeat(int(60))}`;
  }
}

function statement(): string {
  switch (int(9)) {
    case 0:
      return Array(1 + int(chance(0.2) ? 500 : 10)).fill(`select ${expr(2)}`).join(pick([' union all ', ' union ', ' except ']));
    case 1:
      return `select ${expr(1)} from sales.orders where ${expr(2)} order by 1 limit ${int(5)}`;
    case 2:
      return `with recursive t(n) as (select 1 union all select n + 1 from t where n < ${pick(['10', '1000', 'n'])}) select ${expr(1)} from t limit 3`;
    case 3:
      // token soup: grammar words in random order
      return Array.from({ length: 3 + int(20) }, () => pick(['select', 'from', 'where', '(', ')', ',', 'union', 'all', '1', "'x'", 'sales.orders', 'order by', 'group', 'by', '*', 'as', 'a', ';', 'join', 'on', 'lateral', 'copy', 'set', 'show', 'begin', 'explain'])).join(' ');
    case 4:
      return `select ${Array.from({ length: 1 + int(chance(0.1) ? 1700 : 30) }, (_, i) => `${expr(1)} as c${i}`).join(', ')}`;
    case 5:
      return `select ${'array['.repeat(1 + int(10))}1${']'.repeat(1 + int(10))}`;
    case 6:
      // never statement_timeout = 0: `select pg_sleep(2147483647)` then sleeps as long as in PostgreSQL
      return `set ${pick(['statement_timeout', 'search_path', 'timezone', 'work_mem', 'nosuch'])} = ${pick(["'50'", "'x'", "'2s'", "'UTC'", "'-1'"])}`;
    case 7:
      return `select ${expr(8)}`;
    default:
      return `select ${expr(3)}${chance(0.5) ? '; ' + `select ${expr(2)}` : ''}`;
  }
}

/** Random bytes, sometimes invalid UTF-8 or NUL. */
function bytes(n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = chance(0.7) ? 32 + int(95) : int(256);
  return b;
}

let g: ServedGateway;

beforeAll(async () => {
  // eslint-disable-next-line no-console
  console.log(`fuzz seed ${SEED} (LAKEGATE_FUZZ_SEED=${SEED} repeats this run)`);
  g = await startServe({ engine: { threads: 2, memoryLimit: '512MB' }, limits: { maxRowBytes: 16 * 1024 * 1024 } });
}, 90000);

afterAll(async () => {
  await g?.stop();
});

/** Errors that break the rule, with the input that caused them. */
const findings: string[] = [];
const codes: Record<string, number> = {};
function judge(input: string, e: ErrorFields): void {
  codes[e.code ?? '?'] = (codes[e.code ?? '?'] ?? 0) + 1;
  try {
    expectClean({ code: e.code ?? '', message: e.message ?? '', detail: e.detail, hint: e.hint });
  } catch {
    findings.push(`${e.code} ${e.message} ${e.detail ?? ''} ← ${input.slice(0, 300)}`);
  }
}

test(`random SQL for ${SECONDS} s: the server stays up, a bystander answers, every error is clean`, async () => {
  // The bystander is another user: a user's sessions share that user's engine and its memory bound
  // (README, engine), so a statement the fuzz drives past the bound may stop alice's other statements too.
  const bystander = await connected(g, 'bob');
  await ping(bystander); // bob's engine is started before the clock runs
  // A bound for each statement, as an operator would set one: the fuzz may call pg_sleep(2147483647).
  const login = async () => {
    const c = await RawConn.connect(g.host, g.port);
    await c.startup('alice', 'demo', 'alice');
    await c.simple("set statement_timeout = '10s'", 30000);
    return c;
  };
  let conn = await login();
  const until = Date.now() + SECONDS * 1000;
  let statements = 0;
  const slow: number[] = [];
  const long: string[] = [];
  while (Date.now() < until) {
    const sql = statement();
    const raw = chance(0.05) ? Buffer.concat([Buffer.from(sql), bytes(4)]) : Buffer.from(sql);
    conn.send(frame('Q', raw, Buffer.from([0])));
    statements++;
    const sentAt = performance.now();
    try {
      const ms = await conn.untilReady(30000);
      const took = performance.now() - sentAt;
      // Not an error, but worth seeing: what made one statement take long.
      if (took > 3000) long.push(`${Math.round(took)} ms ← ${sql.slice(0, 200)}`);
      for (const m of ms) if (m.type === 'E') judge(sql, parseError(m.body));
      // a BEGIN from the token soup must not leave every later statement failing with 25P02
      if (ms[ms.length - 1]!.body[0] !== 0x49) await conn.simple('rollback', 30000);
    } catch (e) {
      // a FATAL ends the connection (a protocol violation from raw bytes is fair); log in again
      if (!conn.ended) throw new Error(`${(e as Error).message} ← ${sql.slice(0, 2000)}`);
      conn = await login();
    }
    if (statements % 25 === 0) {
      const t = await ping(bystander);
      if (t > 2000) slow.push(t);
    }
  }
  conn.close();
  // eslint-disable-next-line no-console
  console.log(`fuzz: ${statements} statements; errors by SQLSTATE ${JSON.stringify(codes)}${long.length ? `\nlong statements:\n${long.join('\n')}` : ''}`);
  if (process.env['LAKEGATE_FUZZ_ENGINE_TEXTS']) {
    const texts = new Map<string, number>();
    for (const line of g.output().split('\n')) {
      const m = /"message":"([^"]{0,70})/.exec(line);
      if (line.includes('statement failed') && m) texts.set(m[1]!, (texts.get(m[1]!) ?? 0) + 1);
    }
    // eslint-disable-next-line no-console
    console.log([...texts].sort((a, b) => b[1] - a[1]).map(([t, n]) => `${n} ${t}`).join('\n'));
  }
  expect(g.alive()).toBe(true);
  expect(await ping(bystander)).toBeLessThan(2000);
  await bystander.end();
  expect({ statements: statements > 50, findings, slow }).toEqual({ statements: true, findings: [], slow: [] });
}, (SECONDS + 120) * 1000);

test('random frames before and after login: connections end cleanly, the server stays up', async () => {
  const bystander = await connected(g);
  const until = Date.now() + (SECONDS / 2) * 1000;
  let frames = 0;
  while (Date.now() < until) {
    const afterLogin = chance(0.6);
    const c = await RawConn.connect(g.host, g.port);
    try {
      if (afterLogin) await c.startup('alice', 'demo', 'alice');
      for (let k = 0; k < 1 + int(5); k++) {
        frames++;
        const body = bytes(int(200));
        if (!afterLogin && chance(0.5)) {
          // an untyped startup-phase packet: random length field, random code
          const head = Buffer.alloc(8);
          head.writeInt32BE(chance(0.2) ? int(2 ** 31) - 2 ** 30 : body.length + 8, 0);
          head.writeInt32BE(pick([196608, 80877103, 80877102, 80877104, int(2 ** 31)]), 4);
          c.send(Buffer.concat([head, body]));
        } else {
          const type = pick(['Q', 'P', 'B', 'E', 'D', 'C', 'S', 'H', 'F', 'd', 'c', 'f', 'p', 'x', String.fromCharCode(int(256))]);
          const f = frame(type, body);
          if (chance(0.2)) f.writeInt32BE(pick([-1, 0, 3, 2 ** 31 - 1, body.length + 100]), 1);
          c.send(f);
        }
      }
      c.send(fe.sync());
      const seen = await c.drainUntilClosed(1500).catch(() => [] as Awaited<ReturnType<typeof c.drainUntilClosed>>);
      for (const m of seen) if (m.type === 'E') judge('(random frame)', parseError(m.body));
    } catch {
      // the server may close at any point: that is allowed, as long as it stays up
    } finally {
      c.close();
    }
  }
  // Half-open sockets that never finish: dropped by the authentication timeout, not kept forever.
  const stray = net.connect(g.port, g.host);
  stray.on('error', () => undefined);
  stray.destroy();
  expect(g.alive()).toBe(true);
  expect(await ping(bystander)).toBeLessThan(2000);
  await bystander.end();
  expect({ frames: frames > 20, findings }).toEqual({ frames: true, findings: [] });
}, (SECONDS + 120) * 1000);
