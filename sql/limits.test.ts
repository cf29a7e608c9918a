/**
 * The statement bounds of sql/limits.ts, measured on trees from the real
 * parser: counts and nesting as described, PostgreSQL's own limits with its
 * SQLSTATEs, and macro expansion estimated from the copies each call makes.
 */
import { loadParser } from './parse.js';
import { parseSync } from 'libpg-query';
import { checkConstantNesting, checkTree, expandedSize } from './limits.js';
import { SqlError } from './errors.js';
import { EMULATION_DB, PGC_SCHEMA } from './emulation.js';

beforeAll(async () => {
  await loadParser();
});

const tree = (sql: string) => (parseSync(sql) as { stmts: { stmt: unknown }[] }).stmts[0]!.stmt;
const loose = { maxNodes: 1e9, maxDepth: 1e9 };
const refusal = (f: () => unknown): SqlError => {
  try {
    f();
  } catch (e) {
    return e as SqlError;
  }
  throw new Error('no error');
};

describe('checkTree', () => {
  test('nesting grows by one per step of a left-deep chain, a UNION arm or an ARRAY level', () => {
    const depth = (sql: string) => checkTree(tree(sql), loose).depth;
    const chain = (n: number) => `select ${Array(n).fill('1').join('+')}`;
    expect(depth(chain(101)) - depth(chain(1))).toBe(100);
    const unions = (n: number) => Array(n).fill('select 1').join(' union all ');
    expect(depth(unions(51)) - depth(unions(1))).toBe(50);
  });

  test('past maxDepth: 54001 stack depth limit exceeded, naming the limit in the hint', () => {
    const e = refusal(() => checkTree(tree(`select ${Array(300).fill('1').join('+')}`), { maxNodes: 1e9, maxDepth: 256 }));
    expect(e).toMatchObject({ code: '54001', message: 'stack depth limit exceeded' });
    expect(e.hint).toContain('limits.maxStatementDepth');
  });

  test('past maxNodes: 54001 statement is too complex', () => {
    const e = refusal(() => checkTree(tree(`select 1 where 1 in (${Array.from({ length: 600 }, (_, i) => i).join(',')})`), { maxNodes: 1000, maxDepth: 1e9 }));
    expect(e).toMatchObject({ code: '54001', message: 'statement is too complex: more than 1000 parse-tree nodes' });
  });

  test('a tree deeper than the JavaScript stack is measured without recursion', () => {
    let deep: unknown = { A_Const: { ival: { ival: 1 } } };
    for (let i = 0; i < 200_000; i++) deep = { A_Expr: { kind: 'AEXPR_OP', name: [{ String: { sval: '+' } }], lexpr: deep, rexpr: { A_Const: { ival: {} } } } };
    expect(checkTree(deep, loose).depth).toBeGreaterThan(200_000);
  });

  test("PostgreSQL's limits: 1,665 target entries (54011), 101 arguments (54023), 7 array dimensions (54000)", () => {
    const cols = (n: number) => `select ${Array.from({ length: n }, (_, i) => i).join(',')}`;
    expect(checkTree(tree(cols(1664)), loose).nodes).toBeGreaterThan(1664);
    expect(refusal(() => checkTree(tree(cols(1665)), loose))).toMatchObject({ code: '54011', message: 'target lists can have at most 1664 entries' });
    expect(refusal(() => checkTree(tree(`select concat(${Array(101).fill('1').join(',')})`), loose))).toMatchObject({ code: '54023' });
    expect(refusal(() => checkTree(tree(`select ${'array['.repeat(7)}1${']'.repeat(7)}`), loose))).toMatchObject({
      code: '54000',
      message: 'number of array dimensions (7) exceeds the maximum allowed (6)',
    });
    expect(checkTree(tree(`select ${'array['.repeat(6)}1${']'.repeat(6)}`), loose).nodes).toBeGreaterThan(6);
    expect(refusal(() => checkTree(tree("select '{}'::int[][][][][][][]"), loose))).toMatchObject({ code: '54000' });
  });

  test('flags strings that could be identifiers the parser truncated (60–63 bytes), and only those', () => {
    expect(checkTree(tree(`select 1 as ${'a'.repeat(62)}`), loose).maybeTruncatedIdentifier).toBe(true);
    expect(checkTree(tree(`select 1 as ${'a'.repeat(40)}`), loose).maybeTruncatedIdentifier).toBe(false);
    expect(checkTree(tree(`select '${'a'.repeat(200)}'`), loose).maybeTruncatedIdentifier).toBe(false);
  });
});

