/**
 * PostgreSQL → DuckDB dialect transforms on an authorized, resolved tree.
 * Everything here runs after sql/authorize.ts accepted the user's nodes, so
 * the nodes it creates (emulation calls, literals) are trusted. Calls and the
 * emulated operators are rewritten through the registry (sql/dialect/registry.ts);
 * casts, constants, LIKE, clauses and the printed forms here.
 */
import { parseArrayLiteral } from '../arrayLiteral.js';
import { IGNORED_COLLATIONS } from '../authorize.js';
import { EMULATED_ARRAY_COLUMNS, EMULATION_DB, emulated, INTERNAL_MACROS } from '../emulation.js';
import { RENAMED_FUNCTIONS, SCALAR_BUILTINS } from '../functions.js';
import { transformSimilar } from './format.js';
import { JSON_OPERATORS } from './json.js';
import { checkFromNames, transformBitString } from './builtin.js';
import {
  exponentLiteral,
  modulo,
  probeFor,
  probeOf,
  typedDispatchSafe,
  typedSeries,
  typedSubtraction,
  typeLiteralOperands,
} from './numeric.js';
import { CAST_RANK, castRewritesOf, operatorRewritesOf, PHASE_RANK, rewritesOf, type Call, type CastSite } from './registry.js';
import { regclassText } from './casts.js';
import { arrayOf, existingSearchPath } from './session.js';
import { SqlError, pos } from '../errors.js';
import { regCast, regtypeText } from '../regTypes.js';
import { effectiveSearchPath, type TableReference } from '../resolve.js';
import { constantLike, escapeChar, runtimeLike } from '../like.js';
import { isProbePlaceholder, markOuterReferences } from '../outerRefs.js';
import { comparedLiteral, isUtc, type SessionZone } from '../sessionZone.js';
import {
  boolConst,
  constText,
  containsSubquery,
  ENGINE_CALLS,
  inTableFunctionPosition,
  intConst,
  names,
  replaceNode,
  strConst,
  strNode,
  walk,
  type Fields,
  type PgNode,
  type Visit,
} from '../walk.js';
import { ownTable } from '../ownNames.js';
import type { DialectContext } from './context.js';

export type { DialectContext, ProbeMiss } from './context.js';

// the parser leaves `args` out of a call without arguments, and the re-parse check compares against it
const call = (name: string, ...args: PgNode[]): PgNode => ({
  FuncCall: { funcname: [strNode(name)], ...(args.length ? { args } : {}), funcformat: 'COERCE_EXPLICIT_CALL' },
});
const typed = (arg: PgNode, type: string, typmods?: PgNode[]): PgNode => ({
  TypeCast: { arg, typeName: { names: [strNode('pg_catalog'), strNode(type)], typemod: -1, ...(typmods ? { typmods } : {}) } },
});
const localNow = (ctx: DialectContext): PgNode => call('timezone', strConst(ctx.settings('timezone') ?? 'UTC'), call('now'));

/** The session's TimeZone, with the planner's probes (sql/sessionZone.ts). */
const sessionZoneOf = (ctx: DialectContext): SessionZone => ({
  name: ctx.settings('timezone') ?? 'UTC',
  probe: probeFor,
});

const SVF_FOLDS: Record<string, (ctx: DialectContext) => PgNode> = ownTable({
  SVFOP_CURRENT_USER: (ctx) => strConst(ctx.user),
  SVFOP_USER: (ctx) => strConst(ctx.user),
  SVFOP_CURRENT_ROLE: (ctx) => strConst(ctx.user),
  SVFOP_SESSION_USER: (ctx) => strConst(ctx.user),
  SVFOP_CURRENT_CATALOG: (ctx) => strConst(ctx.database),
  SVFOP_CURRENT_SCHEMA: (ctx) => strConst(existingSearchPath(ctx, false)[0] ?? null),
  // The engine computes in UTC (server/engine.ts): the session's local date and time come from its TimeZone.
  SVFOP_CURRENT_DATE: (ctx) => typed(localNow(ctx), 'date'),
  SVFOP_CURRENT_TIMESTAMP: () => call('now'),
  SVFOP_CURRENT_TIMESTAMP_N: () => call('now'),
  SVFOP_LOCALTIMESTAMP: (ctx) => localNow(ctx),
  SVFOP_LOCALTIMESTAMP_N: (ctx) => localNow(ctx),
  SVFOP_LOCALTIME: (ctx) => typed(localNow(ctx), 'time'),
  SVFOP_LOCALTIME_N: (ctx) => typed(localNow(ctx), 'time'),
  SVFOP_CURRENT_TIME: () => typed(call('now'), 'timetz'),
  SVFOP_CURRENT_TIME_N: () => typed(call('now'), 'timetz'),
});

