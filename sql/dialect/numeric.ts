/**
 * PostgreSQL's arithmetic result types where DuckDB cannot choose a typed
 * macro overload (sql/dialect/numericMacros.ts) by itself.
 *
 * DuckDB types a macro's argument before choosing the overload only when it
 * can bind it on its own; an aggregate, a window function, a subquery or a
 * parameter has no type at that point. For an operand built from aggregates
 * and window functions the planner writes a probe next to it: the same
 * expression with each aggregate replaced by a value of the aggregate's
 * result type computed from its argument alone (count(*) → a BIGINT, sum(x)
 * → lg_sum_p(x), which has lg_sum(x)'s type). The probe decides the
 * overload and is dropped by it: it is never evaluated, so it cannot raise.
 * A probe never copies a subquery (its tables would escape the data gate's
 * rewrite) nor a parameter (untyped): such operands get no probe. An
 * enclosing query's column (untyped there, sql/outerRefs.ts) is never copied
 * either: where its table column's type is known, a constant of that type
 * stands in for it (outerProbe); else no probe.
 */
import { EMULATION_DB, INTERNAL_MACROS, PGC_SCHEMA, emulated, emulatedCall } from '../emulation.js';
import { AGGREGATE_FUNCTIONS, WINDOW_FUNCTIONS } from '../functions.js';
import { hasOuterReference, isOuterReference, typedCopy } from '../outerRefs.js';
import { boolConst, intConst, names, replaceNode, strNode, walk, type Fields, type PgNode } from '../walk.js';
import { ownTable } from '../ownNames.js';
import type { Rule } from './rule.js';

const AGGREGATE_OR_WINDOW: ReadonlySet<string> = new Set([...AGGREGATE_FUNCTIONS, ...WINDOW_FUNCTIONS]);

/** Emulation macros that are plain scalar expressions of their (typed) arguments. */
const SCALAR_MACROS: ReadonlySet<string> = new Set([INTERNAL_MACROS.sumProbe, INTERNAL_MACROS.avgProbe, INTERNAL_MACROS.intLiteral, INTERNAL_MACROS.numLiteral, 'lg_min_nb', 'lg_max_nb']);

const typedZero = (type: string): PgNode => ({
  TypeCast: { arg: intConst(0), typeName: { names: [strNode('pg_catalog'), strNode(type)], typemod: -1 } },
});

/**
 * DuckDB chooses a typed macro overload from the argument's type only when it
 * can bind the argument by itself; an aggregate, a window function, a
 * subquery, a parameter or an enclosing query's column (sql/outerRefs.ts) has
 * no type yet at that point and the choice would be blind. Only other
 * expressions go through them directly.
 */
export function typedDispatchSafe(expr: unknown): boolean {
  return dispatchSafe(expr, false);
}

/** typedDispatchSafe, where an enclosing query's column may count as safe (its probe copy is typed: outerProbe). */
function dispatchSafe(expr: unknown, outerReferences: boolean): boolean {
  let safe = true;
  walk(expr, (v) => {
    if (!safe) return false;
    if (v.kind === 'SubLink' || v.kind === 'ParamRef' || (!outerReferences && v.kind === 'ColumnRef' && isOuterReference(v.fields))) safe = false;
    if (v.kind === 'FuncCall') {
      const n = names(v.fields['funcname']);
      const last = n[n.length - 1] ?? '';
      if (v.fields['over'] || (n[0] === EMULATION_DB ? !SCALAR_MACROS.has(last) : AGGREGATE_OR_WINDOW.has(last))) safe = false;
    }
    return safe ? undefined : false;
  });
  return safe;
}

function copyable(expr: unknown): boolean {
  let ok = true;
  walk(expr, (v) => {
    if (v.kind === 'SubLink' || v.kind === 'RangeSubselect' || v.kind === 'RangeVar' || v.kind === 'ParamRef' || (v.kind === 'ColumnRef' && isOuterReference(v.fields))) ok = false;
    return ok ? undefined : false;
  });
  return ok;
}

const STATISTICS: ReadonlySet<string> = new Set(['stddev', 'stddev_samp', 'stddev_pop', 'variance', 'var_samp', 'var_pop']);

/**
 * The argument the exact stddev / variance macros take for this call
 * (sql/dialect/numericMacros.ts), or undefined for DISTINCT, ORDER BY, OVER
 * (statisticWithClauses) or an argument without a type of its own. FILTER (WHERE c) becomes `CASE WHEN c THEN x END`: the
 * aggregates skip NULLs, so they see exactly the rows FILTER lets through.
 * Does not change `fc`.
 */
