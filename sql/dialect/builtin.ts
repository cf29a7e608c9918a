/**
 * PostgreSQL built-ins analysts use that DuckDB spells differently, lacks or
 * types otherwise, as registry rules (sql/dialect/registry.ts): array concatenation and the array_*
 * functions, bytea's encode/decode, date_trunc and generate_series over
 * dates (timestamptz in PostgreSQL: a date is cast to it at midnight in the
 * session's time zone), to_hex of an int4, round(float8) (half to even), round and trunc
 * to n places (numeric only),
 * octet_length of text, overlay, width_bucket, and the operators |/ ||/ @ #.
 * Where the answer depends on an argument's type, a typed macro of the
 * emulation (sql/dialect/builtinMacros.ts) decides at bind time; such macros get
 * only arguments DuckDB can type on their own (sql/dialect/numeric.ts typedDispatchSafe).
 */
import { byteaInputToHex } from '../bytea.js';
import { regexpReplace } from '../regexpReplace.js';
import { asWritten, canonical, canonicalTagged, jsonbCall, jsonbCast, jsonbForm, tagged } from './json.js';
import { EMULATED_ARRAY_COLUMNS, INTERNAL_MACROS, emulated } from '../emulation.js';
import { ownTable } from '../ownNames.js';
import { SqlError, pos, undefinedFunction } from '../errors.js';
import type { OperatorRule, Rule } from './rule.js';
import { constText, containsSubquery, ENGINE_CALLS, intConst, names, replaceNode, strConst, strNode, walk, type Fields, type PgNode, type Visit } from '../walk.js';

/** Functions this module translates: none reaches DuckDB by its own name (DuckDB's encode/decode mean UTF-8). */
export const BUILTIN_FUNCTIONS: ReadonlySet<string> = new Set([
  'encode', 'decode', 'array_remove', 'overlay', 'width_bucket', 'num_nulls', 'num_nonnulls', 'json_extract_path',
  'json_extract_path_text', 'jsonb_extract_path', 'jsonb_extract_path_text', 'json_object_keys', 'regexp_like',
  'regexp_count', 'regexp_substr', 'array_replace', 'trim_array', 'sha256', 'date_bin', 'make_interval', 'string_to_table',
  'regexp_split_to_table', 'array_to_json',
]);

/** make_interval's parameters, in order (each defaults to 0). */
const MAKE_INTERVAL_PARAMS = ['years', 'months', 'weeks', 'days', 'hours', 'mins', 'secs'];

/** Operators this module turns into calls: authorization lets them through, none reaches DuckDB as written. */
export const BUILTIN_OPERATORS: ReadonlySet<string> = new Set(['|/', '||/', '@', '#', '&&', '<@', '^@']);

const call = (name: string | PgNode[], ...args: PgNode[]): PgNode => ({
  FuncCall: { funcname: typeof name === 'string' ? [strNode(name)] : name, ...(args.length ? { args } : {}), funcformat: 'COERCE_EXPLICIT_CALL' },
});
const cast = (arg: PgNode, type: string): PgNode => ({ TypeCast: { arg, typeName: { names: [strNode(type)], typemod: -1 } } });

const constOf = (n: unknown): Fields | undefined => (n as Fields | undefined)?.['A_Const'];
const isNullConst = (n: unknown): boolean => constOf(n)?.['isnull'] === true;

/** Calls whose result is an array whatever their arguments. */
const ARRAY_RESULTS: ReadonlySet<string> = new Set([
  'array_agg', 'string_to_array', 'regexp_split_to_array', 'array_append', 'array_prepend', 'array_cat', 'array_remove',
  'list_concat', 'list_append', 'list_prepend', 'lg_array_remove',
]);

/** An operand that is an array by its form: ARRAY[…], ARRAY(subquery), x::t[], an array function, array || …. */
export function arrayLike(n: unknown): boolean {
  const node = n as Fields | undefined;
  if (!node) return false;
  if (node['A_ArrayExpr']) return true;
  if (node['SubLink']) return node['SubLink']['subLinkType'] === 'ARRAY_SUBLINK';
  const tc = node['TypeCast'];
  if (tc) return Array.isArray(tc['typeName']?.['arrayBounds']) && tc['typeName']['arrayBounds'].length > 0;
  const fc = node['FuncCall'];
  if (fc) return ARRAY_RESULTS.has(names(fc['funcname']).pop() ?? '');
  const e = node['A_Expr'];
  if (e && String(e['kind']) === 'AEXPR_OP' && names(e['name']).pop() === '||') return arrayLike(e['lexpr']) || arrayLike(e['rexpr']);
  return false;
}

const catalogArrayColumn = (n: unknown): boolean => {
  const ref = (n as Fields | undefined)?.['ColumnRef'];
  return ref !== undefined && EMULATED_ARRAY_COLUMNS.has(names(ref['fields']).pop() ?? '');
};

const NUMERIC_CASTS: ReadonlySet<string> = new Set(['int2', 'smallint', 'int4', 'int', 'integer', 'int8', 'bigint', 'numeric', 'decimal', 'float4', 'real', 'float8']);

/**
 * The type PostgreSQL gives an untyped string literal next to `other` in
 * arithmetic (`'a' + 1` reads 'a' as an integer, and fails with 22P02): the
 * other side's type when it shows by its form, a number or a numeric cast.
 */