/**
 * A call's rewrite: the generic checks of window calls, then its name's rewrites from the registry
 * (sql/dialect/registry.ts) in their order, until one answers that the call is done. A call no rewrite
 * finishes gets its DuckDB name at `rename`.
 */
function transformFuncCall(v: Visit, ctx: DialectContext, done: WeakSet<object>): void {
  const f = v.fields;
  const parts = names(f['funcname']);
  // already pointed at the emulation by this pass (authorization refuses such names from users)
  if (parts.length === 3 && parts[0] === EMULATION_DB) return;
  const name = parts[parts.length - 1]!;
  const args = (f['args'] ?? []) as unknown[];
  const asTable = inTableFunctionPosition(v.path);
  // PostgreSQL's window aggregates take neither DISTINCT nor ORDER BY (DuckDB's do)
  if (f['over'] && f['agg_distinct']) throw new SqlError('0A000', 'DISTINCT is not implemented for window functions', pos(f['location']));
  if (f['over'] && SCALAR_BUILTINS.has(name) && !asTable) {
    throw new SqlError('42809', `OVER specified, but ${name} is not a window function nor an aggregate function`, pos(f['location']));
  }
  if (f['over'] && f['agg_within_group']) throw new SqlError('0A000', `OVER is not supported for ordered-set aggregate ${name}`, pos(f['location']));
  if (f['over'] && f['agg_order']) throw new SqlError('0A000', 'aggregate ORDER BY is not implemented for window functions', pos(f['location']));
  const c: Call = { v, f, name, args, asTable, ctx, done, zone: sessionZoneOf(ctx), typedSafe: typedDispatchSafe, probeOf };
  let renamed = false;
  for (const r of rewritesOf(parts, asTable)) {
    if (!renamed && PHASE_RANK[r.phase] > PHASE_RANK.rename) {
      renameCall(f, name);
      renamed = true;
    }
    if ((r.applies?.(c) ?? true) && r.rewrite(c)) return;
  }
  if (!renamed) renameCall(f, name);
}

/** A call that reaches DuckDB by name: PostgreSQL's name, or DuckDB's spelling of it. */
function renameCall(f: Fields, name: string): void {
  // SQL-syntax calls (EXTRACT, TRIM, SUBSTRING … FROM, POSITION … IN) deparse by their pg_catalog name.
  if (f['funcformat'] !== 'COERCE_SQL_SYNTAX') f['funcname'] = [strNode(RENAMED_FUNCTIONS[name] ?? name)];
}

/** DuckDB type for a PostgreSQL type name; undefined when PostgreSQL would not know it either. */
const TYPE_MAP: Record<string, string | null> = ownTable({
  // null: keep the name, the deparser prints PostgreSQL's spelling, which DuckDB reads
  bool: null, boolean: null, int2: null, smallint: null, int4: null, int: null, integer: null, int8: null,
  bigint: null, float4: null, real: null, float8: null, varchar: null, text: null, date: null, time: null,
  timetz: null, timestamp: null, timestamptz: null, interval: null, uuid: null, json: null, bit: null,
  numeric: null, decimal: null,
  name: 'varchar', char: 'varchar', bpchar: 'varchar', unknown: 'varchar', jsonb: 'json', bytea: 'blob',
  oid: 'int8', xid: 'int8', cid: 'int8', regproc: 'varchar', varbit: 'bitstring', // DuckDB's BIT; `bit` alone would read back as bit(1)
  int2vector: 'int2[]', oidvector: 'int8[]',
});