export function exactStatisticArgument(fc: Fields): PgNode | undefined {
  const args = (fc['args'] ?? []) as PgNode[];
  if (args.length !== 1 || fc['agg_distinct'] || fc['agg_order'] || fc['over'] || fc['agg_star'] || fc['agg_within_group'] || fc['func_variadic']) return undefined;
  if (!typedDispatchSafe(args[0])) return undefined;
  const filter = fc['agg_filter'] as PgNode | undefined;
  if (!filter) return args[0];
  if (!typedDispatchSafe(filter)) return undefined;
  return { CaseExpr: { args: [{ CaseWhen: { expr: filter, result: args[0] } }] } };
}

/** sample?, square root? of each statistic */
const STATISTIC_KINDS: Readonly<Record<string, readonly [boolean, boolean]>> = ownTable({
  stddev: [true, true], stddev_samp: [true, true], stddev_pop: [false, true],
  variance: [true, false], var_samp: [true, false], var_pop: [false, false],
});

/** Whether statisticWithClauses takes this call: DISTINCT or OVER (not both), a typed argument, all of it copyable. */
function statisticWithClausesApplies(fc: Fields): boolean {
  const args = (fc['args'] ?? []) as PgNode[];
  if (args.length !== 1 || fc['agg_star'] || fc['func_variadic'] || fc['agg_within_group'] || fc['agg_order']) return false;
  if (Boolean(fc['agg_distinct']) === Boolean(fc['over'])) return false;
  return typedDispatchSafe(args[0]) && copyable({ FuncCall: fc });
}

const and = (a: PgNode | undefined, b: PgNode): PgNode => (a ? { BoolExpr: { boolop: 'AND_EXPR', args: [a, b] } } : b);
const compareZero = (x: PgNode, op: string): PgNode => ({ A_Expr: { kind: 'AEXPR_OP', name: [strNode(op)], lexpr: x, rexpr: intConst(0) } });

/**
 * stddev / variance with DISTINCT or OVER (a macro cannot carry those
 * clauses): the exact statistic (sql/dialect/numericMacros.ts lg_stats_as) from
 * count(x), sum(x) and Σx², each written with the user's clauses (FILTER,
 * the window, DISTINCT), and the call itself for a float argument. With
 * DISTINCT, Σx² is over the distinct x: sum(DISTINCT x²) alone would merge x
 * and −x, so the squares of x >= 0 and of x < 0 are summed apart (x² is
 * one-to-one on each side). `fc` stays in the tree as the float case; every
 * call written here is passed to `mark` (the dialect leaves them as they are).
 * undefined when the call stays DuckDB's.
 */
export function statisticWithClauses(name: string, fc: Fields, mark: (f: Fields) => void): PgNode | undefined {
  const kind = STATISTIC_KINDS[name];
  if (!kind || !statisticWithClausesApplies(fc)) return undefined;
  const x = ((fc['args'] ?? []) as PgNode[])[0]!;
  const like = (fn: string, arg: PgNode, filter?: PgNode): PgNode => {
    const copy = structuredClone(fc);
    const f: Fields = { ...copy, funcname: [strNode(fn)], args: [arg], funcformat: 'COERCE_EXPLICIT_CALL' };
    if (filter) f['agg_filter'] = filter;
    mark(f);
    return { FuncCall: f };
  };
  const square = (): PgNode => emulatedCall('lg_vsq', [structuredClone(x)]);
  const userFilter = fc['agg_filter'] as PgNode | undefined;
  const s2 = fc['agg_distinct']
    ? emulatedCall('lg_vadd', [
      like('sum', square(), and(structuredClone(userFilter), compareZero(structuredClone(x), '>='))),
      like('sum', square(), and(structuredClone(userFilter), compareZero(structuredClone(x), '<'))),
    ])
    : like('sum', square());
  const n = like('count', structuredClone(x));
  const s1 = like('sum', structuredClone(x));
  mark(fc);
  return emulatedCall(INTERNAL_MACROS.statsAs, [{ FuncCall: fc }, n, s1, s2, boolConst(kind[0]), boolConst(kind[1]), structuredClone(x)]);
}

const BIGINT_RESULTS: ReadonlySet<string> = new Set(['count', 'row_number', 'rank', 'dense_rank']);
const VALUE_WINDOW_FUNCTIONS: ReadonlySet<string> = new Set(['lag', 'lead', 'first_value', 'last_value', 'nth_value']);