function literalTypeBeside(other: unknown): PgNode | undefined {
  const c = constOf(other);
  if (c?.['ival'] !== undefined) {
    const v = Number(c['ival']['ival'] ?? 0);
    return { names: [strNode(Math.abs(v) < 2 ** 31 ? 'int4' : 'int8')], typemod: -1 } as unknown as PgNode;
  }
  if (c?.['fval'] !== undefined) return { names: [strNode('numeric')], typemod: -1 } as unknown as PgNode;
  const tc = (other as Fields | undefined)?.['TypeCast'];
  const tn = tc?.['typeName'] as Fields | undefined;
  const n = names(tn?.['names']).pop() ?? '';
  // the type without its typmod: PostgreSQL reads the literal as plain numeric (no rounding to the other's scale)
  if (tn && !tn['arrayBounds'] && NUMERIC_CASTS.has(n)) return { names: structuredClone(tn['names']), typemod: -1 } as unknown as PgNode;
  return undefined;
}

/**
 * jsonb's equality form (sql/dialect/jsonMacros.ts lg_jsonb_eq): jsonb's text with numbers by value. A jsonb built
 * here is in jsonb's text already; a literal is read as jsonb; anything else is put in jsonb's text first.
 */
const canon = (n: unknown): PgNode =>
  jsonbCall('lg_jsonb_eq', jsonbForm(n) ? (n as PgNode) : constText(n) !== undefined ? jsonbCast(n as PgNode) : canonical(n as PgNode));

/**
 * jsonb = jsonb, <>, IS [NOT] DISTINCT FROM and [NOT] IN compare JSON values,
 * not texts: `'[1, 2]'::jsonb = '[1,2]'::jsonb` (DuckDB's JSON compares the
 * text as written). Both sides become canonical forms where one is jsonb by
 * its form; an untyped literal beside one is read as jsonb, as PostgreSQL does.
 */
function jsonbEquality(f: Fields, op: string): boolean {
  const kind = String(f['kind']);
  const l = f['lexpr'];
  if (!l) return false;
  if ((kind === 'AEXPR_OP' && (op === '=' || op === '<>' || op === '!=')) || kind === 'AEXPR_DISTINCT' || kind === 'AEXPR_NOT_DISTINCT') {
    if (!jsonbForm(l) && !jsonbForm(f['rexpr'])) return false;
    f['lexpr'] = canon(l);
    f['rexpr'] = canon(f['rexpr']);
    return true;
  }
  const items = (f['rexpr'] as Fields | undefined)?.['List']?.['items'] as unknown[] | undefined;
  if (kind === 'AEXPR_IN' && items) {
    if (!jsonbForm(l) && !items.some(jsonbForm)) return false;
    f['lexpr'] = canon(l);
    f['rexpr'] = { List: { items: items.map(canon) } };
    return true;
  }
  return false;
}

const noOperator = (op: string, location: unknown) => new SqlError('42883', `operator does not exist: ${op}`, pos(location));

/** DuckDB's own calls this module makes under a PostgreSQL name it translates (sha256): left as they are. */
const own = new WeakSet<object>();

/** `||` nodes already given their text type (the walk visits a replaced node's operand again). */
const typedText = new WeakSet<object>();

/** An operator expression of the form `l op r` (or `op r`) as its rewrite sees it. */
interface OperatorExpr {
  v: Visit;
  f: Fields;
  op: string;
  l: PgNode | undefined;
  r: PgNode;
}

/** x::regtype of a value that is no constant (a column's OID), not an array. */
function regtypeOfValue(x: unknown): boolean {
  const tc = (x as PgNode | undefined)?.['TypeCast'];
  const tn = names(tc?.['typeName']?.['names']);
  return !!tc && tn[tn.length - 1] === 'regtype' && !tc['typeName']['arrayBounds'] && constText(tc['arg']) === undefined;
}

const operator = (names: readonly string[], macros: readonly string[], rewrite: (o: OperatorExpr) => boolean): OperatorRule => ({
  phase: 'builtin',
  names,
  macros,
  applies: (o) => String(o.f['kind']) === 'AEXPR_OP',
  rewrite: (o) => rewrite({ v: o.v, f: o.f, op: o.op, l: o.f['lexpr'] as PgNode | undefined, r: o.f['rexpr'] as PgNode }),
});

/**
 * The operators this module rewrites (sql/dialect/registry.ts), each with the macros it calls: `||` on arrays
 * (list_concat / list_append / list_prepend), `||` with a NULL literal (text, as PostgreSQL types
 * `'abc' || null`), the prefix math operators |/ (sqrt), ||/ (cbrt), @ (abs), integer xor #, and an untyped
 * string literal in arithmetic with a number.
 */
