/**
 * Leakproof predicates, PostgreSQL's answer to the error oracle (threats.md
 * §2.5) brought to DuckDB: a predicate that cannot raise an error on any
 * row, whatever the row holds, may be evaluated below a row filter without
 * telling anything about the rows the filter removes — the engine merely
 * drops them sooner. Anything else may fail on a hidden row and say so.
 *
 * Deny by default. Leakproof here is, exactly:
 * - AND / OR / NOT, IS [NOT] TRUE/FALSE/UNKNOWN of leakproof predicates;
 *   boolean constants; a boolean column as stored;
 * - `x IS [NOT] NULL` of a value that is safe to evaluate;
 * - comparisons (=, <>, <, <=, >, >=, IS [NOT] DISTINCT FROM, BETWEEN,
 *   IN (list), op ANY/ALL (subquery of one column)) whose operands are
 *   columns as stored, literals, parameters, or values computed after the
 *   filters (aggregates), and whose types DuckDB compares without casting a
 *   row value in a way that can fail (see `comparable`);
 * - LIKE / ILIKE of a stored string column with a literal pattern, in the
 *   two forms sql/like.ts gives it: DuckDB's own LIKE, and
 *   regexp_full_match with a constant pattern (RE2 compiles a constant
 *   pattern once, while binding, so an invalid one fails whatever the rows
 *   hold; matching itself cannot fail). A pattern read from the row goes
 *   through the engine's own translation, which can fail on a row;
 * - EXISTS (subquery): the subquery's own clauses are judged where they stand.
 *
 * Not leakproof, among others: casts of row values, arithmetic on row values
 * (integer and decimal arithmetic overflow; division fails on zero),
 * every function call, CASE, COALESCE, a masked column (a mask expression
 * is evaluated with the predicate), a string literal compared with a number
 * (DuckDB casts the column), a DATE column compared with a TIMESTAMP (DuckDB
 * casts the column, which fails beyond the timestamp range), decimal
 * comparisons whose common type would not hold every value, a scalar
 * subquery that may return two rows, and literals DuckDB could fail to read
 * (an invalid date literal fails per row, only on rows that reach it).
 */
import { names, nodeKind, type Fields, type PgNode } from '../../sql/walk.js';
import { ownTable } from '../../sql/ownNames.js';

/** The types the classification distinguishes (DuckDB's, by comparison family). */
export type ValueType =
  | { t: 'int'; digits: number }
  | { t: 'decimal'; width: number; scale: number }
  | { t: 'float' }
  | { t: 'string' }
  | { t: 'bool' }
  | { t: 'date' }
  | { t: 'timestamp' }
  | { t: 'other'; name: string };

const INT_DIGITS: Record<string, number> = ownTable({ TINYINT: 3, SMALLINT: 5, INTEGER: 10, BIGINT: 19, HUGEINT: 39 });

/** A DuckDB column type as the classification sees it. */
export function valueTypeOf(duckType: string): ValueType {
  const t = duckType.trim().toUpperCase();
  if (Object.hasOwn(INT_DIGITS, t)) return { t: 'int', digits: INT_DIGITS[t]! };
  const dec = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(t);
  if (dec) return { t: 'decimal', width: Number(dec[1]), scale: Number(dec[2]) };
  if (t === 'FLOAT' || t === 'DOUBLE') return { t: 'float' };
  if (t === 'VARCHAR' || /^VARCHAR\(\d+\)$/.test(t)) return { t: 'string' };
  if (t === 'BOOLEAN') return { t: 'bool' };
  if (t === 'DATE') return { t: 'date' };
  if (t === 'TIMESTAMP') return { t: 'timestamp' };
  return { t: 'other', name: t };
}

export const sameType = (a: ValueType | null, b: ValueType | null): boolean =>
  a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b);

/** What a value may carry: the references whose stored rows flow into it, its type, whether evaluating it can fail. */
export interface Flow<R> {
  refs: ReadonlySet<R>;
  /** null: not known here */
  type: ValueType | null;
  /** evaluating it cannot fail on any row: a column as stored, a constant, an aggregate of such */
  safe: boolean;
}

/** One side of a comparison. */
export type Operand =
  | { k: 'value'; type: ValueType; literal: boolean }
  | { k: 'adapts' } // NULL or a bare parameter: takes the other side's type, never casts a row value
  | { k: 'intlit'; digits: number; value: bigint }
  | { k: 'declit'; width: number; scale: number }
  | { k: 'strlit'; text: string };

const COMPARISONS = new Set(['=', '<>', '!=', '<', '<=', '>', '>=']);
const LIKES = new Set(['~~', '!~~', '~~*', '!~~*']);
const INT32 = 2n ** 31n;