function transformTypeCast(v: Visit, ctx: DialectContext): void {
  const f = v.fields;
  // a probe's constant standing for an enclosing query's column (sql/outerRefs.ts): already DuckDB's
  if (isProbePlaceholder(f)) return;
  const tn = f['typeName'] as Fields;
  const parts = names(tn['names']);
  const typname = parts[parts.length - 1]!;
  if (parts.length > 2 || (parts.length === 2 && parts[0] !== 'pg_catalog')) {
    throw new SqlError('42704', `type "${parts.join('.')}" does not exist`, pos(tn['location']));
  }
  const isArray = Array.isArray(tn['arrayBounds']) && tn['arrayBounds'].length > 0;
  const inner = (f['arg'] as Fields | undefined)?.['TypeCast'];
  const c: CastSite = { v, f, tn, typname, isArray, inner, ctx, zone: sessionZoneOf(ctx), typedSafe: typedDispatchSafe };
  // the type cast to's rewrites (sql/dialect/registry.ts), with the refusal of a type PostgreSQL would not know at `known`
  let known = false;
  const knownType = (): void => {
    if (!Object.hasOwn(TYPE_MAP, typname)) throw new SqlError('42704', `type "${typname}" does not exist`, pos(tn['location']));
    known = true;
  };
  for (const r of castRewritesOf(typname)) {
    if (!known && CAST_RANK[r.phase] > CAST_RANK.known) knownType();
    if ((r.applies?.(c) ?? true) && r.rewrite(c)) return;
  }
  if (!known) knownType();
  // typmod: DuckDB's spelling of the type
  const mapped = TYPE_MAP[typname];
  const hasMods = Array.isArray(tn['typmods']) && tn['typmods'].length > 0;
  if (typname === 'interval' && hasMods && !isArray) {
    intervalWithFields(f, tn);
    return;
  }
  if ((typname === 'numeric' || typname === 'decimal') && !hasMods) {
    if (!numericWithoutTypmod(f, tn, isArray, typedDispatchSafe(f['arg']))) {
      // an expression's scale is the engine's to know: lg_numeric keeps a decimal, widens an integer
      replaceNode(v.node, { FuncCall: { funcname: emulated(INTERNAL_MACROS.toNumeric), args: [f['arg']], funcformat: 'COERCE_EXPLICIT_CALL' } });
      return;
    }
  }
  else if (mapped) {
    tn['names'] = [strNode(mapped.replace('[]', ''))];
    if (mapped.endsWith('[]')) tn['arrayBounds'] = [{ Integer: { ival: -1 } }];
    if (mapped === 'varchar' || mapped === 'bitstring') delete tn['typmods'];
  } else if (parts.length === 2) tn['names'] = [strNode(typname)]; // pg_catalog.date: the engine's own type
  // '{a,b}'::text[] → ARRAY['a','b']::text[]: DuckDB cannot read PostgreSQL's array text form
  const lit = constText(f['arg']);
  if (isArray && lit !== undefined) {
    const values = parseArrayLiteral(lit, pos(f['location']));
    if (values) f['arg'] = arrayOf(values);
  }
}

/**
 * numeric without precision is arbitrary-precision in PostgreSQL; DuckDB's bare
 * DECIMAL is (18,3) and would round. A literal gets exactly its own digits
 * (`'12345.678'::numeric` → DECIMAL(8,3), printed as PostgreSQL prints it);
 * false for anything else, whose scale is the engine's to know (an array, or
 * an expression the engine cannot type before binding: double precision).
 */
function numericWithoutTypmod(f: Fields, tn: Fields, isArray: boolean, typedSafe: boolean): boolean {
  // numeric(p,s)::numeric keeps the value and its scale: adopt the operand's precision.
  const inner = (f['arg'] as Fields | undefined)?.['TypeCast']?.['typeName'] as Fields | undefined;
  const innerName = inner?.['names']?.[inner['names'].length - 1]?.['String']?.['sval'];
  if ((innerName === 'numeric' || innerName === 'decimal') && inner?.['typmods']?.length && !inner['arrayBounds']) {
    tn['names'] = [strNode('pg_catalog'), strNode('numeric')];
    tn['typmods'] = structuredClone(inner['typmods']);
    return true;
  }
  const c = (f['arg'] as Fields | undefined)?.['A_Const'];
  const text = c?.sval?.sval ?? c?.fval?.fval ?? (c?.ival ? String(c.ival.ival ?? 0) : undefined);
  const m = typeof text === 'string' ? /^\s*[-+]?(\d*)(?:\.(\d*))?\s*$/.exec(text) : null;
  if (m && (m[1] || m[2])) {
    const intDigits = Math.max(1, m[1]!.replace(/^0+/, '').length);
    const scale = (m[2] ?? '').length;
    if (intDigits + scale <= 38) {
      tn['names'] = [strNode('pg_catalog'), strNode('numeric')];
      tn['typmods'] = [intConst(intDigits + scale), intConst(scale)];
      return true;
    }
  }
  if (!isArray && typedSafe) return false;
  tn['names'] = [strNode('double')];
  return true;
}

/** PostgreSQL's interval typmod bits (utils/datetime.h INTERVAL_MASK) by the unit a bare number means. */
const INTERVAL_FIELDS: Readonly<Record<number, string>> = {
  [1 << 2]: 'year', [1 << 1]: 'month', [1 << 3]: 'day', [1 << 10]: 'hour', [1 << 11]: 'minute', [1 << 12]: 'second',
};

/**
 * `interval '3' month`: the field names the unit of a bare number. DuckDB
 * would read the typmod-less '3' as three seconds, so the unit is written into
 * the literal; a literal that names its units keeps them. Ranges (DAY TO
 * SECOND) and precisions are refused rather than guessed.
 */