describe('expandedSize', () => {
  const macro = (...args: unknown[]) => ({ FuncCall: { funcname: [EMULATION_DB, PGC_SCHEMA, 'm'].map((s) => ({ String: { sval: s } })), args } });
  const leaf = () => ({ ColumnRef: { fields: [{ String: { sval: 'x' } }] } });

  test('without macros it is the plain node count', () => {
    const t = tree('select a + b * c from t where d = 1');
    expect(expandedSize(t, 16, 1e9)).toBe(checkTree(t, loose).nodes);
  });

  test('nested macro calls multiply by the copies per argument', () => {
    const one = expandedSize(macro(leaf()), 2, 1e9);
    const two = expandedSize(macro(macro(leaf())), 2, 1e9);
    const three = expandedSize(macro(macro(macro(leaf()))), 2, 1e9);
    expect(two - 1).toBe(2 * one);
    expect(three - 1).toBe(2 * two);
  });

  test('a macro with its own count per argument copies each as often as that count says', () => {
    // a literal's typed wrapper (sql/dialect/numeric.ts) binds its operand once and copies its literal once
    const l = expandedSize(leaf(), 16, 1e9);
    expect(expandedSize(macro(leaf(), leaf()), 16, 1e9, { m: [1, 1] })).toBe(1 + 2 * l);
    expect(expandedSize(macro(leaf(), leaf()), 16, 1e9, { m: [1] })).toBe(1 + l + 16 * l);
    expect(expandedSize(macro(macro(leaf())), 16, 1e9, { m: [2] })).toBe(1 + 2 * (1 + 2 * l));
  });

  test('stops counting past the cap', () => {
    let t: unknown = leaf();
    for (let i = 0; i < 60; i++) t = macro(t);
    expect(expandedSize(t, 2, 1000)).toBeGreaterThan(1000);
  });
});

describe('checkConstantNesting', () => {
  const chain = (n: number, leaf = '1') => `select ${Array(n).fill(leaf).join(' + ')}`;

  test('a chain of 32 constants passes, 33 are refused with 54001', () => {
    expect(() => checkConstantNesting(tree(chain(32)), 32)).not.toThrow();
    expect(refusal(() => checkConstantNesting(tree(chain(33)), 32))).toMatchObject({
      code: '54001',
      message: 'statement is too complex: a constant expression nested more than 32 levels',
    });
  });

  test('calls, casts and CASE count as levels of a constant expression; a column or parameter ends it', () => {
    const nested = (n: number) => `select ${'upper('.repeat(n)}'a'${')'.repeat(n)}::text`;
    expect(() => checkConstantNesting(tree(nested(30)), 32)).not.toThrow();
    expect(() => checkConstantNesting(tree(nested(40)), 32)).toThrow(/nested more than 32/);
    // the same depth over a column or a parameter is not folded, so not refused
    expect(() => checkConstantNesting(tree(chain(200, 'x')), 32)).not.toThrow();
    expect(() => checkConstantNesting(tree(`select ${Array(200).fill('$1').join(' || ')}`), 32)).not.toThrow();
    // a long constant chain inside a non-constant expression is still refused
    expect(() => checkConstantNesting(tree(`select x + (${chain(40).slice(7)}) from t`), 32)).toThrow(/nested more than 32/);
  });
});