export const BUILTIN_OPERATOR_RULES: readonly OperatorRule[] = [
  // jsonb's equality forms compare jsonb's canonical text (before the json operators: @> of two arrays is array containment)
  { phase: 'jsonbEquality', names: ['=', '<>', '!='], macros: ['lg_jsonb'], rewrite: (o) => jsonbEquality(o.f, o.op) },
  // regtype = regtype compares the types' OIDs (pgcli: `p.prorettype::regtype != 'trigger'::regtype`); a regtype cast
  // of a column is its name as text elsewhere (sql/regTypes.ts), so here it stays the OID. (An untyped literal beside
  // it is an oid in PostgreSQL, which has no regtype = operator: `'void'` is 22P02 there, not a type name.)
  operator(['=', '<>', '!='], [], ({ f, l, r }) => {
    if (!l || !(regtypeOfValue(l) || regtypeOfValue(r))) return false;
    for (const side of ['lexpr', 'rexpr'] as const) if (regtypeOfValue(f[side])) f[side] = (f[side] as PgNode)['TypeCast']!['arg'];
    return false;
  }),
  operator(['||'], ['lg_jsonb_concat'], ({ v, f, l, r }) => {
    if (!l) return false;
    // jsonb || jsonb merges two objects' keys, else concatenates as arrays (DuckDB would join the texts).
    // An untyped literal beside a jsonb is read as jsonb; a text column beside one is text || text in PostgreSQL too.
    const jsonbSide = (x: unknown, other: unknown) => jsonbForm(x) && (jsonbForm(other) || constText(other) !== undefined);
    if (jsonbSide(l, r) || jsonbSide(r, l)) {
      replaceNode(v.node, canonicalTagged(call(emulated('lg_jsonb_concat'), tagged(l), tagged(r))));
      return true;
    }
    // beside an array, a catalog array column is one too (psql's `c.reloptions || array(…)` joins two lists)
    const la = arrayLike(l) || (arrayLike(r) && catalogArrayColumn(l));
    const ra = arrayLike(r) || (la && catalogArrayColumn(r));
    if (la || ra) {
      const fn = (la && ra) || isNullConst(l) || isNullConst(r) ? 'list_concat' : la ? 'list_append' : 'list_prepend';
      replaceNode(v.node, call(fn, l, r));
      return true;
    }
    // DuckDB types text || NULL as an integer: the whole is text, as in PostgreSQL
    if ((isNullConst(l) || isNullConst(r)) && !typedText.has(f)) {
      typedText.add(f);
      replaceNode(v.node, cast({ A_Expr: f }, 'text'));
      return true;
    }
    return false;
  }),
  operator(['@>'], ['lg_array_contains'], ({ v, l, r }) => {
    // array containment and overlap (an element NULL never matches, as in PostgreSQL); @> of jsonb is sql/dialect/json.ts's
    if (!l || !(arrayLike(l) || arrayLike(r))) return false;
    replaceNode(v.node, call(emulated('lg_array_contains'), l, r));
    return true;
  }),
  operator(['<@'], ['lg_array_contains', 'lg_json_contains'], ({ v, f, op, l, r }) => {
    if (!l) throw noOperator(op, f['location']);
    replaceNode(v.node, jsonbForm(l) || jsonbForm(r) ? call(emulated('lg_json_contains'), asWritten(r), asWritten(l)) : call(emulated('lg_array_contains'), r, l));
    return true;
  }),
  operator(['-'], ['lg_jsonb_del_index', 'lg_jsonb_del_keys'], ({ v, l, r }) => {
    // jsonb - key, jsonb - index, jsonb - keys (text[])
    if (!l || !jsonbForm(l)) return false;
    if (constOf(r)?.['ival'] !== undefined) replaceNode(v.node, canonicalTagged(call(emulated('lg_jsonb_del_index'), tagged(l), r)));
    else replaceNode(v.node, canonicalTagged(call(emulated('lg_jsonb_del_keys'), tagged(l), arrayLike(r) ? r : { A_ArrayExpr: { elements: [r] } })));
    return true;
  }),
  operator(['^@'], [], ({ v, f, op, l, r }) => {
    if (!l) throw noOperator(op, f['location']);
    replaceNode(v.node, call('starts_with', l, r));
    return true;
  }),
  operator(['&&'], [], ({ v, f, op, l, r }) => {
    if (!l) throw noOperator(op, f['location']);
    replaceNode(v.node, call('list_has_any', l, r));
    return true;
  }),
  operator(['|/'], [], ({ v, f, op, l, r }) => {
    // the other forms of these names are not PostgreSQL's (for these types): never passed on to DuckDB
    if (l) throw noOperator(op, f['location']);
    replaceNode(v.node, call('sqrt', cast(r, 'float8')));
    return true;
  }),
  operator(['||/'], [], ({ v, f, op, l, r }) => {
    if (l) throw noOperator(op, f['location']);
    replaceNode(v.node, call('cbrt', cast(r, 'float8')));
    return true;
  }),
  operator(['@'], [], ({ v, f, op, l, r }) => {
    if (l) throw noOperator(op, f['location']);
    replaceNode(v.node, call('abs', r));
    return true;
  }),
  operator(['#'], [], ({ v, f, op, l, r }) => {
    if (!l) throw noOperator(op, f['location']);
    replaceNode(v.node, call('xor', l, r));
    return true;
  }),
  operator(['+', '*', '/', '%'], [], ({ f, l, r }) => {
    if (!l) return false;
    for (const [side, other] of [['lexpr', r], ['rexpr', l]] as const) {
      if (constText(f[side]) === undefined) continue;
      const type = literalTypeBeside(other);
      if (type) f[side] = { TypeCast: { arg: f[side], typeName: type } };
    }
    return false;
  }),
];