function intervalWithFields(f: Fields, tn: Fields): void {
  const mods = tn['typmods'] as unknown[];
  const mask = Number((mods[0] as Fields | undefined)?.['A_Const']?.ival?.ival ?? NaN);
  const unit = INTERVAL_FIELDS[mask];
  const text = constText(f['arg']);
  if (mods.length !== 1 || !unit || text === undefined) {
    throw new SqlError('0A000', 'interval with a field range or precision is not supported; write the units in the literal', pos(tn['location']));
  }
  delete tn['typmods'];
  if (/^\s*[-+]?\d+(\.\d+)?\s*$/.test(text)) f['arg'] = strConst(`${text.trim()} ${unit}`);
}

const REGEX_OPS: Record<string, { negate: boolean; flags?: string }> = ownTable({
  '~': { negate: false },
  '!~': { negate: true },
  '~*': { negate: false, flags: 'i' },
  '!~*': { negate: true, flags: 'i' },
});

function isEmulatedArrayColumn(n: unknown): boolean {
  const ref = (n as Fields | undefined)?.['ColumnRef'];
  const parts = ref ? names(ref['fields']) : [];
  return parts.length > 0 && EMULATED_ARRAY_COLUMNS.has(parts[parts.length - 1]!);
}

/** A string literal written as a PostgreSQL array (`'{a,b}'`), as an ARRAY node. */
function arrayFromLiteral(n: unknown): PgNode | undefined {
  const s = constText(n);
  if (s === undefined) return undefined;
  const values = parseArrayLiteral(s);
  return values ? arrayOf(values) : undefined;
}

const LIKE_OPS: Record<string, { caseInsensitive: boolean; negate: boolean }> = ownTable({
  '~~': { caseInsensitive: false, negate: false },
  '!~~': { caseInsensitive: false, negate: true },
  '~~*': { caseInsensitive: true, negate: false },
  '!~~*': { caseInsensitive: true, negate: true },
});

const negated = (node: PgNode, negate: boolean): PgNode => (negate ? { BoolExpr: { boolop: 'NOT_EXPR', args: [node] } } : node);

/**
 * One `text LIKE pattern` in linear time (sql/like.ts), with PostgreSQL's
 * escape rules. A native LIKE it produces is itself an A_Expr ~~: it goes
 * into `done`, so this pass leaves it as it is when it meets it again.
 */
function likeNode(
  text: unknown,
  pattern: unknown,
  escape: string | null,
  op: { caseInsensitive: boolean; negate: boolean },
  done: WeakSet<object>,
): PgNode {
  const constant = constText(pattern);
  const node =
    constant !== undefined ? constantLike(text, constant, escape, op.caseInsensitive) : runtimeLike(text, pattern, escape, op.caseInsensitive);
  if (node['A_Expr']) done.add(node['A_Expr']);
  return negated(node, op.negate);
}

/**
 * PostgreSQL's LIKE escapes with a backslash unless told otherwise (dbt's
 * `nspname not like 'pg\_%'`); DuckDB's LIKE has no escape character and its
 * escaping and case-insensitive forms backtrack exponentially. Every LIKE is
 * rewritten by sql/like.ts; `LIKE ANY/ALL (ARRAY[…])` becomes an OR/AND of them.
 */
function rewriteLike(v: Visit, op: string, done: WeakSet<object>): boolean {
  const like = LIKE_OPS[op];
  const f = v.fields;
  if (done.has(f)) return true;
  const kind = String(f['kind']);
  if (!like) return false;
  if (kind === 'AEXPR_OP_ANY' || kind === 'AEXPR_OP_ALL') {
    const items = arrayFromLiteral(f['rexpr']) ?? f['rexpr'];
    const elements = (items as Fields | undefined)?.['A_ArrayExpr'];
    if (!elements) throw new SqlError('0A000', `${kind === 'AEXPR_OP_ANY' ? 'ANY' : 'ALL'} with ${op} over a non-constant array is not supported`, pos(f['location']));
    const patterns = (elements['elements'] ?? []) as unknown[];
    // one copy of the left side per pattern: never of a subquery, whose tables would escape the data gate's rewrite
    if (patterns.length > 1 && containsSubquery(f['lexpr'])) {
      throw new SqlError('0A000', `${kind === 'AEXPR_OP_ANY' ? 'ANY' : 'ALL'} with ${op} and a subquery on its left is not supported`, pos(f['location']));
    }
    const parts = patterns.map((p, i) => likeNode(i === 0 ? f['lexpr'] : structuredClone(f['lexpr']), p, '\\', like, done));
    // x LIKE ANY('{}') is false, LIKE ALL('{}') true, as in PostgreSQL.
    const empty = kind === 'AEXPR_OP_ANY' ? boolConst(false) : boolConst(true);
    replaceNode(v.node, parts.length === 0 ? empty : parts.length === 1 ? parts[0]! : { BoolExpr: { boolop: kind === 'AEXPR_OP_ANY' ? 'OR_EXPR' : 'AND_EXPR', args: parts } });
    return true;
  }
  if (!(kind === 'AEXPR_LIKE' || kind === 'AEXPR_ILIKE' || kind === 'AEXPR_OP')) return false;
  let pattern: unknown = f['rexpr'];
  let escape: string | null = '\\';
  const explicit = (pattern as Fields | undefined)?.['FuncCall'];
  if (explicit && names(explicit['funcname']).pop() === 'like_escape') {
    const [p, e] = explicit['args'] as unknown[];
    const text = constText(e);
    if (text === undefined) throw new SqlError('0A000', 'ESCAPE with an escape character that is not a constant is not supported', pos(explicit['location']));
    pattern = p;
    escape = escapeChar(text, explicit['location']);
  }
  replaceNode(v.node, likeNode(f['lexpr'], pattern, escape, like, done));
  return true;
}