function probe(n: unknown): PgNode | undefined {
  if (typedDispatchSafe(n)) return structuredClone(n as PgNode);
  const node = n as Fields;
  const fc = node['FuncCall'] as Fields | undefined;
  if (fc) {
    const parts = names(fc['funcname']);
    if (parts.length > 2 || (parts.length === 2 && parts[0] !== 'pg_catalog')) return undefined;
    const name = parts[parts.length - 1] ?? '';
    const args = (fc['args'] ?? []) as PgNode[];
    if (BIGINT_RESULTS.has(name)) return typedZero('int8');
    if (name === 'ntile') return typedZero('int4');
    // extract is numeric, date_part double precision, whatever their source (extract(epoch from max(ts) - min(ts)) / 60)
    if (name === 'extract' && fc['funcformat'] === 'COERCE_SQL_SYNTAX') return typedZero('numeric');
    if (name === 'date_part' && fc['funcformat'] !== 'COERCE_SQL_SYNTAX') return typedZero('float8');
    // lag, lead and the value window functions have their argument's type (o_orderdate - lag(o_orderdate) over w)
    if (VALUE_WINDOW_FUNCTIONS.has(name) && fc['over'] && args.length >= 1 && args.length <= 2) {
      return typedDispatchSafe(args[0]) ? structuredClone(args[0]!) : undefined;
    }
    if (args.length !== 1 || fc['agg_star'] || fc['func_variadic']) return undefined;
    // an aggregate of an aggregate (sum(sum(x)) over ()): the inner one's probe stands for its argument
    const inner = typedDispatchSafe(args[0]) ? structuredClone(args[0]!) : ['sum', 'min', 'max'].includes(name) ? probe(args[0]) : undefined;
    if (!inner) return undefined;
    if (name === 'sum') return emulatedCall(INTERNAL_MACROS.sumProbe, [inner]);
    // stddev and variance have avg's types: numeric (DECIMAL(38,16)) of integers and numerics, else a float
    // (exact only as the planner writes it, exactStatisticArgument or statisticWithClauses: else it stays DuckDB's double)
    if (STATISTICS.has(name) && !exactStatisticArgument(fc) && !statisticWithClausesApplies(fc)) return undefined;
    if (name === 'avg' || STATISTICS.has(name)) return emulatedCall(INTERNAL_MACROS.avgProbe, [structuredClone(args[0]!)]);
    if (name === 'min' || name === 'max') return inner;
    return undefined;
  }
  const ae = node['A_Expr'] as Fields | undefined;
  // nullif(a, b) has a's type (analyst SQL: sum(x) / nullif(sum(y), 0)); coalesce its arguments' common type
  if (ae && String(ae['kind']) === 'AEXPR_NULLIF') return probe(ae['lexpr']);
  const ce = node['CoalesceExpr'] as Fields | undefined;
  if (ce) {
    const each = ((ce['args'] ?? []) as unknown[]).map((a) => probe(a));
    return each.length > 0 && each.every((p) => p !== undefined) ? { CoalesceExpr: { args: each } } : undefined;
  }
  if (ae) {
    const op = names(ae['name']).pop() ?? '';
    if (String(ae['kind']) !== 'AEXPR_OP' || !['+', '-', '*', '/', '%'].includes(op)) return undefined;
    const l = ae['lexpr'] === undefined ? undefined : probe(ae['lexpr']);
    const r = probe(ae['rexpr']);
    if (!r || (ae['lexpr'] !== undefined && !l)) return undefined;
    return { A_Expr: { kind: 'AEXPR_OP', name: structuredClone(ae['name']), ...(l ? { lexpr: l } : {}), rexpr: r } };
  }
  const tc = node['TypeCast'] as Fields | undefined;
  if (tc) {
    const arg = probe(tc['arg']);
    return arg ? { TypeCast: { arg, typeName: structuredClone(tc['typeName']) } } : undefined;
  }
  return undefined;
}

/**
 * A probe of `expr` (see the header), or undefined when it has none: a
 * subquery, a parameter, or a function whose result type is not known here.
 */
export function probeOf(expr: unknown): PgNode | undefined {
  return outerProbe(expr) ?? (copyable(expr) ? probe(expr) : undefined);
}

/** x itself as its own probe where DuckDB can type it alone, else its probe (probeOf), or undefined. */
export function probeFor(x: unknown): PgNode | undefined {
  return typedDispatchSafe(x) ? structuredClone(x as PgNode) : probeOf(x);
}

/**
 * An expression that could be typed alone but for an enclosing query's
 * columns (sql/outerRefs.ts): a copy with a constant of each one's type in
 * its place, or undefined.
 */
export function outerProbe(expr: unknown): PgNode | undefined {
  return hasOuterReference(expr) && dispatchSafe(expr, true) ? typedCopy(expr) : undefined;
}

/**
 * sum(x) / avg(x) with DISTINCT, FILTER or OVER (a macro cannot carry those
 * clauses): the call itself stays DuckDB's, wrapped so that its type is
 * PostgreSQL's; avg becomes an exact sum / count where PostgreSQL's is
 * numeric. undefined when the argument has no type of its own.
 */