const FLOAT_TYPES: ReadonlySet<string> = new Set(['float4', 'float8', 'real']);

/**
 * Where lakegate computes in double precision what PostgreSQL types numeric
 * (a `::numeric` of a double or of text, numeric sqrt / exp / ln / log /
 * power / ^, stddev and variance with DISTINCT or OVER: README): a float
 * there is not the user's, so round(…, n) of it must not fail.
 */
const NUMERIC_AS_DOUBLE_CALLS: ReadonlySet<string> = new Set([
  'sqrt', 'cbrt', 'exp', 'ln', 'log', 'log10', 'power', 'pow', 'to_number',
  'stddev', 'stddev_samp', 'stddev_pop', 'variance', 'var_samp', 'var_pop',
]);
const NUMERIC_AS_DOUBLE_OPERATORS: ReadonlySet<string> = new Set(['^', '|/', '||/']);

function mayBeNumericAsDouble(expr: unknown): boolean {
  let found = false;
  walk(expr, (v) => {
    if (found) return false;
    if (v.kind === 'TypeCast') {
      const t = names((v.fields['typeName'] as Fields | undefined)?.['names']).pop();
      if (t === 'numeric' || t === 'decimal') found = true;
    } else if (v.kind === 'FuncCall') {
      if (NUMERIC_AS_DOUBLE_CALLS.has(names(v.fields['funcname']).pop() ?? '')) found = true;
    } else if (v.kind === 'A_Expr') {
      if (NUMERIC_AS_DOUBLE_OPERATORS.has(names(v.fields['name']).pop() ?? '')) found = true;
    }
    return found ? false : undefined;
  });
  return found;
}

/**
 * round(x, n) and trunc(x, n) exist for numeric only in PostgreSQL: of a
 * double precision or real they are 42883. A float cast fails here with
 * PostgreSQL's words; anything else goes through a macro with one typed
 * overload (sql/dialect/builtinMacros.ts lg_round_n), which the probe of an
 * integer or numeric passes and a float's fails while binding, rows or not
 * (server/errors.ts names the function). Without a probe (a parameter, a
 * subquery) the call stays DuckDB's.
 */
function roundTo(v: Visit, name: string, a: PgNode[], typedSafe: (n: unknown) => boolean, probeOf: (n: unknown) => PgNode | undefined): boolean {
  const tn = (a[0] as Fields | undefined)?.['TypeCast']?.['typeName'] as Fields | undefined;
  const castTo = tn && !tn['arrayBounds'] ? names(tn['names']).pop() : undefined;
  if (castTo !== undefined && FLOAT_TYPES.has(castTo)) throw undefinedFunction(name, v.fields['location'], a);
  // an untyped literal or NULL is numeric in PostgreSQL; DuckDB's round takes it as it is
  if (mayBeNumericAsDouble(a[0]) || (a[0] as Fields | undefined)?.['A_Const']) return false;
  const probe = typedSafe(a[0]) ? structuredClone(a[0]!) : probeOf(a[0]);
  if (!probe) return false;
  replaceNode(v.node, call(emulated(name === 'round' ? 'lg_round_n' : 'lg_trunc_n'), a[0]!, a[1]!, probe));
  return true;
}

/**
 * substr / substring(s, start [, length]): a start before the first character
 * counts from 1 and shortens the length by as much in PostgreSQL
 * (substr('hello', -1, 3) is 'h'); DuckDB counts a negative start from the
 * end. Rewritten in place for a constant start below 1 (and a constant
 * length); a start given as text is substring's regular expression form.
 */
function substrStart(a: PgNode[]): void {
  const int = (n: unknown): number | undefined => {
    const c = constOf(n);
    return c?.['ival'] === undefined ? undefined : Number(c['ival']['ival'] ?? 0);
  };
  const start = int(a[1]);
  if (start === undefined || start > 0 || a.length < 2 || a.length > 3) return;
  if (a.length === 2) {
    a[1] = intConst(1);
    return;
  }
  const len = int(a[2]);
  if (len === undefined || len < 0) return;
  a[1] = intConst(1);
  a[2] = intConst(Math.max(start + len - 1, 0));
}

function isByteaCast(n: unknown): boolean {
  const t = (n as Fields | undefined)?.['TypeCast'];
  const parts = t ? names(t['typeName']?.['names']) : [];
  return parts[parts.length - 1] === 'bytea' && !t?.['typeName']?.['arrayBounds'];
}

const SIZE_GUARDED: Readonly<Record<string, string>> = ownTable({
  repeat: INTERNAL_MACROS.repeat,
  lpad: INTERNAL_MACROS.lpad,
  rpad: INTERNAL_MACROS.rpad,
});