/** Numeric types by the name a cast writes (the parser's pg_catalog names and the user's spellings). */
const NUMERIC_TYPE_NAMES: ReadonlySet<string> = new Set(['int2', 'int4', 'int8', 'smallint', 'integer', 'int', 'bigint', 'numeric', 'decimal', 'float4', 'float8', 'real']);

/**
 * A NULL constant as a division operand: PostgreSQL gives a bare NULL its
 * partner's type (`1.5 / NULL` is numeric) and a `NULL::type` its own. DuckDB
 * binds a NULL constant, typed or not, without a type when the division macro
 * chooses its overload, so the division is planned with probes (the probed
 * macro, sql/dialect/numeric.ts): the partner's probe for a bare NULL, a typed
 * zero for a cast one. The probes are never evaluated. False where that does
 * not apply (neither operand a NULL, both NULL, no probe of the partner).
 */
function nullDivision(v: Visit): boolean {
  const f = v.fields;
  const nullType = (n: unknown): 'bare' | PgNode | undefined => {
    const c = (n as Fields | undefined)?.['A_Const'];
    if (c) return c.isnull ? 'bare' : undefined;
    const tc = (n as Fields | undefined)?.['TypeCast'];
    const tn = tc?.['typeName'] as Fields | undefined;
    if (!tc?.['arg']?.['A_Const']?.isnull || !tn || tn['arrayBounds']) return undefined;
    const parts = names(tn['names']);
    const name = parts[parts.length - 1] ?? '';
    if (!NUMERIC_TYPE_NAMES.has(name) || (parts.length === 2 && parts[0] !== 'pg_catalog') || parts.length > 2) return undefined;
    return typed(intConst(0), name, tn['typmods'] ? structuredClone(tn['typmods']) : undefined);
  };
  const left = nullType(f['lexpr']);
  const right = nullType(f['rexpr']);
  // neither is NULL, or both are untyped (PostgreSQL: unknown / unknown is ambiguous)
  if ((left === undefined && right === undefined) || (left === 'bare' && right === 'bare')) return false;
  const own = (side: 'bare' | PgNode | undefined, operand: unknown): PgNode | undefined =>
    side === undefined ? probeOf(operand) : side === 'bare' ? undefined : side;
  const l = own(left, f['lexpr']);
  const r = own(right, f['rexpr']);
  const pa = left === 'bare' ? r && structuredClone(r) : l;
  const pb = right === 'bare' ? l && structuredClone(l) : r;
  if (!pa || !pb) return false;
  replaceNode(v.node, { FuncCall: { funcname: emulated(INTERNAL_MACROS.probedDivide), args: [f['lexpr'], f['rexpr'], pa, pb], funcformat: 'COERCE_EXPLICIT_CALL' } });
  return true;
}

/**
 * x [NOT] BETWEEN SYMMETRIC a AND b, which DuckDB lacks, as PostgreSQL
 * defines it: (x BETWEEN a AND b) OR (x BETWEEN b AND a), and for NOT both
 * NOT BETWEENs (a NULL bound keeps its NULL). x, a and b are copied: never
 * one holding a subquery (its tables would escape the data gate's rewrite).
 */
function betweenSymmetric(v: Visit, not: boolean): void {
  const f = v.fields;
  const bounds = ((f['rexpr'] as Fields | undefined)?.['List']?.['items'] ?? []) as PgNode[];
  if (bounds.length !== 2 || [f['lexpr'], ...bounds].some((n) => containsSubquery(n))) {
    throw new SqlError('0A000', 'BETWEEN SYMMETRIC over a subquery is not supported', pos(f['location']));
  }
  const between = (x: PgNode, lo: PgNode, hi: PgNode): PgNode => ({
    A_Expr: { kind: not ? 'AEXPR_NOT_BETWEEN' : 'AEXPR_BETWEEN', name: [strNode(not ? 'NOT BETWEEN' : 'BETWEEN')], lexpr: x, rexpr: { List: { items: [lo, hi] } }, location: f['location'] },
  });
  const x = f['lexpr'] as PgNode;
  const [a, b] = bounds as [PgNode, PgNode];
  replaceNode(v.node, {
    BoolExpr: { boolop: not ? 'AND_EXPR' : 'OR_EXPR', args: [between(x, a, b), between(structuredClone(x), structuredClone(b), structuredClone(a))], location: f['location'] },
  });
}