const constOf = (n: unknown): Fields | undefined => (n as Fields | undefined)?.['A_Const'];

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** A date literal DuckDB reads whatever the session: YYYY-MM-DD, year 1–9999, a real day. */
export function validDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= (mo === 2 && !leap ? 28 : DAYS[mo - 1]!);
}

/** A timestamp literal without a time zone: a valid date, optionally HH:MM[:SS[.ffffff]]. */
export function validTimestamp(s: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?)?$/.exec(s);
  if (!m || !validDate(m[1]!)) return false;
  return m[2] === undefined || (Number(m[2]) < 24 && Number(m[3]) < 60 && (m[4] === undefined || Number(m[4]) < 60));
}

/** A numeric literal as DuckDB types it (PostgreSQL's parser gives ival or fval text). */
function numericLiteral(text: string): Operand | null {
  const m = /^-?(\d+)(?:\.(\d*))?$/.exec(text);
  if (!m) return /^-?\d*\.?\d+e[-+]?\d+$/i.test(text) ? { k: 'value', type: { t: 'float' }, literal: true } : null;
  const intDigits = m[1]!.replace(/^0+/, '').length || 1;
  if (m[2] === undefined) return intDigits > 38 ? { k: 'value', type: { t: 'float' }, literal: true } : { k: 'intlit', digits: intDigits, value: BigInt(text) };
  const scale = m[2].length;
  // DuckDB reads a literal of more than 38 digits as DOUBLE; a wider guess only makes the check stricter.
  return intDigits + scale > 38 ? { k: 'value', type: { t: 'float' }, literal: true } : { k: 'declit', width: intDigits + scale, scale };
}

function literalOperand(c: Fields): Operand | null {
  if (c['isnull']) return { k: 'adapts' };
  if (c['ival'] !== undefined) return numericLiteral(String(c['ival']['ival'] ?? 0));
  if (c['fval'] !== undefined) return numericLiteral(String(c['fval']['fval']));
  if (c['sval'] !== undefined) return { k: 'strlit', text: String(c['sval']['sval'] ?? '') };
  if (c['boolval'] !== undefined) return { k: 'value', type: { t: 'bool' }, literal: true };
  return null;
}

/** A cast target (as sql/dialect.ts leaves it) as a ValueType; null for anything else. */
function castType(typeName: Fields | undefined): ValueType | null {
  if (!typeName || typeName['arrayBounds']) return null;
  const n = names(typeName['names']).pop() ?? '';
  const mods = ((typeName['typmods'] ?? []) as Fields[]).map((m) => Number(constOf(m)?.['ival']?.['ival'] ?? 0));
  if (n === 'int2' || n === 'smallint') return { t: 'int', digits: 5 };
  if (n === 'int4' || n === 'int' || n === 'integer') return { t: 'int', digits: 10 };
  if (n === 'int8' || n === 'bigint') return { t: 'int', digits: 19 };
  if ((n === 'numeric' || n === 'decimal') && mods.length === 2) return { t: 'decimal', width: mods[0]!, scale: mods[1]! };
  if (n === 'float4' || n === 'float8' || n === 'real' || n === 'double') return { t: 'float' };
  if (n === 'text' || n === 'varchar') return { t: 'string' };
  if (n === 'date') return { t: 'date' };
  if (n === 'timestamp') return { t: 'timestamp' };
  return null;
}

/** A literal cast to a type, when DuckDB reads it without fail. */
function typedLiteral(text: string, type: ValueType): boolean {
  switch (type.t) {
    case 'string':
      return true;
    case 'date':
      return validDate(text);
    case 'timestamp':
      return validTimestamp(text);
    case 'int': {
      if (!/^-?\d+$/.test(text)) return false;
      const bound = type.digits === 5 ? 2n ** 15n : type.digits === 10 ? INT32 : 2n ** 63n;
      return BigInt(text) >= -bound && BigInt(text) < bound;
    }
    case 'decimal': {
      // no rounding: a scale beyond the type's could round up past its width
      const m = /^-?(\d+)(?:\.(\d*))?$/.exec(text);
      return m !== null && (m[1]!.replace(/^0+/, '').length || 1) <= type.width - type.scale && (m[2] ?? '').length <= type.scale;
    }
    case 'float':
      return /^-?\d+(\.\d*)?$/.test(text);
    default:
      return false;
  }
}

