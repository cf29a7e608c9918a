/**
 * Hive's mask functions (reference/ranger.md §9) as DuckDB expressions, built
 * as AST nodes: `mask`, `mask_show_last_n`, `mask_show_first_n`, `mask_hash`,
 * with Hive's argument rules (a string argument contributes its first
 * character, an integer one a code point, -1 keeps the original character;
 * out-of-range numbers, days and months fall back to Hive's defaults).
 *
 * Per column type, as Hive's transformer adapters do: strings are masked
 * character by character (each UTF-16 unit classified with Java's
 * Character.getType: upper-case, lower-case, decimal digit, other — a
 * character outside the BMP is two "other" units); TINYINT … BIGINT digit by
 * digit; DATE field by field; every other type gives NULL. Lengths and the
 * show-first/last cut count Unicode characters (Hive counts UTF-16 units; the
 * two differ only for characters outside the BMP).
 */
import { EMULATION_DB } from '../../sql/emulation.js';
import { intConst, strConst, strNode, type Fields, type PgNode } from '../../sql/walk.js';
import { MACROS, MASK_SCHEMA } from './macros.js';
import { ownTable } from '../../sql/ownNames.js';

export class MaskBuildError extends Error {
  override readonly name = 'MaskBuildError';
}

export type ValueKind = { kind: 'string' } | { kind: 'int'; bits: 8 | 16 | 32 | 64 } | { kind: 'date' } | { kind: 'other' };

const INT_BITS: Record<string, 8 | 16 | 32 | 64> = ownTable({ TINYINT: 8, SMALLINT: 16, INTEGER: 32, BIGINT: 64 });

/** How Hive's mask functions treat a DuckDB column type. */
export function valueKind(duckType: string): ValueKind {
  const t = duckType.trim().toUpperCase();
  if (t === 'VARCHAR' || /^VARCHAR\(\d+\)$/.test(t)) return { kind: 'string' };
  const bits = INT_BITS[t];
  if (bits) return { kind: 'int', bits };
  if (t === 'DATE') return { kind: 'date' };
  return { kind: 'other' };
}

export const call = (name: string, args: PgNode[], schema?: string): PgNode => ({
  FuncCall: {
    funcname: schema ? [strNode(EMULATION_DB), strNode(schema), strNode(name)] : [strNode(name)],
    args,
    funcformat: 'COERCE_EXPLICIT_CALL',
  },
});
const macro = (name: string, args: PgNode[]): PgNode => call(name, args, MASK_SCHEMA);
const op = (name: string, l: PgNode, r: PgNode): PgNode => ({ A_Expr: { kind: 'AEXPR_OP', name: [strNode(name)], lexpr: l, rexpr: r } });
const bigConst = (v: bigint): PgNode => (v >= -(2n ** 31n) && v < 2n ** 31n ? intConst(Number(v)) : { A_Const: { fval: { fval: v.toString() } } });

/** A constant argument as Hive reads it: a string, an integer, or absent (null). */
export type ConstArg = { str: string } | { int: number } | null;

function charArg(arg: ConstArg | undefined, dflt: number): number {
  if (!arg) return dflt;
  if ('int' in arg) return arg.int;
  // String constants contribute their first UTF-16 unit (String.charAt(0)); an empty one keeps the default.
  return arg.str.length > 0 ? arg.str.charCodeAt(0) : dflt;
}

function intArg(arg: ConstArg | undefined, dflt: number): number {
  if (!arg) return dflt;
  if ('int' in arg) return arg.int;
  if (arg.str.length === 0) return dflt;
  // Integer.parseInt: an optional sign and decimal digits, nothing else.
  if (!/^[+-]?\d+$/.test(arg.str)) throw new MaskBuildError(`"${arg.str}" is not an integer argument`);
  const n = Number(arg.str);
  if (!Number.isSafeInteger(n) || n > 2 ** 31 - 1 || n < -(2 ** 31)) throw new MaskBuildError(`"${arg.str}" is out of range`);
  return n;
}

const KEEP = -1;

export interface CharMask {
  upper: number;
  lower: number;
  digit: number;
  other: number;
}