const COMPARISONS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);

/**
 * `ts >= '2024-01-01'`, `ts BETWEEN '…' AND '…'`, `ts IN ('…')`: PostgreSQL reads an unknown
 * literal as the other operand's type, a timestamptz in the session's zone
 * (DuckDB would read it in UTC).
 */
function zonedComparison(f: Fields, op: string, zone: SessionZone): void {
  const kind = String(f['kind']);
  const text = (n: unknown): string | undefined => ((n as Fields | undefined)?.['A_Const'] ? constText(n) : undefined);
  const retype = (lit: unknown, other: unknown): PgNode | undefined => {
    const t = text(lit);
    return t === undefined || text(other) !== undefined ? undefined : comparedLiteral(t, other, zone);
  };
  if (kind === 'AEXPR_OP' && COMPARISONS.has(op)) {
    f['rexpr'] = retype(f['rexpr'], f['lexpr']) ?? f['rexpr'];
    f['lexpr'] = retype(f['lexpr'], f['rexpr']) ?? f['lexpr'];
  } else if (kind === 'AEXPR_BETWEEN' || kind === 'AEXPR_NOT_BETWEEN' || kind === 'AEXPR_IN') {
    const items = ((f['rexpr'] as Fields | undefined)?.['List']?.['items'] ?? []) as PgNode[];
    items.forEach((n, i) => (items[i] = retype(n, f['lexpr']) ?? n));
  }
}

const ARITHMETIC = new Set(['+', '-', '*', '/', '%']);
const isBareNull = (n: unknown): boolean => (n as Fields | undefined)?.['A_Const']?.isnull === true;

function transformAExpr(v: Visit, done: WeakSet<object>, zone: SessionZone): void {
  const f = v.fields;
  if (String(f['kind']) === 'AEXPR_SIMILAR') return transformSimilar(v);
  const parts = names(f['name']);
  const op = parts[parts.length - 1] ?? '';
  if (parts.length === 2) f['name'] = [strNode(op)];
  if (!isUtc(zone)) zonedComparison(f, op, zone);
  // jsonb's equality, the built-in operators, json's (sql/dialect/registry.ts): @> of two arrays is array containment
  for (const r of operatorRewritesOf(op)) if ((r.applies?.({ v, f, op }) ?? true) && r.rewrite({ v, f, op })) return;
  if (rewriteLike(v, op, done)) return;
  const kind = String(f['kind']);
  if (kind === 'AEXPR_BETWEEN_SYM' || kind === 'AEXPR_NOT_BETWEEN_SYM') return betweenSymmetric(v, kind === 'AEXPR_NOT_BETWEEN_SYM');
  if (kind === 'AEXPR_OP' && ARITHMETIC.has(op) && isBareNull(f['lexpr']) && isBareNull(f['rexpr'])) {
    // unknown op unknown: PostgreSQL finds several candidates (int, numeric, float8 …) and chooses none
    throw new SqlError('42725', `operator is not unique: unknown ${op} unknown`, pos(f['location']), {
      hint: 'Could not choose a best candidate operator. You might need to add explicit type casts.',
    });
  }
  if (kind === 'AEXPR_OP' && op === '/' && f['lexpr'] && nullDivision(v)) return;
  if (kind === 'AEXPR_OP' && ['+', '-', '*', '/', '%'].includes(op) && f['lexpr']) typeLiteralOperands(f);
  const subtraction = kind === 'AEXPR_OP' && op === '-' && f['lexpr'] ? typedSubtraction(f) : undefined;
  if (subtraction) {
    replaceNode(v.node, subtraction);
    return;
  }
  if (kind === 'AEXPR_OP' && (op === '/' || op === '%') && f['lexpr']) {
    const exact = typedDispatchSafe(f['lexpr']) && typedDispatchSafe(f['rexpr']);
    // an aggregate or window operand: probes of both sides choose the overload (sql/dialect/numeric.ts)
    const probes = op === '/' && !exact ? [probeOf(f['lexpr']), probeOf(f['rexpr'])] : [];
    const probed = probes.length === 2 && probes[0] !== undefined && probes[1] !== undefined;
    if (op === '%') {
      replaceNode(v.node, modulo([f['lexpr'], f['rexpr']]));
      return;
    }
    const macro = exact ? INTERNAL_MACROS.divide : probed ? INTERNAL_MACROS.probedDivide : INTERNAL_MACROS.plainDivide;
    const args = probed ? [f['lexpr'], f['rexpr'], ...probes] : [f['lexpr'], f['rexpr']];
    replaceNode(v.node, { FuncCall: { funcname: emulated(macro), args, funcformat: 'COERCE_EXPLICIT_CALL' } });
    return;
  }
  if (kind === 'AEXPR_OP_ANY' || kind === 'AEXPR_OP_ALL') {
    const arr = arrayFromLiteral(f['rexpr']);
    if (arr) f['rexpr'] = arr;
    return;
  }
  if (kind !== 'AEXPR_OP') return;
  // `polroles = '{0}'`: PostgreSQL types the literal as the array column's type.
  if (op === '=' || op === '<>' || op === '!=') {
    if (isEmulatedArrayColumn(f['lexpr'])) f['rexpr'] = arrayFromLiteral(f['rexpr']) ?? f['rexpr'];
    if (isEmulatedArrayColumn(f['rexpr'])) f['lexpr'] = arrayFromLiteral(f['lexpr']) ?? f['lexpr'];
  }
  // DuckDB's `~` is a full match; PostgreSQL's matches anywhere.
  const regex = REGEX_OPS[op];
  if (regex && f['lexpr']) {
    const args: unknown[] = [f['lexpr'], f['rexpr']];
    if (regex.flags) args.push(strConst(regex.flags));
    const call: PgNode = { FuncCall: { funcname: [strNode('regexp_matches')], args, funcformat: 'COERCE_EXPLICIT_CALL' } };
    // DuckDB's boolean regexp_matches, not PostgreSQL's set-returning one (sql/dialect/format.ts)
    ENGINE_CALLS.add(call['FuncCall']!);
    replaceNode(v.node, regex.negate ? { BoolExpr: { boolop: 'NOT_EXPR', args: [call] } } : call);
  }
}