export function typedAggregateWithClauses(name: 'sum' | 'avg', fc: Fields): PgNode | undefined {
  const args = (fc['args'] ?? []) as PgNode[];
  if (args.length !== 1 || fc['agg_star'] || fc['func_variadic'] || fc['agg_within_group'] || !typedDispatchSafe(args[0]) || !copyable(args[0])) return undefined;
  // the call itself stays in the tree (resolved table references inside it keep their identity); avg's count
  // is a copy, so all of it must be copyable
  if (name === 'avg' && !copyable({ FuncCall: fc })) return undefined;
  const p = structuredClone(args[0]!);
  fc['funcname'] = [strNode('sum')];
  if (name === 'sum') return emulatedCall(INTERNAL_MACROS.sumAs, [{ FuncCall: fc }, p]);
  const count: PgNode = { FuncCall: { ...structuredClone(fc), funcname: [strNode('count')] } };
  return emulatedCall(INTERNAL_MACROS.avgAs, [{ FuncCall: fc }, count, p]);
}

/** The value arguments of a wrapper this module writes (the rest are probes, never evaluated); undefined for other calls. */
export function wrapperValueArgs(fc: Fields): PgNode[] | undefined {
  const parts = names(fc['funcname']);
  if (parts.length !== 3 || parts[0] !== EMULATION_DB || parts[1] !== PGC_SCHEMA) return undefined;
  const args = (fc['args'] ?? []) as PgNode[];
  switch (parts[2]) {
    case INTERNAL_MACROS.probedDivide:
    case INTERNAL_MACROS.subtract:
    // a % b as lg_mod_t(a, b, probe) (modulo, below)
    case INTERNAL_MACROS.typedModulo:
      return args.slice(0, 2);
    case INTERNAL_MACROS.sumAs:
      return args.slice(0, 1);
    // a literal typed by the other operand or its probe (typeLiteralOperands): the literal
    case INTERNAL_MACROS.intLiteral:
    case INTERNAL_MACROS.numLiteral:
      return args.slice(1, 2);
    case INTERNAL_MACROS.avgAs:
      return args.slice(0, 2);
    case INTERNAL_MACROS.statsAs:
      return args.slice(0, 4);
    // round(x) as lg_round(x, probe) (sql/dialect/builtin.ts; the overload drops the probe: sql/dialect/builtinMacros.ts)
    case 'lg_round':
      return args.slice(0, 1);
    // round(x, n), trunc(x, n) as lg_round_n(x, n, probe)
    case 'lg_round_n':
    case 'lg_trunc_n':
      return args.slice(0, 2);
    // min(x) / max(x) as min(lg_min_nb(x, probe)) (sql/dialect/builtin.ts)
    case 'lg_min_nb':
    case 'lg_max_nb':
    // the session's zone (sql/sessionZone.ts): x, the zone, x's probe
    case 'lg_wall':
    case 'lg_zone_offset':
    case 'lg_zoned':
    case 'lg_zoned_text':
      return args.slice(0, 1);
    // a literal read as a timestamptz in the zone where its partner is one: the probe, the literal, the zone
    case 'lg_zone_lit':
      return args.slice(1, 3);
    default:
      return undefined;
  }
}

/** A column, or a cast of a column or a constant: what a literal's wrapper may copy (one node, no growth). */
function simpleOperand(n: unknown): boolean {
  const f = n as Fields | undefined;
  if (f?.['ColumnRef']) return true;
  const arg = f?.['TypeCast']?.['arg'] as Fields | undefined;
  return Boolean(arg && (arg['ColumnRef'] || arg['A_Const']) && !f!['TypeCast']['typeName']?.['arrayBounds']);
}

const numericConst = (n: unknown): 'int' | 'num' | undefined => {
  const c = (n as Fields | undefined)?.['A_Const'];
  if (!c) return undefined;
  if (c['ival'] !== undefined) return 'int';
  return c['fval'] !== undefined && /^[\d.]+$/.test(String(c['fval']['fval'])) ? 'num' : undefined;
};

/**
 * `int2col + 2` is integer and `1.5::real * 2` double precision in
 * PostgreSQL; DuckDB keeps the column's type. The literal is written as a
 * macro call that types it by the other operand (sql/dialect/numericMacros.ts
 * lg_int_lit): for any other type it is the literal as written, so the
 * engine computes exactly what it did before.
 */
export function typeLiteralOperands(ae: Fields): void {
  for (const [lit, other] of [['lexpr', 'rexpr'], ['rexpr', 'lexpr']] as const) {
    const kind = numericConst(ae[lit]);
    const typer = kind ? literalTyper(ae[other]) : undefined;
    if (!typer) continue;
    const macro = kind === 'int' ? INTERNAL_MACROS.intLiteral : INTERNAL_MACROS.numLiteral;
    ae[lit] = emulatedCall(macro, [typer, ae[lit] as PgNode]);
    return;
  }
}