type CharClass = 'U' | 'L' | 'D' | 'O' | 'S';

/** RE2 classes for Java's Character.getType on one UTF-16 unit (outside the BMP: S, two "other" units). */
const CLASS_PATTERN: Record<CharClass, string> = {
  U: '[^\\P{Lu}\\x{10000}-\\x{10FFFF}]',
  L: '[^\\P{Ll}\\x{10000}-\\x{10FFFF}]',
  D: '[^\\P{Nd}\\x{10000}-\\x{10FFFF}]',
  O: '[^\\p{Lu}\\p{Ll}\\p{Nd}\\x{10000}-\\x{10FFFF}]',
  S: '[\\x{10000}-\\x{10FFFF}]',
};

function classOf(codePoint: number): CharClass {
  if (codePoint > 0xffff) return 'S';
  const ch = String.fromCharCode(codePoint);
  if (/\p{Lu}/u.test(ch)) return 'U';
  if (/\p{Ll}/u.test(ch)) return 'L';
  if (/\p{Nd}/u.test(ch)) return 'D';
  return 'O';
}

function replacementText(codePoint: number): string {
  if (codePoint < 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) {
    throw new MaskBuildError(`${codePoint} is not a character`);
  }
  // RE2 rewrite strings treat a backslash as an escape.
  return String.fromCodePoint(codePoint).replace(/\\/g, '\\\\');
}