/**
 * What the statement itself prints (its own select list, not a subquery's or a
 * comparison's): ROW(…) as PostgreSQL's record text `(1,a)` (DuckDB would
 * print a struct as JSON) and a constant `::regclass` as the relation's name.
 * and a constant `::regtype` or a to_regtype() as the type's name. The columns are presented as
 * record, regclass and regtype (sql/resultTypes.ts).
 */
function printedForms(root: unknown, ctx: DialectContext): void {
  const select = (root as Fields | undefined)?.['SelectStmt'];
  for (const target of (select?.['targetList'] ?? []) as Fields[]) {
    const rt = target['ResTarget'];
    const val = rt?.['val'] as Fields | undefined;
    const row = val?.['RowExpr'];
    if (row && ((row['args'] ?? []) as unknown[]).every(typedDispatchSafe)) {
      const args = (row['args'] ?? []) as PgNode[];
      const parts: PgNode[] = [strConst('(')];
      args.forEach((a, i) => {
        if (i > 0) parts.push(strConst(','));
        parts.push({ FuncCall: { funcname: emulated('lg_record_field'), args: [a], funcformat: 'COERCE_EXPLICIT_CALL' } });
      });
      parts.push(strConst(')'));
      rt['val'] = parts.reduce((l, r) => ({ A_Expr: { kind: 'AEXPR_OP', name: [strNode('||')], lexpr: l, rexpr: r } }));
      continue;
    }
    // to_regtype answers a regtype, which prints as the type's name (the emulation's to_regtype is its OID)
    const fn = names(val?.['FuncCall']?.['funcname']);
    if (fn[fn.length - 1] === 'to_regtype' && (fn.length === 1 || (fn.length === 2 && fn[0] === 'pg_catalog'))) {
      rt['val'] = { TypeCast: { arg: val, typeName: { names: [strNode('regtype')], typemod: -1 } } };
      continue;
    }
    const tc = val?.['TypeCast'];
    const tn = names(tc?.['typeName']?.['names']);
    if (tc && tn[tn.length - 1] === 'regclass' && !tc['typeName']['arrayBounds'] && constText(tc['arg']) !== undefined) {
      regCast('regclass', tc['arg'], ctx, tc['typeName']?.['location']); // validates: unknown names are 42P01
      rt['val'] = strConst(regclassText(constText(tc['arg'])!, ctx));
    }
    // `$1::regclass` selected: the name, as regclass_out prints a column's (the cast itself resolves the name at Bind)
    if (tc && tn[tn.length - 1] === 'regclass' && !tc['typeName']['arrayBounds'] && (tc['arg'] as Fields | undefined)?.['ParamRef']) {
      rt['name'] ??= 'regclass';
      rt['val'] = { FuncCall: { funcname: emulated('regclass_out'), args: [val, arrayOf(effectiveSearchPath(ctx))], funcformat: 'COERCE_EXPLICIT_CALL' } };
    }
    if (tc && tn[tn.length - 1] === 'regtype' && !tc['typeName']['arrayBounds'] && constText(tc['arg']) !== undefined) {
      rt['val'] = strConst(regtypeText(constText(tc['arg'])!, tc['typeName']?.['location']));
    }
  }
}