/**
 * What types a literal next to `other`: a copy of a simple operand, or the
 * probe of an aggregate or window function of one (`sum(x::real) * 2`,
 * `max(realcol) + 1`), which the overload drops unevaluated.
 */
function literalTyper(other: unknown): PgNode | undefined {
  if (simpleOperand(other)) return typedDispatchSafe(other) ? structuredClone(other as PgNode) : outerProbe(other);
  const fc = (other as Fields | undefined)?.['FuncCall'] as Fields | undefined;
  const args = (fc?.['args'] ?? []) as unknown[];
  return fc && args.length === 1 && simpleOperand(args[0]) ? probeOf(other) : undefined;
}

/** The literal a typed-literal wrapper holds (flows: arithmetic with a literal), or undefined. */
export function wrappedLiteral(n: unknown): Fields | undefined {
  const fc = (n as Fields | undefined)?.['FuncCall'];
  const parts = fc ? names(fc['funcname']) : [];
  if (parts.length !== 3 || parts[0] !== EMULATION_DB || (parts[2] !== INTERNAL_MACROS.intLiteral && parts[2] !== INTERNAL_MACROS.numLiteral)) return undefined;
  return (fc!['args'] as Fields[])[1]?.['A_Const'];
}

/** A column, a constant's cast or a session value, or an aggregate or window function of a column: its probe is small. */
function smallOperand(n: unknown): boolean {
  const f = n as Fields | undefined;
  if (!f || f['A_Const']) return false;
  if (f['ColumnRef'] || f['SQLValueFunction']) return true;
  const tc = f['TypeCast'] as Fields | undefined;
  if (tc) {
    const arg = tc['arg'] as Fields | undefined;
    // a cast of a cast too (dbt's datediff writes `(date '1992-01-01')::date`)
    return !tc['typeName']?.['arrayBounds'] && Boolean(arg?.['ColumnRef'] || arg?.['A_Const'] || arg?.['SQLValueFunction'] || (arg?.['TypeCast'] && smallOperand(arg)));
  }
  const fc = f['FuncCall'] as Fields | undefined;
  const args = (fc?.['args'] ?? []) as unknown[];
  // its probe is the column alone (probeOf copies neither FILTER nor OVER)
  return Boolean(fc && args.length === 1 && (args[0] as Fields)['ColumnRef']);
}

const isIntervalCast = (n: unknown): boolean => {
  const tn = (n as Fields | undefined)?.['TypeCast']?.['typeName'] as Fields | undefined;
  return names(tn?.['names']).pop() === 'interval';
};

/**
 * date - date is integer in PostgreSQL, BIGINT in DuckDB: a subtraction of
 * two small operands (columns, casts of constants, aggregates of a column)
 * is written as lg_sub with probes, which subtracts as written unless both
 * are dates. Numbers next to a literal and intervals are left as they are
 * (TPC-H's `1 - l_discount`); so are larger operands, whose probes would
 * copy them.
 */
export function typedSubtraction(ae: Fields): PgNode | undefined {
  const l = ae['lexpr'];
  const r = ae['rexpr'];
  if (!smallOperand(l) || !smallOperand(r) || isIntervalCast(l) || isIntervalCast(r)) return undefined;
  const pl = probeOf(l);
  const pr = probeOf(r);
  if (!pl || !pr) return undefined;
  return emulatedCall(INTERNAL_MACROS.subtract, [l as PgNode, r as PgNode, pl, pr]);
}

/** gcd / lcm of two integers: integer when both are (a probe of their common type decides). */
export function typedGcd(name: 'gcd' | 'lcm', args: PgNode[]): PgNode | undefined {
  if (args.length !== 2 || !args.every((a) => typedDispatchSafe(a) && copyable(a))) return undefined;
  const zero = (a: PgNode): PgNode => ({ A_Expr: { kind: 'AEXPR_OP', name: [strNode('*')], lexpr: structuredClone(a), rexpr: intConst(0) } });
  const probe: PgNode = { A_Expr: { kind: 'AEXPR_OP', name: [strNode('+')], lexpr: zero(args[0]!), rexpr: zero(args[1]!) } };
  return emulatedCall(name === 'gcd' ? INTERNAL_MACROS.gcd : INTERNAL_MACROS.lcm, [args[0]!, args[1]!, probe]);
}

const SERIES_COLUMN = 'lg_series';