/** Constant arithmetic that cannot fail: int ± × int within INTEGER, decimal ± decimal (DuckDB widens by a digit). */
function constantArithmetic(f: Fields, operand: (n: unknown) => Operand | null): Operand | null {
  const op = names(f['name']).pop() ?? '';
  if (String(f['kind']) !== 'AEXPR_OP' || !f['lexpr'] || !['+', '-', '*'].includes(op)) return null;
  const l = operand(f['lexpr']);
  const r = operand(f['rexpr']);
  if (l?.k === 'intlit' && r?.k === 'intlit') {
    const v = op === '+' ? l.value + r.value : op === '-' ? l.value - r.value : l.value * r.value;
    const fits = (x: bigint) => x >= -INT32 && x < INT32;
    return fits(l.value) && fits(r.value) && fits(v) ? { k: 'intlit', digits: (v < 0n ? -v : v).toString().length, value: v } : null;
  }
  const dec = (o: Operand | null) => (o?.k === 'declit' ? o : o?.k === 'intlit' && o.digits <= 18 ? { width: o.digits, scale: 0 } : null);
  const a = dec(l);
  const b = dec(r);
  if (op === '*' || !a || !b || (l?.k !== 'declit' && r?.k !== 'declit')) return null;
  const scale = Math.max(a.scale, b.scale);
  const width = Math.max(a.width - a.scale, b.width - b.scale) + scale + 1;
  return width <= 38 ? { k: 'declit', width, scale } : null;
}

/** How a value reaches the comparison: from its flow (a column, an aggregate …) or as a literal. */
export function operandOf<R>(n: unknown, flowOf: (n: PgNode) => Flow<R>): Operand | null {
  const kind = nodeKind(n);
  const f = kind ? (n as PgNode)[kind]! : undefined;
  if (!f) return null;
  switch (kind) {
    case 'A_Const':
      return literalOperand(f);
    case 'ParamRef':
      // DuckDB types a bare parameter from the other side; the value is converted at Bind, before any row is read.
      return { k: 'adapts' };
    case 'TypeCast': {
      const type = castType(f['typeName']);
      const arg = f['arg'];
      if (!type) return null;
      if (nodeKind(arg) === 'ParamRef') return { k: 'value', type, literal: false };
      const c = constOf(arg);
      if (c?.['isnull']) return { k: 'adapts' };
      const text = c?.['sval']?.['sval'] ?? c?.['ival']?.['ival'] ?? c?.['fval']?.['fval'] ?? (c?.['ival'] ? 0 : undefined);
      return text !== undefined && typedLiteral(String(text), type) ? { k: 'value', type, literal: true } : null;
    }
    case 'A_Expr':
      return constantArithmetic(f, (x) => operandOf(x, flowOf)) ?? computed(flowOf(n as PgNode));
    default:
      return computed(flowOf(n as PgNode));
  }
}

/** A value the flow analysis typed and found safe to evaluate (a stored column, an aggregate, DOUBLE arithmetic). */
const computed = <R>(flow: Flow<R>): Operand | null => (flow.safe && flow.type ? { k: 'value', type: flow.type, literal: false } : null);

const NUMERIC = new Set(['int', 'decimal', 'float']);

/**
 * True when DuckDB compares these operands (one comparison, a BETWEEN, an
 * IN list: all are brought to one type) without a cast that can fail on a
 * row value. Casts of literals are judged too: a literal DuckDB cannot read
 * fails on each row that reaches it, which says that such a row exists.
 */
export function comparable(operands: (Operand | null)[]): boolean {
  if (operands.some((o) => o === null)) return false;
  const ops = (operands as Operand[]).filter((o) => o.k !== 'adapts');
  const strings = ops.filter((o): o is Extract<Operand, { k: 'strlit' }> => o.k === 'strlit');
  const rest = ops.filter((o) => o.k !== 'strlit');
  const families = new Set(rest.map((o) => (o.k === 'value' ? o.type.t : 'numeric-literal')));
  if (strings.length > 0) {
    // DuckDB casts a string literal to the other side's type.
    if (families.size === 0) return true;
    if (families.size !== 1) return false;
    const fam = [...families][0]!;
    const ok = fam === 'string' ? () => true : fam === 'date' ? validDate : fam === 'timestamp' ? validTimestamp : null;
    return ok !== null && strings.every((s) => ok(s.text));
  }
  if (families.size === 0) return true;
  const numeric = [...families].every((x) => NUMERIC.has(x) || x === 'numeric-literal');
  if (numeric) {
    if (families.has('float')) return true; // every number converts to DOUBLE without fail
    const values = rest as Exclude<Operand, { k: 'strlit' } | { k: 'adapts' }>[];
    if (values.every((o) => o.k === 'intlit' || (o.k === 'value' && o.type.t === 'int'))) return true; // widened to the widest integer
    let intDigits = 0;
    let scale = 0;
    for (const o of values) {
      const [w, s] = o.k === 'intlit' ? [o.digits, 0] : o.k === 'declit' ? [o.width, o.scale] : o.k === 'value' && o.type.t === 'int' ? [o.type.digits, 0] : o.k === 'value' && o.type.t === 'decimal' ? [o.type.width, o.type.scale] : [99, 0];
      intDigits = Math.max(intDigits, w - s);
      scale = Math.max(scale, s);
    }
    // The common DECIMAL must hold every value; DuckDB caps it at 38 digits and then fails on large ones.
    return intDigits + scale <= 38;
  }
  if (families.size === 1) {
    const [fam] = [...families];
    if (fam === 'other') return new Set(rest.map((o) => (o as { type: { name: string } }).type.name)).size === 1;
    return fam !== 'numeric-literal';
  }
  // DATE and TIMESTAMP: DuckDB casts the DATE side, which fails beyond the timestamp range; only a date literal may be cast.
  if (families.size === 2 && families.has('date') && families.has('timestamp')) {
    return rest.every((o) => o.k === 'value' && (o.type.t === 'timestamp' || o.literal));
  }
  return false;
}