export function applyDialect(root: unknown, ctx: DialectContext, tables: readonly TableReference[] = []): void {
  const done = new WeakSet<object>();
  markOuterReferences(root, ctx.catalog, tables);
  printedForms(root, ctx);
  walk(root, (v) => {
    switch (v.kind) {
      case 'SelectStmt':
        return checkFromNames(v.fields);
      case 'A_Const': {
        // B'101' / X'1F' bit strings; 1e3 a numeric, as PostgreSQL reads it
        if (v.fields['bsval'] !== undefined) return transformBitString(v);
        const numeric = exponentLiteral(v.fields);
        if (numeric) replaceNode(v.node, numeric);
        return;
      }
      case 'FuncCall':
        return transformFuncCall(v, ctx, done);
      case 'SQLValueFunction': {
        const fold = SVF_FOLDS[String(v.fields['op'])];
        if (fold) replaceNode(v.node, fold(ctx));
        return;
      }
      case 'TypeCast':
        return transformTypeCast(v, ctx);
      case 'A_Expr':
        return transformAExpr(v, done, sessionZoneOf(ctx));
      case 'SubLink': {
        const op = names(v.fields['operName']);
        // DuckDB would match each row's pattern by backtracking (sql/like.ts).
        if (LIKE_OPS[op[op.length - 1] ?? '']) throw new SqlError('0A000', `${op[op.length - 1]} ANY/ALL over a subquery is not supported`, pos(v.fields['location']));
        // DuckDB has no such operators (its `->` is a lambda): only sql/dialect/json.ts's translations reach it
        if (JSON_OPERATORS.has(op[op.length - 1] ?? '')) throw new SqlError('0A000', `${op[op.length - 1]} ANY/ALL over a subquery is not supported`, pos(v.fields['location']));
        if (op.length === 2) v.fields['operName'] = [strNode(op[1]!)];
        return;
      }
      case 'RangeFunction': {
        // generate_series over integers answers integer, as in PostgreSQL (sql/dialect/numeric.ts)
        const rf = v.fields;
        const series = done.has(rf) ? undefined : typedSeries(rf);
        if (series) {
          done.add(rf);
          replaceNode(v.node, series);
          return;
        }
        // PostgreSQL names a scalar function's only column after the alias (`generate_series(…) s` → column s);
        // DuckDB would bind `s` to the whole row. Only for the set-returning functions of one scalar column:
        // a table function (iceberg_scan, pg_get_keywords) keeps its column names under the alias.
        const alias = v.fields['alias'] as Fields | undefined;
        const fns = (v.fields['functions'] ?? []) as Fields[];
        const fn = names(fns[0]?.['List']?.['items']?.[0]?.['FuncCall']?.['funcname']);
        const scalar = ['generate_series', 'unnest'].includes(fn[fn.length - 1] ?? '');
        if (alias && !alias['colnames'] && fns.length === 1 && scalar) {
          alias['colnames'] = [strNode(String(alias['aliasname']))];
        }
        return;
      }
      case 'A_Indirection': {
        // (ARRAY[…])[i]: the deparser drops the parentheses PostgreSQL needs; DuckDB's list_value is the same list
        const arg = v.fields['arg'] as Fields | undefined;
        if (arg?.['A_ArrayExpr']) replaceNode(arg as PgNode, call('list_value', ...((arg['A_ArrayExpr']['elements'] ?? []) as PgNode[])));
        return;
      }
      case 'SortBy':
        // PostgreSQL sorts NULLs as larger than any value: first under DESC unless told (DuckDB: last)
        if (v.fields['sortby_dir'] === 'SORTBY_DESC' && (v.fields['sortby_nulls'] ?? 'SORTBY_NULLS_DEFAULT') === 'SORTBY_NULLS_DEFAULT') {
          v.fields['sortby_nulls'] = 'SORTBY_NULLS_FIRST';
        }
        return;
      case 'GroupingFunc': {
        // grouping(…) is integer in PostgreSQL (DuckDB: BIGINT)
        if (done.has(v.fields)) return;
        done.add(v.fields);
        replaceNode(v.node, { TypeCast: { arg: { GroupingFunc: v.fields }, typeName: { names: [strNode('pg_catalog'), strNode('int4')], typemod: -1 } } });
        return;
      }
      case 'CollateClause': {
        const coll = names(v.fields['collname']);
        if (IGNORED_COLLATIONS.has(coll[coll.length - 1] ?? '')) replaceNode(v.node, v.fields['arg'] as PgNode);
        return;
      }
      default:
        return;
    }
  });
}