/** generate_series(a, b[, c]) as probes in the order lg_gs*2/3 take them, or undefined. */
function seriesProbes(fc: Fields): PgNode[] | undefined {
  const args = (fc['args'] ?? []) as PgNode[];
  if ((args.length !== 2 && args.length !== 3) || fc['func_variadic']) return undefined;
  const copies = args.map((x) => (typedDispatchSafe(x) && copyable(x) ? structuredClone(x) : outerProbe(x)));
  if (copies.some((c) => c === undefined)) return undefined;
  const [a, b, c] = copies;
  return c ? [b!, c, a!] : [b!, a!];
}

/**
 * generate_series over integers is integer in PostgreSQL, BIGINT in DuckDB.
 * In a select list (DuckDB: one list, unnested): the list, typed. undefined
 * when the arguments cannot be probed.
 */
export function typedSeriesList(fc: Fields): PgNode | undefined {
  const probes = seriesProbes(fc);
  return probes ? emulatedCall(probes.length === 3 ? 'lg_gsl3' : 'lg_gsl2', [{ FuncCall: fc }, ...probes]) : undefined;
}

/**
 * …and in FROM (a streamed table function): a derived table that types each
 * value, `LATERAL (SELECT lg_gsv2(s.v, b, a) FROM generate_series(a, b) s(v))`
 * under the user's alias (PostgreSQL's column name when there is none).
 * `rf` is the RangeFunction's fields, reused (with its own alias) inside.
 */
export function typedSeries(rf: Fields): PgNode | undefined {
  const fns = (rf['functions'] ?? []) as Fields[];
  const items = (fns[0]?.['List']?.['items'] ?? []) as Fields[];
  const fc = items[0]?.['FuncCall'] as Fields | undefined;
  const fn = names(fc?.['funcname']);
  if (fns.length !== 1 || !fc || fn[fn.length - 1] !== 'generate_series' || (fn.length === 2 && fn[0] !== 'pg_catalog') || fn.length > 2) return undefined;
  if (rf['ordinality'] || rf['is_rowsfrom'] || rf['coldeflist']) return undefined;
  const probes = seriesProbes(fc);
  if (!probes) return undefined;
  const alias = (rf['alias'] as Fields | undefined) ?? { aliasname: 'generate_series' };
  const column = alias['colnames'] ? undefined : String(alias['aliasname']);
  // the same RangeFunction object, now the derived table's FROM item (the caller marks it done)
  rf['alias'] = { aliasname: SERIES_COLUMN, colnames: [strNode('v')] };
  delete rf['lateral'];
  const inner: PgNode = { RangeFunction: rf };
  const value = { ColumnRef: { fields: [strNode(SERIES_COLUMN), strNode('v')] } };
  return {
    RangeSubselect: {
      lateral: true,
      subquery: {
        SelectStmt: {
          targetList: [{ ResTarget: { name: column ?? 'v', val: emulatedCall(probes.length === 3 ? 'lg_gsv3' : 'lg_gsv2', [value, ...probes]) } }],
          fromClause: [inner],
          limitOption: 'LIMIT_OPTION_DEFAULT',
          op: 'SETOP_NONE',
        },
      },
      alias: column ? { ...alias, colnames: [strNode(column)] } : alias,
    },
  };
}

/**
 * `1e3` and `1.5e-3` are numeric in PostgreSQL (1000, 0.0015: the scale is
 * the mantissa's decimals less the exponent), DOUBLE in DuckDB: the
 * literal's digits as a numeric of exactly that precision and scale.
 * undefined for a literal without an exponent or beyond 38 digits (which
 * stays a double).
 */
export function exponentLiteral(c: Fields): PgNode | undefined {
  const text = c['fval']?.['fval'];
  const m = typeof text === 'string' ? /^(-?)(\d*)(?:\.(\d*))?[eE]([-+]?\d{1,3})$/.exec(text) : null;
  if (!m) return undefined;
  const [, sign, whole = '', frac = '', expText] = m;
  const exp = Number(expText);
  const scale = Math.max(0, frac.length - exp);
  const unscaled = BigInt(whole + frac || '0') * 10n ** BigInt(exp - frac.length + scale);
  const digits = unscaled.toString().padStart(scale + 1, '0');
  const precision = Math.max(digits.length, 1);
  if (precision > 38) return undefined;
  const plain = `${sign}${scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits}`;
  return {
    TypeCast: {
      arg: { A_Const: { sval: { sval: plain } } },
      typeName: { names: [strNode('pg_catalog'), strNode('numeric')], typemod: -1, typmods: [intConst(precision), intConst(scale)] },
    },
  };
}

const isNumericCastWithoutTypmod = (n: unknown): Fields | undefined => {
  const tc = (n as Fields | undefined)?.['TypeCast'] as Fields | undefined;
  const tn = tc?.['typeName'] as Fields | undefined;
  const last = names(tn?.['names']).pop();
  return tc && (last === 'numeric' || last === 'decimal') && !tn!['typmods'] && !tn!['arrayBounds'] ? tc : undefined;
};