/** The rewrites of built-ins that stand before and after the others in PHASES (sql/dialect/rule.ts). */
const ORDERED_RULES: readonly Rule[] = [
  // array_agg / string_agg (DISTINCT x): PostgreSQL sorts to find the distinct values, so they come in x's order (DuckDB: any)
  {
    phase: 'distinctOrder',
    names: ['array_agg', 'string_agg'],
    at: 'anywhere',
    schemas: 'any',
    applies: (c) => Boolean(c.f['agg_distinct']) && !c.f['agg_order'] && c.args.length > 0 && !containsSubquery(c.args[0]),
    rewrite: (c) => {
      c.f['agg_order'] = [{ SortBy: { node: structuredClone(c.args[0]), sortby_dir: 'SORTBY_DEFAULT', sortby_nulls: 'SORTBY_NULLS_DEFAULT' } }];
      return false;
    },
  },
  // min / max of a boolean: no such function in PostgreSQL (42883; bool_and / bool_or are its aggregates). The
  // argument goes through a macro with a probe of itself: the probe's BOOLEAN overload binds a macro no boolean fits,
  // an error while binding, rows or not; any other overload is the value itself, nothing at run time
  // (sql/dialect/builtinMacros.ts lg_min_nb). Without a typed probe (a subquery, a parameter) the call stays as it is
  {
    phase: 'boolMinMax',
    names: ['min', 'max'],
    macros: ['lg_min_nb', 'lg_max_nb'],
    applies: (c) => c.args.length === 1 && !c.f['agg_star'] && !c.done.has(c.f) && c.typedSafe(c.args[0]),
    rewrite: (c) => {
      c.done.add(c.f);
      c.f['args'] = [{ FuncCall: { funcname: emulated(c.name === 'min' ? 'lg_min_nb' : 'lg_max_nb'), args: [c.args[0], structuredClone(c.args[0])], funcformat: 'COERCE_EXPLICIT_CALL' } }];
      return false;
    },
  },
  // PostgreSQL refuses to build a string over 1 GB; DuckDB would try (sql/emulation.ts INTERNAL_MACROS).
  ...Object.entries(SIZE_GUARDED).map(([name, macro]): Rule => ({
    phase: 'sizeGuard',
    names: [name],
    macros: [macro],
    rewrite: (c) => {
      c.f['funcname'] = emulated(macro);
      return true;
    },
  })),
  // length(bytea) counts bytes; DuckDB's length has no BLOB form. Recognisable only on a bytea cast or literal.
  {
    phase: 'byteaLength',
    names: ['length'],
    at: 'anywhere',
    schemas: 'any',
    applies: (c) => c.args.length === 1 && isByteaCast(c.args[0]),
    rewrite: (c) => {
      c.f['funcname'] = [strNode('octet_length')];
      return true;
    },
  },
];

/** A built-in's call as its rewrite sees it: the arguments, the session's zone, the planner's typing probes (sql/dialect/numeric.ts). */
interface BuiltinCall {
  v: Visit;
  f: Fields;
  name: string;
  a: PgNode[];
  location: unknown;
  tz: () => PgNode;
  typedSafe: (n: unknown) => boolean;
  probeOf: (n: unknown) => PgNode | undefined;
}

const builtin = (names: readonly string[], macros: readonly string[], rewrite: (b: BuiltinCall) => boolean): Rule => ({
  phase: 'builtin',
  at: 'anywhere',
  names,
  macros,
  rewrite: (c) =>
    rewrite({
      v: c.v,
      f: c.f,
      name: c.name,
      a: c.args as PgNode[],
      location: c.f['location'],
      tz: () => strConst(c.ctx.settings('timezone') ?? 'UTC'),
      typedSafe: c.typedSafe,
      probeOf: c.probeOf,
    }),
});