/** Two values compared for equality (JOIN … USING, NATURAL JOIN). */
export function flowsComparable<R>(a: Flow<R>, b: Flow<R>): boolean {
  const side = (x: Flow<R>): Operand | null => (x.safe && x.type ? { k: 'value', type: x.type, literal: false } : null);
  return comparable([side(a), side(b)]);
}

/** The comparison operator of an A_Expr or SubLink, if it is one. */
const comparisonName = (list: unknown): string | undefined => {
  const parts = names(list);
  const op = parts[parts.length - 1];
  return op !== undefined && COMPARISONS.has(op) ? op : undefined;
};

const listItems = (n: unknown): unknown[] => {
  const l = (n as Fields | undefined)?.['List'];
  return Array.isArray(l?.['items']) ? l['items'] : Array.isArray(n) ? n : [];
};

/** The one output of a subquery compared by ANY/ALL, as an operand. */
export type SubqueryOutput<R> = (sublink: Fields) => Flow<R> | null;

/** True when the predicate cannot fail on any row (see the module comment). */
export function isLeakproof<R>(n: unknown, flowOf: (n: PgNode) => Flow<R>, subqueryOutput: SubqueryOutput<R>): boolean {
  const kind = nodeKind(n);
  const f = kind ? (n as PgNode)[kind]! : undefined;
  if (!f) return false;
  const pred = (x: unknown) => isLeakproof(x, flowOf, subqueryOutput);
  const op = (x: unknown) => operandOf(x, flowOf);
  switch (kind) {
    case 'BoolExpr':
      return ((f['args'] ?? []) as unknown[]).every(pred);
    case 'BooleanTest':
      return pred(f['arg']);
    case 'NullTest': {
      const o = op(f['arg']);
      return o !== null && o.k !== 'strlit';
    }
    case 'A_Const':
      return f['boolval'] !== undefined || f['isnull'] === true;
    case 'ColumnRef': {
      const flow = flowOf(n as PgNode);
      return flow.safe && flow.type?.t === 'bool';
    }
    case 'A_Expr': {
      const k = String(f['kind']);
      const name = names(f['name']).pop() ?? '';
      if (k === 'AEXPR_OP' && COMPARISONS.has(name)) return comparable([op(f['lexpr']), op(f['rexpr'])]);
      if (k === 'AEXPR_DISTINCT' || k === 'AEXPR_NOT_DISTINCT') return comparable([op(f['lexpr']), op(f['rexpr'])]);
      if (k === 'AEXPR_IN' && (name === '=' || name === '<>')) return comparable([op(f['lexpr']), ...listItems(f['rexpr']).map(op)]);
      if (k === 'AEXPR_BETWEEN' || k === 'AEXPR_NOT_BETWEEN') return comparable([op(f['lexpr']), ...listItems(f['rexpr']).map(op)]);
      if ((k === 'AEXPR_LIKE' || k === 'AEXPR_ILIKE') && LIKES.has(name)) {
        const value = op(f['lexpr']);
        return value?.k === 'value' && value.type.t === 'string' && constOf(f['rexpr'])?.['sval'] !== undefined;
      }
      return false;
    }
    case 'FuncCall': {
      // Only the builtin by its bare name: a qualified name could be a macro of another schema.
      const name = names(f['funcname']);
      const args = (f['args'] ?? []) as unknown[];
      if (name.length !== 1 || name[0] !== 'regexp_full_match' || args.length !== 2 || f['agg_star'] || f['over']) return false;
      const value = op(args[0]);
      return value?.k === 'value' && value.type.t === 'string' && constOf(args[1])?.['sval'] !== undefined;
    }
    case 'SubLink': {
      const type = String(f['subLinkType']);
      if (type === 'EXISTS_SUBLINK') return true;
      if (type !== 'ANY_SUBLINK' && type !== 'ALL_SUBLINK') return false;
      if (f['operName'] !== undefined && !comparisonName(f['operName'])) return false;
      const out = subqueryOutput(f);
      const right: Operand | null = out?.safe && out.type ? { k: 'value', type: out.type, literal: false } : null;
      return comparable([op(f['testexpr']), right]);
    }
    default:
      return false;
  }
}