const ASCII_CLASS_CHARS: [CharClass, string][] = [
  ['U', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'],
  ['L', 'abcdefghijklmnopqrstuvwxyz'],
  ['D', '0123456789'],
];

/**
 * The character replacement as a chain of regexp_replace calls. A pass must
 * not touch what an earlier pass wrote, so a pass whose replacement belongs to
 * another class runs after that class's pass; replacements that would chase
 * each other in a circle cannot be expressed (the mask is not built).
 *
 * When other characters are kept (Hive's default), an ASCII value (as many
 * bytes as characters) takes a faster path: one translate() of A–Z, a–z and
 * 0–9, which replaces every character at once as Hive does (in ASCII, Java's
 * upper-case letters, lower-case letters and decimal digits are exactly these).
 */
export function maskChars(value: PgNode, m: CharMask): PgNode {
  const passes = new Map<CharClass, { repl: string; char: string; target: CharClass }>();
  const add = (k: CharClass, cp: number, times = 1) => {
    if (cp === KEEP) return;
    passes.set(k, { repl: replacementText(cp).repeat(times), char: String.fromCodePoint(cp), target: classOf(cp) });
  };
  add('U', m.upper);
  add('L', m.lower);
  add('D', m.digit);
  add('O', m.other);
  add('S', m.other, 2);
  const order: CharClass[] = [];
  const visiting = new Set<CharClass>();
  const visit = (k: CharClass): void => {
    if (order.includes(k)) return;
    if (visiting.has(k)) throw new MaskBuildError('the replacement characters replace each other');
    visiting.add(k);
    const target = passes.get(k)!.target;
    if (target !== k && passes.has(target)) visit(target);
    visiting.delete(k);
    order.push(k);
  };
  for (const k of passes.keys()) visit(k);
  let out = structuredClone(value);
  for (const k of order) out = call('regexp_replace', [out, strConst(CLASS_PATTERN[k]), strConst(passes.get(k)!.repl), strConst('g')]);
  if (order.length === 0 || passes.has('O')) return out;
  let from = '';
  let to = '';
  for (const [k, chars] of ASCII_CLASS_CHARS) {
    const p = passes.get(k);
    if (!p) continue;
    from += chars;
    to += p.char.repeat(chars.length);
  }
  const ascii = op('=', call('strlen', [structuredClone(value)]), call('length', [structuredClone(value)]));
  const translated = call('translate', [structuredClone(value), strConst(from), strConst(to)]);
  return { CaseExpr: { args: [{ CaseWhen: { expr: ascii, result: translated } }], defresult: out } };
}

const typedNull = (): PgNode => ({ A_Const: { isnull: true } });

export interface HiveCall {
  name: 'mask' | 'mask_show_last_n' | 'mask_show_first_n' | 'mask_hash';
  /** the value: a reference to a column of the table */
  value: PgNode;
  kind: ValueKind;
  /** the constant arguments after the value */
  args: ConstArg[];
}

export const HIVE_MASK_FUNCTIONS: ReadonlySet<string> = new Set(['mask', 'mask_show_last_n', 'mask_show_first_n', 'mask_hash']);

export interface MaskEnv {
  /** false when no mask key is configured: MASK_HASH cannot be built */
  hashAvailable: boolean;
}

/** One Hive mask call as a DuckDB expression of the value's own type (NULL for types Hive does not mask). */
export function hiveMask(c: HiveCall, env: MaskEnv): PgNode {
  if (c.name === 'mask_hash') {
    if (c.args.length > 0) throw new MaskBuildError('mask_hash takes one argument');
    if (c.kind.kind !== 'string') return typedNull();
    if (!env.hashAvailable) throw new MaskBuildError('MASK_HASH needs a maskKey in the configuration');
    return macro(MACROS.hmac, [c.value]);
  }
  const shown = c.name === 'mask' ? null : c.args[0];
  const rest = c.name === 'mask' ? c.args : c.args.slice(1);
  if (rest.length > 8 || (c.name !== 'mask' && rest.length > 5)) throw new MaskBuildError(`too many arguments to ${c.name}`);
  let count = c.name === 'mask' ? 0 : intArg(shown, 4);
  if (count < 0) count = 0;
  const chars: CharMask = {
    upper: charArg(rest[0], 'X'.charCodeAt(0)),
    lower: charArg(rest[1], 'x'.charCodeAt(0)),
    digit: charArg(rest[2], 'n'.charCodeAt(0)),
    other: charArg(rest[3], KEEP),
  };
  let number = intArg(rest[4], 1);
  if (number < 0 || number > 9) number = 1;
  let day = intArg(rest[5], 1);
  if (day !== KEEP && (day < 1 || day > 31)) day = 1;
  let month = intArg(rest[6], 0);
  if (month !== KEEP && (month < 0 || month > 11)) month = 0;
  const year = intArg(rest[7], 0);

  switch (c.kind.kind) {
    case 'string': {
      // Each use gets its own copy of the value: nodes are never shared within a tree.
      const v = () => structuredClone(c.value);
      if (c.name === 'mask') return maskChars(v(), chars);
      const len = () => call('length', [v()]);
      const cut = op('-', len(), intConst(count));
      const masked =
        c.name === 'mask_show_last_n'
          ? op('||', maskChars(call('left', [v(), cut]), chars), call('right', [v(), intConst(count)]))
          : op('||', call('left', [v(), intConst(count)]), maskChars(call('right', [v(), cut]), chars));
      return { CaseExpr: { args: [{ CaseWhen: { expr: op('<=', len(), intConst(count)), result: v() } }], defresult: masked } };
    }
    case 'int': {
      const d = strConst(String(number));
      const modulus = bigConst(2n ** BigInt(c.kind.bits));
      if (c.name === 'mask') return macro(MACROS.maskInt, [c.value, d, modulus]);
      const fn = c.name === 'mask_show_last_n' ? MACROS.showLastInt : MACROS.showFirstInt;
      return macro(fn, [c.value, intConst(count), d, modulus]);
    }
    case 'date':
      // The show-n transformers mask dates with mask()'s default fields.
      return c.name === 'mask'
        ? macro(MACROS.maskDate, [c.value, intConst(day), intConst(month === KEEP ? KEEP : month + 1), intConst(year)])
        : macro(MACROS.maskDate, [c.value, intConst(1), intConst(1), intConst(0)]);
    default:
      return typedNull();
  }
}

/** A constant argument node → ConstArg; anything else cannot be a Hive mask argument. */
export function constArg(n: unknown): ConstArg {
  const c = (n as Fields | undefined)?.['A_Const'];
  if (!c) throw new MaskBuildError('mask arguments after the value must be constants');
  if (c.isnull) return null;
  if (c.sval) return { str: String(c.sval.sval ?? '') };
  if (c.ival) return { int: Number(c.ival.ival ?? 0) };
  throw new MaskBuildError('mask arguments must be strings or integers');
}