/**
 * round(x::numeric, n): PostgreSQL converts a float8 to numeric through its
 * text to 15 significant digits and rounds half away from zero to scale n.
 * DuckDB would keep the double (an expression's ::numeric, sql/dialect/dialect.ts)
 * and round it in binary. Written as that text cast to numeric(38, n) (the
 * cast rounds half away from zero); undefined for any other call.
 */
export function roundedNumericCast(args: PgNode[]): PgNode | undefined {
  const tc = args.length === 2 ? isNumericCastWithoutTypmod(args[0]) : undefined;
  const c = (args[1] as Fields | undefined)?.['A_Const'];
  const n = c && c['ival'] !== undefined ? Number(c['ival']['ival'] ?? 0) : NaN;
  if (!tc || !Number.isInteger(n) || n < 0 || n > 20 || tc['arg']?.['A_Const']) return undefined;
  // an aggregate or window value (round(avg(score)::numeric, 2)): its probe picks the conversion (sql/dialect/builtinMacros.ts)
  const probe = typedDispatchSafe(tc['arg']) ? undefined : probeOf(tc['arg']);
  if (!typedDispatchSafe(tc['arg']) && !probe) return undefined;
  return {
    TypeCast: {
      arg: probe ? emulatedCall('lg_num_text_p', [tc['arg'] as PgNode, probe]) : emulatedCall(INTERNAL_MACROS.numericText, [tc['arg'] as PgNode]),
      typeName: { names: [strNode('pg_catalog'), strNode('numeric')], typemod: -1, typmods: [intConst(38), intConst(n)] },
    },
  };
}

/**
 * x::bit(n) of an expression (sql/dialect/dialect.ts: the lg_bit_n macro, whose
 * overload the probe picks: a bit string, an int4, an int8): n and the probe,
 * or undefined for a constant (whose bits the dialect computes) or an
 * expression without a probe (a parameter, a subquery: DuckDB's own cast).
 */
export function sizedBitProbe(arg: unknown, mods: readonly unknown[]): { n: number; probe: PgNode } | undefined {
  const n = mods.length === 1 ? (mods[0] as Fields | undefined)?.['A_Const']?.ival?.ival : undefined;
  if (typeof n !== 'number' || n < 1 || n > 100000 || (arg as Fields | undefined)?.['A_Const']) return undefined;
  const probe = typedDispatchSafe(arg) ? structuredClone(arg as PgNode) : probeOf(arg);
  return probe ? { n, probe } : undefined;
}

const TYPED_AGGREGATES: Readonly<Record<string, string>> = ownTable({ sum: INTERNAL_MACROS.sum, avg: INTERNAL_MACROS.avg });

/** stddev and variance of integers and numerics are exact numerics in PostgreSQL (sql/dialect/numericMacros.ts); of floats, DuckDB's own. */
const STATISTICS_AGGREGATES: Readonly<Record<string, string>> = ownTable({
  variance: INTERNAL_MACROS.varSamp, var_samp: INTERNAL_MACROS.varSamp, var_pop: INTERNAL_MACROS.varPop,
  stddev: INTERNAL_MACROS.stddevSamp, stddev_samp: INTERNAL_MACROS.stddevSamp, stddev_pop: INTERNAL_MACROS.stddevPop,
});

const plainAggregate = (f: Fields): boolean =>
  !f['agg_distinct'] && !f['agg_filter'] && !f['over'] && !f['agg_order'] && !f['agg_star'] && !f['agg_within_group'] && !f['func_variadic'];

/**
 * a % b and mod(a, b): 22012 on a zero divisor (DuckDB's mod answers NULL), and 42883 for a float operand
 * (PostgreSQL has no float modulo; DuckDB's is fmod), told by a probe a + b where both operands have one.
 */
export function modulo(args: unknown[]): PgNode {
  const [a, b] = args as PgNode[];
  const pa = probeFor(a);
  const pb = probeFor(b);
  return pa && pb
    ? emulatedCall(INTERNAL_MACROS.typedModulo, [a!, b!, { A_Expr: { kind: 'AEXPR_OP', name: [strNode('+')], lexpr: pa, rexpr: pb } }])
    : emulatedCall(INTERNAL_MACROS.modulo, [a!, b!]);
}

const pgInt4 = (arg: PgNode): PgNode => ({ TypeCast: { arg, typeName: { names: [strNode('pg_catalog'), strNode('int4')], typemod: -1 } } });

