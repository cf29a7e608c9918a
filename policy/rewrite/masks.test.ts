/**
 * Hive's mask functions as built here, run on DuckDB with the installed macros,
 * against expectations written out by hand from Hive's rules and golden
 * outputs (reference/ranger.md §9) and HMAC-SHA256 from Node's crypto.
 */
import { createHash, createHmac } from 'node:crypto';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { deparse } from '../../sql/deparse.js';
import { builtinMacroStatements } from '../../sql/dialect/builtinMacros.js';
import { EMULATION_DB, PGC_SCHEMA } from '../../sql/emulation.js';
import { loadParser } from '../../sql/parse.js';
import type { PgNode } from '../../sql/walk.js';
import { compilePolicyExpression, PolicyExpressionError, type ExpressionScope } from './expressions.js';
import { hmacPads, installMaskMacros } from './macros.js';

const KEY = 'unit-test-mask-key-0123456789';
let instance: DuckDBInstance;
let conn: DuckDBConnection;

beforeAll(async () => {
  await loadParser();
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
  await conn.run(`ATTACH ':memory:' AS ${EMULATION_DB}`);
  await installMaskMacros((sql) => conn.run(sql), KEY);
  // the planner's built-in helpers a mask expression may call (concat: sql/dialect/builtinMacros.ts)
  const schema = `${EMULATION_DB}.${PGC_SCHEMA}`;
  await conn.run(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  for (const stmt of builtinMacroStatements((sig) => `CREATE OR REPLACE MACRO ${schema}.${sig}`, schema)) await conn.run(stmt);
});

afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

function scope(type: string, hashAvailable = true): ExpressionScope {
  return {
    columns: new Map([['v', type], ['other', 'VARCHAR']]),
    source: 't',
    user: 'alice',
    roles: new Set(['analyst']),
    dialect: { database: 'demo', searchPath: ['public'], user: 'alice', catalog: { listSchemas: () => [], getTable: () => undefined }, settings: () => undefined, backendPid: 1 },
    mask: { hashAvailable },
  };
}

/** The mask expression evaluated on one value of the given DuckDB type; the result as DuckDB prints it. */
async function masked(transformer: string, type: string, value: string | null): Promise<string | null> {
  const expr = compilePolicyExpression(transformer, scope(type), 'v');
  const sql = deparse({ SelectStmt: { targetList: [{ ResTarget: { name: 'r', val: { TypeCast: { arg: expr, typeName: { names: [{ String: { sval: 'varchar' } }], typemod: -1 } } } } }], limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE' } } as PgNode);
  const lit = value === null ? 'NULL' : `'${value.replace(/'/g, "''")}'`;
  const full = `SELECT r FROM (SELECT CAST(${lit} AS ${type}) AS v, 'x' AS other) AS t, LATERAL (${sql})`;
  const rows = (await conn.runAndReadAll(full)).getRows();
  const v = rows[0]![0];
  return v === null ? null : String(v);
}

describe('MASK (mask({col})), Hive defaults X x n, others kept', () => {
  it.each([
    ['TestString-123', 'XxxxXxxxxx-nnn'], // Hive's golden udf_mask.q.out
    ['111-11-1111', 'nnn-nn-nnnn'],
    ['Ärger über Öl 42!', 'Xxxxx xxxx Xx nn!'],
    ['', ''],
  ])('%s → %s', async (input, expected) => {
    expect(await masked('mask({col})', 'VARCHAR', input)).toBe(expected);
  });

  it('a character outside the BMP is two "other" UTF-16 units: kept with -1, two replacements otherwise', async () => {
    expect(await masked('mask({col})', 'VARCHAR', 'a\u{1D400}B')).toBe('x\u{1D400}X');
    expect(await masked("mask({col}, 'X', 'x', 'n', '*')", 'VARCHAR', 'a\u{1D400}-1')).toBe('x***n');
  });

  it('replacements that belong to another class are not masked again', async () => {
    // digits become 'a', a lower-case letter: lower-case letters are replaced first
    expect(await masked("mask({col}, 'Q', 'x', 'a')", 'VARCHAR', 'aB1')).toBe('xQa');
    // upper-case letters become '7', a digit, digits become 'n': digits first
    expect(await masked("mask({col}, '7', 'x', 'n')", 'VARCHAR', 'B1')).toBe('7n');
    // an integer char argument is a code point: 42 = '*'
    expect(await masked('mask({col}, 42, 42, 42)', 'VARCHAR', 'aB1-')).toBe('***-');
    // -1 keeps a class
    expect(await masked("mask({col}, -1, 'x', -1)", 'VARCHAR', 'aB1')).toBe('xB1');
  });

  it('every ASCII character (the translate path) as Hive masks it; the same characters with one non-ASCII letter (the regexp path) agree', async () => {
    let ascii = '\t\n';
    for (let c = 0x20; c < 0x7f; c++) ascii += String.fromCharCode(c);
    // Hive by hand: A–Z → X, a–z → x, 0–9 → n, every other ASCII character kept
    const byHand = (v: string, u: string, l: string, d: string) => v.replace(/[A-Z]/g, u).replace(/[a-z]/g, l).replace(/[0-9]/g, d);
    expect(await masked('mask({col})', 'VARCHAR', ascii)).toBe(byHand(ascii, 'X', 'x', 'n'));
    expect(await masked('mask({col})', 'VARCHAR', `${ascii}é`)).toBe(`${byHand(ascii, 'X', 'x', 'n')}x`);
    // replacements that are quotes, backslashes or outside ASCII
    expect(await masked("mask({col}, '''', '\\', '•')", 'VARCHAR', ascii)).toBe(byHand(ascii, "'", '\\', '•'));
    expect(await masked("mask({col}, '''', '\\', '•')", 'VARCHAR', `É${ascii}`)).toBe(`'${byHand(ascii, "'", '\\', '•')}`);
    expect(await masked("mask_show_last_n({col}, 4, 'x', 'x', 'x', -1, '1')", 'VARCHAR', ascii)).toBe(byHand(ascii.slice(0, -4), 'x', 'x', 'x') + ascii.slice(-4));
  });

  it('NULL stays NULL', async () => {
    expect(await masked('mask({col})', 'VARCHAR', null)).toBeNull();
    expect(await masked('mask({col})', 'INTEGER', null)).toBeNull();
    expect(await masked('mask({col})', 'DATE', null)).toBeNull();
  });
});

describe('MASK_SHOW_LAST_4 / MASK_SHOW_FIRST_4 on strings', () => {
  const last4 = "mask_show_last_n({col}, 4, 'x', 'x', 'x', -1, '1')";
  const first4 = "mask_show_first_n({col}, 4, 'x', 'x', 'x', -1, '1')";
  it.each([
    [last4, '1234-5678-9012-3456', 'xxxx-xxxx-xxxx-3456'],
    [last4, '111-11-1111', 'xxx-xx-1111'],
    [last4, 'abcd', 'abcd'],
    [last4, 'Ab', 'Ab'],
    [last4, 'Zürich 8001', 'xxxxxx 8001'],
    [first4, '1234-5678-9012-3456', '1234-xxxx-xxxx-xxxx'],
    [first4, 'abcde', 'abcdx'],
    [first4, 'abc', 'abc'],
    ['mask_show_last_n({col}, 0)', 'aB1', 'xXn'],
    ['mask_show_last_n({col}, -3)', 'aB1', 'xXn'],
    ['mask_show_first_n({col})', 'abcdeF', 'abcdxX'],
  ])('%s of %s → %s', async (t, input, expected) => {
    expect(await masked(t, 'VARCHAR', input)).toBe(expected);
  });
});

describe('integer masks keep the type and wrap as Java does', () => {
  it.each([
    ['mask({col})', 'INTEGER', '12345', '11111'],
    ['mask({col})', 'INTEGER', '-123', '-111'],
    ['mask({col})', 'INTEGER', '0', '1'],
    ["mask({col}, 'X', 'x', 'n', -1, '5')", 'BIGINT', '12345', '55555'],
    ["mask({col}, 'X', 'x', 'n', -1, '5')", 'INTEGER', '12345', '55555'],
    // Hive's golden outputs: tinyint 123 → 43, smallint 12345 → -9981 (narrowing)
    ["mask({col}, 'X', 'x', 'n', -1, '5')", 'TINYINT', '123', '43'],
    ["mask({col}, 'X', 'x', 'n', -1, '5')", 'SMALLINT', '12345', '-9981'],
    // a number char outside 0-9 falls back to 1
    ["mask({col}, 'X', 'x', 'n', -1, '12')", 'INTEGER', '345', '111'],
    ["mask_show_last_n({col}, 4, 'x', 'x', 'x', -1, '1')", 'INTEGER', '123456789', '111116789'],
    ["mask_show_last_n({col}, 4, 'x', 'x', 'x', -1, '1')", 'INTEGER', '-123456789', '-111116789'],
    ["mask_show_last_n({col}, 4, 'x', 'x', 'x', -1, '1')", 'INTEGER', '1000005', '1110005'],
    ["mask_show_last_n({col}, 4, 'x', 'x', 'x', -1, '1')", 'INTEGER', '0', '0'],
    ["mask_show_last_n({col}, 0, 'x', 'x', 'x', -1, '7')", 'INTEGER', '0', '7'],
    ["mask_show_first_n({col}, 4, 'x', 'x', 'x', -1, '1')", 'INTEGER', '123456789', '123411111'],
    ["mask_show_first_n({col}, 4, 'x', 'x', 'x', -1, '1')", 'INTEGER', '123', '123'],
  ])('%s on %s %s → %s', async (t, type, input, expected) => {
    expect(await masked(t, type, input)).toBe(expected);
  });

  it('BIGINT overflows like a Java long', async () => {
    const nines = BigInt.asIntN(64, 9999999999999999999n); // 19 digits of 9 in a long
    expect(await masked("mask({col}, 'X', 'x', 'n', -1, '9')", 'BIGINT', '9223372036854775807')).toBe(nines.toString());
    expect(await masked("mask({col}, 'X', 'x', 'n', -1, '9')", 'BIGINT', '-9223372036854775807')).toBe((-nines).toString());
  });

  it('the result has the column type', async () => {
    for (const type of ['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'DATE', 'VARCHAR']) {
      const expr = compilePolicyExpression('mask({col})', scope(type), 'v');
      const sql = deparse({ SelectStmt: { targetList: [{ ResTarget: { val: expr } }], limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE' } } as PgNode);
      const rows = (await conn.runAndReadAll(`SELECT typeof(m) FROM (SELECT NULL::${type} AS v) t, LATERAL (SELECT (${sql.replace(/^SELECT /, '')}) AS m)`)).getRows();
      // string and date masks are the type itself; integer masks are HUGEINT here and cast back by the derived table
      expect(['VARCHAR', 'DATE', 'HUGEINT', 'NULL']).toContain(String(rows[0]![0]));
    }
  });
});

describe('date masks', () => {
  // DuckDB prints year 0 (Hive's 0000) as 0001 BC.
  it.each([
    ['mask({col})', '0001-01-01 (BC)'],
    ["mask({col}, 'x', 'x', 'x', -1, '1', -1, 0, 0)", '0001-01-20 (BC)'],
    ["mask({col}, 'x', 'x', 'x', -1, '1', 1, -1, 0)", '0001-04-01 (BC)'],
    ["mask({col}, 'x', 'x', 'x', -1, '1', 1, 0, -1)", '2016-01-01'], // MASK_DATE_SHOW_YEAR
    ["mask({col}, 'x', 'x', 'x', -1, '1', -1, -1, -1)", '2016-04-20'],
    ["mask({col}, 'x', 'x', 'x', -1, '1', 0, 0, -1)", '2016-01-01'], // day 0 is invalid → 1
    ["mask({col}, 'x', 'x', 'x', -1, '1', 1, 11, 1999)", '1999-12-01'],
    ["mask_show_last_n({col}, 4, 'x', 'x', 'x', -1, '1')", '0001-01-01 (BC)'],
  ])('%s of 2016-04-20 → %s', async (t, expected) => {
    expect(await masked(t, 'DATE', '2016-04-20')).toBe(expected);
  });
});

describe('MASK_HASH: HMAC-SHA256 of the UTF-8 value keyed by the mask key', () => {
  const hmac = (v: string) => createHmac('sha256', KEY).update(Buffer.from(v, 'utf8')).digest('hex');
  it.each(['111-11-1111', 'TestString-123', '', 'Grüße, 世界 \u{1F600}', "it's"])('%s', async (v) => {
    expect(await masked('mask_hash({col})', 'VARCHAR', v)).toBe(hmac(v));
  });

  it.each([['short', 'k'], ['block-sized', 'k'.repeat(64)], ['longer than a block (hashed first)', 'k'.repeat(100)]])(
    'the pads of a %s key give Node\'s HMAC',
    (_what, key) => {
      const { ipad, opad } = hmacPads(key);
      const sha = (b: Buffer) => createHash('sha256').update(b).digest();
      const viaPads = sha(Buffer.concat([Buffer.from(opad, 'hex'), sha(Buffer.concat([Buffer.from(ipad, 'hex'), Buffer.from('x')]))]));
      expect(viaPads.toString('hex')).toBe(createHmac('sha256', key).update('x').digest('hex'));
    },
  );

  it('non-string types hash to NULL (Hive)', async () => {
    expect(await masked('mask_hash({col})', 'INTEGER', '5')).toBeNull();
    expect(await masked('mask_hash({col})', 'DATE', '2016-04-20')).toBeNull();
  });

  it('cannot be built without a key', () => {
    expect(() => compilePolicyExpression('mask_hash({col})', scope('VARCHAR', false), 'v')).toThrow(PolicyExpressionError);
  });
});

describe('types Hive does not mask give NULL', () => {
  it.each(['DECIMAL(10,2)', 'DOUBLE', 'BOOLEAN', 'TIMESTAMP'])('%s', async (type) => {
    const value = type === 'BOOLEAN' ? 'true' : type === 'TIMESTAMP' ? '2020-01-01 10:00:00' : '12.5';
    expect(await masked('mask({col})', type, value)).toBeNull();
    expect(await masked("mask_show_last_n({col}, 4, 'x', 'x', 'x', -1, '1')", type, value)).toBeNull();
  });
});

describe('CUSTOM expressions and what cannot be built', () => {
  it('{col} is the column; other columns of the table may be used', async () => {
    expect(await masked("concat('***', right({col}, 2))", 'VARCHAR', 'secret')).toBe('***et');
    expect(await masked("CASE WHEN other = 'x' THEN upper({col}) END", 'VARCHAR', 'ab')).toBe('AB');
  });

  it.each([
    ['(SELECT max(ssn) FROM sales.orders)', 'subquery'],
    ["read_text('/etc/passwd')", 'file function'],
    ['count({col})', 'aggregate'],
    ['nosuch_column', 'unknown column'],
    ["mask({col}, upper('x'))", 'non-constant mask argument'],
    ["mask_show_last_n({col}, 'four')", 'non-integer count'],
    ["current_setting('search_path')", 'session setting'],
    ['lg__masked_column__', 'reserved name'],
    ['{col}) FROM sales.orders --', 'text that closes the expression'],
    ['{col}; DROP TABLE x', 'two statements'],
    ['$1', 'parameter'],
    ["mask({col}, 'a', 'A')", 'replacements that chase each other (upper → a, lower → A)'],
  ])('%s (%s) is refused', (expr) => {
    expect(() => compilePolicyExpression(expr, scope('VARCHAR'), 'v')).toThrow(PolicyExpressionError);
  });
});