/** The built-ins this module rewrites (sql/dialect/registry.ts), each with the macros it calls. */
export const BUILTIN_RULES: readonly Rule[] = [
  ...ORDERED_RULES,
  builtin(['sum', 'avg'], [], ({ name, a, location }) => {
    // sum/avg of an untyped literal: PostgreSQL cannot choose among its numeric overloads
    if (a.length === 1 && constText(a[0]) !== undefined) {
      throw new SqlError('42725', `function ${name}(unknown) is not unique`, pos(location), {
        hint: 'Could not choose a best candidate function. You might need to add explicit type casts.',
      });
    }
    return false;
  }),
  builtin(['array_remove'], ['lg_array_remove'], ({ v, name, a, location }) => {
    if (a.length !== 2) throw undefinedFunction(name, location, a);
    replaceNode(v.node, call(emulated('lg_array_remove'), a[0]!, a[1]!));
    return true;
  }),
  builtin(['array_to_string'], ['lg_array_to_string'], ({ v, a }) => {
    // the third argument stands for NULL elements (otherwise skipped)
    if (a.length !== 3) return false;
    replaceNode(v.node, call(emulated('lg_array_to_string'), a[0]!, a[1]!, a[2]!));
    return true;
  }),
  builtin(['encode', 'decode'], ['lg_base64', 'lg_escape'], ({ v, name, a, location }) => {
    replaceNode(v.node, byteaCodec(name as 'encode' | 'decode', a, location));
    return true;
  }),
  builtin(['overlay'], ['lg_overlay'], ({ v, name, a, location }) => {
    // overlay(s placing r from p [for n]): n defaults to the length of r
    if (a.length !== 3 && a.length !== 4) throw undefinedFunction(name, location, a);
    replaceNode(v.node, call(emulated('lg_overlay'), ...a));
    return true;
  }),
  builtin(['substring'], ['lg_regexp_substr'], ({ v, a }) => {
    // substring(s from 'pattern'): the text the regular expression matches (its first group, if it has one), or NULL
    const pattern = a.length === 2 ? constText(a[1]) : undefined;
    if (pattern === undefined) {
      substrStart(a);
      return false;
    }
    const group = /(^|[^\\])\((?!\?)/.test(pattern) ? 1 : 0;
    replaceNode(v.node, call(emulated('lg_regexp_substr'), a[0]!, a[1]!, intConst(group)));
    return true;
  }),
  builtin(['regexp_substr'], ['lg_regexp_substr'], ({ v, name, a, location }) => {
    if (a.length !== 2) throw undefinedFunction(name, location, a);
    replaceNode(v.node, call(emulated('lg_regexp_substr'), a[0]!, a[1]!, intConst(0)));
    return true;
  }),
  builtin(['regexp_count'], [], ({ v, name, a, location }) => {
    if (a.length !== 2) throw undefinedFunction(name, location, a);
    replaceNode(v.node, cast(call('len', call('regexp_extract_all', a[0]!, a[1]!)), 'int4'));
    return true;
  }),
  builtin(['regexp_like'], [], ({ v, name, a, location }) => {
    // DuckDB's boolean regexp_matches (not PostgreSQL's set-returning one, sql/dialect/format.ts)
    if (a.length !== 2 && a.length !== 3) throw undefinedFunction(name, location, a);
    const node = call('regexp_matches', ...a);
    ENGINE_CALLS.add(node['FuncCall']!);
    replaceNode(v.node, node);
    return true;
  }),
  builtin(['make_interval'], ['lg_make_interval'], ({ v, name, a, location }) => {
    // positional arguments first, then named ones, as PostgreSQL binds them
    const values: PgNode[] = MAKE_INTERVAL_PARAMS.map(() => intConst(0));
    const given = new Set<number>();
    let named = false;
    a.forEach((x, i) => {
      const n = (x as Fields)['NamedArgExpr'];
      if (!n && named) throw new SqlError('42601', 'positional argument cannot follow named argument', pos(location));
      named ||= Boolean(n);
      const at = n ? MAKE_INTERVAL_PARAMS.indexOf(String(n['name'])) : i;
      if (n && given.has(at) && at >= 0) throw new SqlError('42601', `argument name "${n['name']}" used more than once`, pos(n['location']));
      if (at < 0 || at >= MAKE_INTERVAL_PARAMS.length || given.has(at)) throw undefinedFunction(name, location);
      given.add(at);
      values[at] = (n ? n['arg'] : x) as PgNode;
    });
    replaceNode(v.node, call(emulated('lg_make_interval'), ...values));
    return true;
  }),
  builtin(['string_to_table', 'regexp_split_to_table'], [], ({ v, name, a, location }) => {
    // a set of text in the select list (in FROM they are not table functions here)
    if (a.length !== 2) throw undefinedFunction(name, location, a);
    replaceNode(v.node, call('unnest', call(name === 'string_to_table' ? 'string_to_array' : 'regexp_split_to_array', a[0]!, a[1]!)));
    return true;
  }),
  builtin(['array_to_json'], [], ({ v, name, a, location }) => {
    if (a.length !== 1) throw undefinedFunction(name, location, a);
    replaceNode(v.node, call('to_json', a[0]!));
    return true;
  }),
  builtin(['array_length'], ['lg_array_length'], ({ v, f, a }) => {
    // an empty array has no dimensions: NULL, where DuckDB says 0
    if (a.length !== 2 || own.has(f)) return false;
    replaceNode(v.node, call(emulated('lg_array_length'), a[0]!, a[1]!));
    return true;
  }),
  builtin(['concat', 'concat_ws'], ['lg_text_arg'], ({ f, a, typedSafe }) => {
    // a boolean is t or f as text (DuckDB: true / false); other arguments as they are
    f['args'] = a.map((x) => (typedSafe(x) && (!constOf(x) || constOf(x)?.['boolval'] !== undefined) ? call(emulated('lg_text_arg'), x) : x));
    return false;
  }),
  builtin(['date_bin'], [], ({ v, name, a, location }) => {
    // DuckDB's time_bucket bins from an origin as date_bin does (toward the past)
    if (a.length !== 3) throw undefinedFunction(name, location, a);
    replaceNode(v.node, call('time_bucket', cast(a[0]!, 'interval'), a[1]!, a[2]!));
    return true;
  }),
  builtin(['array_replace'], ['lg_array_replace'], ({ v, name, a, location }) => {
    if (a.length !== 3) throw undefinedFunction(name, location, a);
    replaceNode(v.node, call(emulated('lg_array_replace'), ...a));
    return true;
  }),
  builtin(['trim_array'], ['lg_trim_array'], ({ v, name, a, location }) => {
    if (a.length !== 2) throw undefinedFunction(name, location, a);
    replaceNode(v.node, call(emulated('lg_trim_array'), ...a));
    return true;
  }),
  builtin(['sha256'], [], ({ v, f, name, a, location }) => {
    // bytea in PostgreSQL, hex text in DuckDB
    if (a.length !== 1) throw undefinedFunction(name, location, a);
    if (own.has(f)) return false;
    const hash = call('sha256', a[0]!);
    own.add(hash['FuncCall']!);
    replaceNode(v.node, call('unhex', hash));
    return true;
  }),
  builtin(['width_bucket'], ['lg_width_bucket', 'lg_width_bucket_f'], ({ v, name, a, location, typedSafe }) => {
    if (a.length !== 4) throw undefinedFunction(name, location, a);
    const exact = a.slice(0, 3).every(typedSafe);
    replaceNode(v.node, call(emulated(exact ? 'lg_width_bucket' : 'lg_width_bucket_f'), ...a));
    return true;
  }),
  builtin(['num_nulls', 'num_nonnulls'], [], ({ v, name, a, location }) => {
    if (a.length === 0) throw undefinedFunction(name, location, a);
    const test = name === 'num_nulls' ? 'IS_NULL' : 'IS_NOT_NULL';
    const counts = a.map((x) => cast({ NullTest: { arg: x, nulltesttype: test } }, 'int4'));
    replaceNode(v.node, cast(counts.reduce((l, r) => ({ A_Expr: { kind: 'AEXPR_OP', name: [strNode('+')], lexpr: l, rexpr: r } })), 'int4'));
    return true;
  }),
  builtin(['json_extract_path', 'jsonb_extract_path', 'json_extract_path_text', 'jsonb_extract_path_text'], [], ({ v, name, a, location }) => {
    // the path operators with the keys as their path (sql/dialect/json.ts: constant keys only)
    if (a.length < 2) throw undefinedFunction(name, location, a);
    const op = name.endsWith('_text') ? '#>>' : '#>';
    // jsonb_extract_path's first argument is a jsonb (an untyped literal is read as one)
    const target = name.startsWith('jsonb') && constText(a[0]) !== undefined ? cast(a[0]!, 'jsonb') : a[0];
    replaceNode(v.node, { A_Expr: { kind: 'AEXPR_OP', name: [strNode(op)], lexpr: target, rexpr: { A_ArrayExpr: { elements: a.slice(1) } }, location } });
    return true;
  }),
  builtin(['json_object_keys'], [], ({ v, name, a, location }) => {
    // a set of the keys, in the order written (json keeps its text)
    if (a.length !== 1) throw undefinedFunction(name, location, a);
    replaceNode(v.node, call('unnest', call('json_keys', cast(a[0]!, 'json'))));
    return true;
  }),
  builtin(['to_hex'], ['lg_to_hex', 'lg_to_hex8'], ({ v, a, typedSafe }) => {
    // to_hex(int4) shows 32 bits, in lower case (DuckDB: 64 bits, upper case)
    if (a.length !== 1) return false;
    replaceNode(v.node, call(emulated(typedSafe(a[0]) ? 'lg_to_hex' : 'lg_to_hex8'), a[0]!));
    return true;
  }),
  builtin(['trunc', 'round'], ['lg_round', 'lg_round_n', 'lg_trunc_n'], ({ v, name, a, typedSafe, probeOf }) => {
    if (a.length === 2) return roundTo(v, name, a, typedSafe, probeOf);
    if (name === 'trunc' || a.length !== 1) return false;
    // round(float8) rounds half to even (rint); round(numeric) half away from zero
    // (an aggregate or window function has no type yet: its probe decides, sql/dialect/numeric.ts; round(avg(float)))
    {
      const probe = typedSafe(a[0]) ? structuredClone(a[0]! as PgNode) : probeOf(a[0]);
      if (!probe) return false;
      replaceNode(v.node, call(emulated('lg_round'), a[0]!, probe));
    }
    return true;
  }),
  builtin(['regexp_replace'], ['lg_re_all', 'lg_regexp_replace_nth'], ({ v, a, location }) => {
    return regexpReplace(v, a, location);
  }),
  builtin(['substr'], [], ({ a }) => {
    substrStart(a);
    return false;
  }),
  builtin(['percentile_cont'], ['lg_percentile_arg'], ({ f, typedSafe }) => {
    // percentile_cont(float8) and (interval) only: an integer or numeric ordering is interpolated as a double
    const sorts = (f['agg_order'] ?? []) as Fields[];
    const by = sorts.length === 1 ? (sorts[0]!['SortBy'] as Fields | undefined) : undefined;
    if (!f['agg_within_group'] || !by || !typedSafe(by['node'])) return false;
    by['node'] = call(emulated('lg_percentile_arg'), by['node'] as PgNode);
    return true;
  }),
  builtin(['octet_length'], ['lg_octet_length'], ({ v, a, typedSafe }) => {
    // DuckDB's octet_length takes bytes (and bits) only; text counts its UTF-8 bytes
    if (a.length !== 1 || !typedSafe(a[0])) return false;
    replaceNode(v.node, call(emulated('lg_octet_length'), a[0]!));
    return true;
  }),
  builtin(['date_trunc'], ['lg_date_trunc', 'lg_date_trunc_tz'], ({ v, a, location, tz, typedSafe, probeOf }) => {
    // date_trunc(field, timestamptz, zone): truncated in that zone
    if (a.length === 3) {
      replaceNode(v.node, call(emulated('lg_date_trunc_tz'), ...a));
      return true;
    }
    // date_trunc(text, date) is date_trunc(text, timestamptz) in PostgreSQL (of an aggregate or window value
    // its probe tells: date_trunc('month', min(o_orderdate)))
    if (a.length !== 2) return false;
    {
      const probe = typedSafe(a[1]) ? structuredClone(a[1]!) : probeOf(a[1]);
      if (!probe) return false;
      // PostgreSQL's centuries and millennia begin in a year ending in 1 (2001), DuckDB's in 0 (2000):
      // truncated a year earlier, then moved a year on
      const unit = constText(a[0])?.toLowerCase();
      if (unit === 'century' || unit === 'millennium') {
        const year = (): PgNode => cast(strConst('1 year'), 'interval');
        const earlier: PgNode = { A_Expr: { kind: 'AEXPR_OP', name: [strNode('-')], lexpr: a[1], rexpr: year(), location } };
        const truncated = call(emulated('lg_date_trunc'), a[0]!, earlier, tz(), probe);
        replaceNode(v.node, { A_Expr: { kind: 'AEXPR_OP', name: [strNode('+')], lexpr: truncated, rexpr: year(), location } });
        return true;
      }
      replaceNode(v.node, call(emulated('lg_date_trunc'), a[0]!, a[1]!, tz(), probe));
    }
    return true;
  }),
  builtin(['generate_series'], ['lg_date_tz'], ({ f, a, tz, typedSafe }) => {
    // generate_series(date, date, interval) is the timestamptz one in PostgreSQL
    if (a.length !== 3 || !typedSafe(a[0]) || !typedSafe(a[1])) return false;
    f['args'] = [0, 1].map((i) => call(emulated('lg_date_tz'), a[i]!, tz(), structuredClone(a[i]!))).concat(a[2]!);
    return false;
  }),
];

/** encode(bytea, format) / decode(text, format) for a constant format, as PostgreSQL writes and reads them. */
function byteaCodec(name: 'encode' | 'decode', a: PgNode[], location: unknown): PgNode {
  if (a.length !== 2) throw undefinedFunction(name, location, a);
  const format = constText(a[1])?.toLowerCase();
  if (format === undefined) throw new SqlError('0A000', `${name}() needs a constant format`, pos(location));
  const x = a[0]!;
  if (name === 'encode') {
    if (format === 'hex') return call('lower', call('hex', x));
    if (format === 'base64') return call(emulated('lg_base64'), x);
    if (format === 'escape') return call(emulated('lg_escape'), x);
  } else {
    if (format === 'hex') return call('unhex', x);
    if (format === 'base64') return call('from_base64', call('regexp_replace', x, strConst('\\s'), strConst(''), strConst('g')));
    if (format === 'escape') {
      const text = constText(x);
      if (text === undefined) throw new SqlError('0A000', "decode(…, 'escape') needs a constant string", pos(location));
      if (text.startsWith('\\x')) throw new SqlError('22P02', 'invalid input syntax for type bytea', pos(location));
      return call('unhex', strConst(byteaInputToHex(text, pos(location))));
    }
  }
  throw new SqlError('22023', `unrecognized encoding: "${constText(a[1])}"`, pos(location));
}

/**
 * PostgreSQL refuses one name for two FROM items of the same level (42712,
 * `from t a, u a`), where DuckDB answers as long as no column is qualified
 * with it. Two different tables named alike without aliases (s1.t, s2.t) are
 * allowed, as in PostgreSQL's checkNameSpaceConflicts.
 */
export function checkFromNames(select: Fields): void {
  const seen = new Map<string, string | null>();
  const add = (name: string, table: string | null, location: unknown) => {
    if (seen.has(name)) {
      const other = seen.get(name);
      if (!(table !== null && other !== null && other !== undefined && table !== other)) {
        throw new SqlError('42712', `table name "${name}" specified more than once`, pos(location));
      }
    }
    seen.set(name, table);
  };
  const visit = (item: unknown): void => {
    const n = item as Fields | undefined;
    if (!n) return;
    const rv = n['RangeVar'];
    if (rv) {
      const alias = rv['alias']?.['aliasname'];
      const table = [rv['catalogname'], rv['schemaname'], rv['relname']].filter(Boolean).join('.');
      add(String(alias ?? rv['relname']), alias ? null : table, rv['location']);
      return;
    }
    const join = n['JoinExpr'];
    if (join) {
      if (join['alias']) add(String(join['alias']['aliasname']), null, undefined);
      else {
        visit(join['larg']);
        visit(join['rarg']);
      }
      return;
    }
    const alias = (n['RangeSubselect'] ?? n['RangeFunction'])?.['alias']?.['aliasname'];
    if (alias !== undefined) add(String(alias), null, undefined);
  };
  for (const item of (select['fromClause'] ?? []) as unknown[]) visit(item);
}

/** B'101' and X'1F' are bit strings in PostgreSQL; DuckDB reads b'…' / x'…' as text. */
export function transformBitString(v: Visit): void {
  const text = v.fields['bsval']?.['bsval'];
  if (typeof text !== 'string') return;
  const bits = text.startsWith('x')
    ? [...text.slice(1)].map((h) => parseInt(h, 16).toString(2).padStart(4, '0')).join('')
    : text.slice(1);
  if (!/^[01]*$/.test(bits)) throw new SqlError('22P02', `"${text.slice(1)}" is not a valid binary digit`, pos(v.fields['location']));
  replaceNode(v.node, call('bitstring', strConst(bits), intConst(bits.length)));
}