/** The numeric typing rules as rewrites of calls (sql/dialect/registry.ts), each with the macros it calls. */
export const NUMERIC_RULES: readonly Rule[] = [
  // sum(int4) is bigint and avg(int or numeric) numeric in PostgreSQL (sql/dialect/numericMacros.ts). Only the
  // plain aggregate: a macro cannot carry DISTINCT, FILTER, ORDER BY or OVER.
  {
    phase: 'typedAggregate',
    names: Object.keys(TYPED_AGGREGATES),
    macros: Object.values(TYPED_AGGREGATES),
    applies: (c) => c.args.length === 1 && plainAggregate(c.f) && c.typedSafe(c.args[0]),
    rewrite: (c) => {
      c.f['funcname'] = emulated(TYPED_AGGREGATES[c.name]!);
      return true;
    },
  },
  // stddev / variance, FILTER folded into the argument
  {
    phase: 'exactStatistic',
    names: Object.keys(STATISTICS_AGGREGATES),
    macros: [...new Set(Object.values(STATISTICS_AGGREGATES))],
    rewrite: (c) => {
      const exactArg = exactStatisticArgument(c.f);
      if (!exactArg) return false;
      c.f['funcname'] = emulated(STATISTICS_AGGREGATES[c.name]!);
      c.f['args'] = [exactArg];
      delete c.f['agg_filter'];
      return true;
    },
  },
  // …with DISTINCT or OVER, from count, sum and Σx² written with those clauses
  {
    phase: 'statisticClauses',
    names: Object.keys(STATISTICS_AGGREGATES),
    macros: [INTERNAL_MACROS.statsAs],
    applies: (c) => !c.done.has(c.f),
    rewrite: (c) => {
      const wrapped = statisticWithClauses(c.name, c.f, (g) => c.done.add(g));
      if (!wrapped) return false;
      replaceNode(c.v.node, wrapped);
      return true;
    },
  },
  // …and with DISTINCT, FILTER or OVER, the call wrapped in a macro that gives it that type
  {
    phase: 'typedAggregateClauses',
    names: Object.keys(TYPED_AGGREGATES),
    macros: [INTERNAL_MACROS.sumAs, INTERNAL_MACROS.avgAs],
    applies: (c) => !c.done.has(c.f) && !c.f['agg_order'],
    rewrite: (c) => {
      c.done.add(c.f);
      const wrapped = typedAggregateWithClauses(c.name as 'sum' | 'avg', c.f);
      if (!wrapped) return false;
      replaceNode(c.v.node, wrapped);
      return true;
    },
  },
  {
    phase: 'round',
    names: ['round'],
    rewrite: (c) => {
      const rounded = roundedNumericCast(c.args as PgNode[]);
      if (!rounded) return false;
      replaceNode(c.v.node, rounded);
      return true;
    },
  },
  // mod(a, b) is a % b: 22012 on a zero divisor, as the operator (DuckDB's mod answers NULL)
  {
    phase: 'mod',
    names: ['mod'],
    macros: [INTERNAL_MACROS.typedModulo, INTERNAL_MACROS.modulo],
    applies: (c) => c.args.length === 2,
    rewrite: (c) => {
      replaceNode(c.v.node, modulo(c.args));
      return true;
    },
  },
  {
    phase: 'sign',
    names: ['sign'],
    macros: [INTERNAL_MACROS.sign],
    applies: (c) => c.args.length === 1 && c.typedSafe(c.args[0]),
    rewrite: (c) => {
      c.f['funcname'] = emulated(INTERNAL_MACROS.sign);
      return true;
    },
  },
  // ntile is integer in PostgreSQL (DuckDB: BIGINT); gcd and lcm of integers too
  {
    phase: 'ntile',
    names: ['ntile'],
    schemas: 'any',
    applies: (c) => Boolean(c.f['over']) && !c.done.has(c.f),
    rewrite: (c) => {
      c.done.add(c.f);
      replaceNode(c.v.node, pgInt4({ FuncCall: c.f }));
      return true;
    },
  },
  {
    phase: 'gcd',
    names: ['gcd', 'lcm'],
    macros: [INTERNAL_MACROS.gcd, INTERNAL_MACROS.lcm],
    rewrite: (c) => {
      const gcd = typedGcd(c.name as 'gcd' | 'lcm', c.args as PgNode[]);
      if (!gcd) return false;
      replaceNode(c.v.node, gcd);
      return true;
    },
  },
  // DuckDB's scalar generate_series returns one list; PostgreSQL returns rows (after `rename`)
  {
    phase: 'series',
    names: ['generate_series'],
    schemas: 'any',
    applies: (c) => !c.done.has(c.f),
    rewrite: (c) => {
      c.done.add(c.f);
      // …of integers, typed as PostgreSQL's
      const list = typedSeriesList(c.f) ?? { FuncCall: c.f };
      replaceNode(c.v.node, { FuncCall: { funcname: [strNode('unnest')], args: [list], funcformat: 'COERCE_EXPLICIT_CALL' } });
      return false;
    },
  },
];
