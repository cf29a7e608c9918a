/**
 * PostgreSQL's json/jsonb operators and functions in DuckDB's terms (its json
 * extension), as registry rules (sql/dialect/registry.ts). Paths are built here from constants; an
 * operator with a path known only at run time is refused (DuckDB would read a
 * key such as '$.x' as a path). Built JSON text follows PostgreSQL's spacing:
 * json_build_object `{"a" : 1}`, json_agg `[1, 2]`. A jsonb holds jsonb_out's
 * text inside DuckDB: a literal is put in that form here (sql/jsonbText.ts), any
 * other jsonb value where it is made (sql/dialect/jsonMacros.ts lg_jsonb). jsonb's `#-`,
 * jsonb_set and jsonb_insert take a constant path too, composed here level by
 * level over sql/dialect/jsonMacros.ts's one-level macros.
 */
import { parseArrayLiteral } from '../arrayLiteral.js';
import { jsonbText } from '../jsonbText.js';
import { EMULATION_DB, emulated } from '../emulation.js';
export { JSON_TABLE_FUNCTIONS } from '../emulation.js';
import { SqlError, pos, undefinedFunction } from '../errors.js';
import { boolConst, constText, intConst, names, replaceNode, strConst, strNode, walk, type Fields, type PgNode, type Visit } from '../walk.js';
import { ownTable } from '../ownNames.js';
import type { OperatorRule, Rule } from './rule.js';

const JSONB_RESULTS: ReadonlySet<string> = new Set([
  'to_jsonb', 'jsonb_build_object', 'jsonb_build_array', 'jsonb_agg', 'jsonb_object_agg', 'jsonb_set', 'jsonb_insert', 'jsonb_extract_path', 'jsonb_strip_nulls',
]);

/** An operand that is jsonb by its form: x::jsonb, a jsonb-building function, jsonb || …, jsonb -> … (or lg_jsonb's result). */
export function jsonbForm(n: unknown): boolean {
  const node = n as Fields | undefined;
  const tc = node?.['TypeCast'];
  if (tc) return !tc['typeName']?.['arrayBounds'] && names(tc['typeName']?.['names']).pop() === 'jsonb';
  const fc = node?.['FuncCall'];
  if (fc) {
    const fn = names(fc['funcname']);
    return JSONB_RESULTS.has(fn[fn.length - 1] ?? '') || (fn.length === 3 && fn[0] === EMULATION_DB && ['lg_jsonb', 'lg_jsonb_p', 'lg_jsonb_get', 'lg_jsonb_get_p', 'lg_jsonb_of_tagged'].includes(fn[2]!));
  }
  const e = node?.['A_Expr'];
  if (e && String(e['kind']) === 'AEXPR_OP' && names(e['name']).pop() === '||') return jsonbForm(e['lexpr']) || jsonbForm(e['rexpr']);
  if (e && String(e['kind']) === 'AEXPR_OP' && ['->', '#>', '-', '#-'].includes(names(e['name']).pop() ?? '')) return jsonbForm(e['lexpr']);
  return false;
}

/** Operators allowed through authorization because this module translates every use of them. */
export const JSON_OPERATORS: ReadonlySet<string> = new Set(['->', '->>', '#>', '#>>', '@>', '?', '?|', '?&', '#-']);

const call = (name: string | PgNode[], ...args: PgNode[]): PgNode => ({
  FuncCall: { funcname: typeof name === 'string' ? [strNode(name)] : name, ...(args.length ? { args } : {}), funcformat: 'COERCE_EXPLICIT_CALL' },
});
const cast = (arg: PgNode, type: string): PgNode => ({ TypeCast: { arg, typeName: { names: [strNode(type)], typemod: -1 } } });
const concat = (parts: PgNode[]): PgNode =>
  parts.reduce((a, b) => ({ A_Expr: { kind: 'AEXPR_OP', name: [strNode('||')], lexpr: a, rexpr: b } }));
/** Whether an expression holds a bound parameter ($n). */
function holdsParam(node: unknown): boolean {
  let found = false;
  walk(node, (v) => {
    if (v.kind === 'ParamRef') found = true;
    return found ? false : undefined;
  });
  return found;
}
// DuckDB's to_json leaves its result type unresolved at prepare when its argument holds a
// parameter (psycopg 3 binds SQLAlchemy's literals so): such values go through the *_p macros
// (sql/dialect/jsonMacros.ts), which hide the parameter behind a lambda; others keep the direct call.
/** a value as JSON text, SQL NULL as `null` */
const jsonValue = (v: PgNode): PgNode =>
  holdsParam(v)
    ? call(emulated('lg_json_value_p'), v)
    : isJsonText(v)
      ? ({ CoalesceExpr: { args: [cast(v, 'text'), strConst('null')] } } as PgNode)
      : dispatchable(v)
        ? call(emulated('lg_json_value_n'), v)
        : call(emulated('lg_json_value'), v);

/** json builders whose result is already PostgreSQL's json text (DuckDB's to_json would re-print it compactly). */
const JSON_TEXT_RESULTS: ReadonlySet<string> = new Set(['json_build_object', 'json_build_array', 'json_agg', 'json_object_agg', 'to_json', 'row_to_json']);

/** A json value kept as its text inside another json value: a json builder's call, or a cast to json. */
function isJsonText(v: unknown): boolean {
  const n = v as Fields;
  const fc = n['FuncCall'] as Fields | undefined;
  if (fc) {
    const parts = names(fc['funcname']);
    return (parts.length === 1 || (parts.length === 2 && parts[0] === 'pg_catalog')) && JSON_TEXT_RESULTS.has(parts[parts.length - 1]!);
  }
  const tn = names((n['TypeCast'] as Fields | undefined)?.['typeName']?.['names']);
  return tn.length > 0 && tn[tn.length - 1] === 'json' && !(n['TypeCast'] as Fields)['typeName']['arrayBounds'];
}

/**
 * A value cheap to bind three times (a column, a constant, a cast of one): such a value goes
 * through lg_json_num, which prints a numeric with its own digits. Anything else (an aggregate,
 * a nested call) keeps to_json: copying it would grow with each level of nesting.
 */
function dispatchable(v: unknown): boolean {
  const n = v as Fields;
  if (n['ColumnRef'] || n['A_Const']) return true;
  const arg = n['TypeCast']?.['arg'] as Fields | undefined;
  return arg !== undefined && (arg['ColumnRef'] !== undefined || arg['A_Const'] !== undefined);
}
/** an object key as JSON text */
const jsonKey = (k: PgNode): PgNode =>
  holdsParam(k) ? call(emulated('lg_json_text_p'), cast(k, 'text')) : cast(call('to_json', cast(k, 'text')), 'text');
/**
 * ROW(a, b) as a value of to_json / row_to_json: PostgreSQL names an anonymous
 * record's fields f1, f2, …; DuckDB's unnamed struct would print "" keys.
 */
function namedRow(v: PgNode): PgNode {
  const row = (v as Fields)['RowExpr'] as Fields | undefined;
  if (!row) return v;
  const args = ((row['args'] ?? []) as PgNode[]).map((arg, i) => ({ NamedArgExpr: { arg, name: `f${i + 1}`, argnumber: -1 } }));
  return { FuncCall: { funcname: [strNode('struct_pack')], args, funcformat: 'COERCE_EXPLICIT_CALL' } };
}

const toJson = (v: PgNode): PgNode =>
  holdsParam(v) ? call(emulated('lg_to_json_p'), v) : dispatchable(v) ? call(emulated('lg_json_num'), v) : call('to_json', v);

function constInt(n: unknown): number | undefined {
  const c = (n as Fields | undefined)?.['A_Const'];
  if (!c || c['isnull']) return undefined;
  if (c.ival) return Number(c.ival.ival ?? 0);
  return undefined;
}

const pointer = (keys: string[]): string => keys.map((k) => '/' + k.replace(/~/g, '~0').replace(/\//g, '~1')).join('');

/** A DuckDB JSON path for `->`'s right operand: a key, or an array index (negative: from the end). */
function stepPath(key: unknown, location: unknown): string {
  const n = constInt(key);
  if (n !== undefined) return n >= 0 ? `$[${n}]` : `$[#-${-n}]`;
  const s = constText(key);
  if (s !== undefined) return /^[^"\\]*$/.test(s) ? `$."${s}"` : pointer([s]);
  throw new SqlError('0A000', 'a json operator with a key that is not a constant is not supported', pos(location));
}

function pathKeys(path: unknown, location: unknown): string[] {
  const s = constText(path);
  const items = s !== undefined ? parseArrayLiteral(s, pos(location)) : undefined;
  const elements = (path as Fields | undefined)?.['A_ArrayExpr']?.['elements'] as unknown[] | undefined;
  const keys = items ?? elements?.map((e) => constText(e));
  if (!keys || keys.some((k) => k === undefined || k === null)) {
    throw new SqlError('0A000', 'a json path that is not a constant text array is not supported', pos(location));
  }
  return keys as string[];
}

function pathOf(path: unknown, location: unknown): string {
  const keys = pathKeys(path, location);
  return keys.length ? pointer(keys) : '$';
}


/** A constant boolean argument (jsonb_set's create_missing, jsonb_insert's insert_after). */
function constBool(n: unknown, fallback: boolean, location: unknown): boolean {
  if (n === undefined) return fallback;
  const c = (n as Fields)['A_Const'];
  if (c?.['boolval'] !== undefined) return c['boolval']['boolval'] === true;
  throw new SqlError('0A000', 'a jsonb_set / jsonb_insert flag that is not a constant is not supported', pos(location));
}

/** The top of a path operation: a scalar has no path (PostgreSQL's message). */
const nonScalar = (j: PgNode, what: 'set' | 'delete'): PgNode => call(emulated('lg_jsonb_nonscalar'), j, strConst(`cannot ${what} path in scalar`));
const child = (j: PgNode, key: string, n: number): PgNode => call(emulated('lg_jsonb_child'), j, strConst(key), intConst(n));
const put = (j: PgNode, key: string, n: number, v: PgNode, create: boolean, mode: string): PgNode =>
  call(emulated('lg_jsonb_put'), j, strConst(key), intConst(n), v, boolConst(create), strConst(mode));

/** `j #- path`, level by level from the constant path (each level rebuilds its value with the changed child). */
function deletePath(j: PgNode, keys: string[], n: number): PgNode {
  if (keys.length === 1) return call(emulated('lg_jsonb_del_step'), j, strConst(keys[0]!), intConst(n));
  return put(j, keys[0]!, n, deletePath(child(j, keys[0]!, n), keys.slice(1), n + 1), false, 'set');
}

/** jsonb_set / jsonb_insert: v at the path; only the last level creates or inserts. */
function setPath(j: PgNode, keys: string[], n: number, v: PgNode, create: boolean, mode: string): PgNode {
  if (keys.length === 1) return put(j, keys[0]!, n, v, create, mode);
  return put(j, keys[0]!, n, setPath(child(j, keys[0]!, n), keys.slice(1), n + 1, v, create, mode), false, 'set');
}

/** jsonb_set(target, path, new_value [, create_missing]) and jsonb_insert(target, path, new_value [, insert_after]). */
function jsonbSetCall(name: string, args: unknown[], location: unknown): PgNode {
  if (args.length < 3 || args.length > 4) throw undefinedFunction(name, location, args);
  const [j, path, v, flag] = args as PgNode[];
  const keys = pathKeys(path, location);
  const insert = name === 'jsonb_insert';
  const target = nonScalar(tagged(j!), 'set');
  if (keys.length === 0) return cast(target, 'json');
  const flagValue = constBool(flag, !insert, location);
  const set = setPath(target, keys, 1, tagged(v!), insert || flagValue, insert ? (flagValue ? 'after' : 'before') : 'set');
  // strict in PostgreSQL: a NULL new value gives NULL (here NULL means "the path below is missing")
  return { CaseExpr: { args: [{ CaseWhen: { expr: { NullTest: { arg: v, nulltesttype: 'IS_NULL' } }, result: cast({ A_Const: { isnull: true } } as PgNode, 'json') } }], defresult: set } };
}

/** The keys of `?|` / `?&`: an ARRAY[…] or a '{…}' literal, as a list node. */
function keyList(n: unknown): PgNode {
  const s = constText(n);
  const items = s !== undefined ? parseArrayLiteral(s) : undefined;
  if (items) return { A_ArrayExpr: items.length ? { elements: items.map((v) => strConst(v)) } : {} };
  return n as PgNode;
}

/**
 * A value at a constant path: of a jsonb, jsonb's text (lg_jsonb_get keeps the numbers' digits, which DuckDB's
 * json_extract would print through a double); of a json, DuckDB's compact print (PostgreSQL: the text as written).
 */
const get = (j: PgNode, path: string): PgNode => (jsonbForm(j) ? jsonbCall('lg_jsonb_get', j, strConst(path)) : call('json_extract', j, strConst(path)));

/** A jsonb macro of sql/dialect/jsonMacros.ts; its _p form where the value holds a bound parameter (resolved at prepare behind a lambda). */
export const jsonbCall = (name: string, j: PgNode, ...rest: PgNode[]): PgNode => call(emulated(holdsParam(j) ? `${name}_p` : name), j, ...rest);

/** A jsonb built here, in jsonb's text (sql/dialect/jsonMacros.ts lg_jsonb): ::text, DISTINCT and GROUP BY see it. */
export const canonical = (n: PgNode): PgNode => jsonbCall('lg_jsonb', n);
/** A jsonb's values tagged (sql/dialect/jsonMacros.ts lg_jsonb_tag), for operations DuckDB would re-print numbers in. */
export const tagged = (n: PgNode): PgNode => jsonbCall('lg_json_tagged', n);
/** jsonb's text of a value built over tagged texts. */
export const canonicalTagged = (n: PgNode): PgNode => call(emulated('lg_jsonb_of_tagged'), n);

/**
 * A column's `::jsonb` read where jsonb's text does not matter (containment, key tests, typeof, array length,
 * which DuckDB's JSON functions answer by value) stays the text as written: lg_jsonb would cost each row
 * 30-70 µs for nothing. (Of duplicate keys these see the text's, where jsonb keeps the last.)
 */
export function asWritten(n: PgNode): PgNode {
  const tc = (n as Fields)['TypeCast'] as Fields | undefined;
  const t = names(tc?.['typeName']?.['names']);
  if (!tc || tc['typeName']['arrayBounds'] || t[t.length - 1] !== 'jsonb' || constText(tc['arg']) !== undefined) return n;
  return cast(tc['arg'] as PgNode, 'json');
}

/** jsonb_* functions' jsonb arguments by position (an untyped literal there is read as jsonb). */
const JSONB_ARGS: Readonly<Record<string, readonly number[]>> = ownTable({
  jsonb_each: [0], jsonb_each_text: [0], jsonb_array_elements: [0], jsonb_array_elements_text: [0], jsonb_typeof: [0],
  jsonb_array_length: [0], jsonb_strip_nulls: [0], jsonb_pretty: [0], jsonb_extract_path: [0], jsonb_extract_path_text: [0],
  jsonb_object_keys: [0], jsonb_set: [0, 2], jsonb_insert: [0, 2],
});

/** An untyped literal where a jsonb_* function takes a jsonb becomes a jsonb literal (in jsonb's text). */
export function jsonbLiteralArgs(name: string, args: unknown[]): void {
  for (const i of JSONB_ARGS[name] ?? []) {
    if (constText(args[i]) !== undefined) args[i] = cast(args[i] as PgNode, 'jsonb');
  }
}

/**
 * x::jsonb: a literal's text is put in jsonb's form here (when it is JSON: else DuckDB's cast refuses it); any
 * other value at run time by lg_jsonb. Returns the node that replaces the cast.
 */
export function jsonbCast(arg: PgNode): PgNode {
  const n = arg as Fields;
  if (n['A_Const']?.['isnull']) return cast(arg, 'json');
  const lit = constText(arg);
  if (lit !== undefined) {
    // a number's exponent past numeric's range is PostgreSQL's error: lg_jsonb raises it
    let valid = !/[eE][-+]?\d{4,}/.test(lit);
    try {
      JSON.parse(lit);
    } catch {
      valid = false;
    }
    if (valid) return cast(strConst(jsonbText(lit)), 'json');
    if (/[eE][-+]?\d{4,}/.test(lit)) return canonical(arg);
    return cast(arg, 'json');
  }
  return canonical(cast(arg, 'json'));
}

/** `->>`'s key as a path step: a text key, or an array index (as text: a JSON pointer reads it either way). */
function stepKeys(key: unknown): string[] | undefined {
  const n = constInt(key);
  if (n !== undefined) return n >= 0 ? [String(n)] : undefined;
  const s = constText(key);
  return s === undefined ? undefined : [s];
}

/**
 * `column::jsonb ->> key` and `#>> path`, the usual read of a JSON column: from the text as written where that
 * gives jsonb's answer (sql/dialect/jsonMacros.ts lg_jsonb_text_at decides per row), instead of putting every
 * value in jsonb's form first. Each object on the way must have distinct keys (jsonb keeps the last of equal
 * ones, DuckDB finds the first). Undefined for any other operand.
 */
function textAsWritten(l: PgNode, keys: string[] | undefined): PgNode | undefined {
  const tc = (l as Fields)['TypeCast'] as Fields | undefined;
  const t = names(tc?.['typeName']?.['names']);
  if (!keys?.length || !tc || tc['typeName']['arrayBounds'] || t[t.length - 1] !== 'jsonb' || !(tc['arg'] as Fields)['ColumnRef']) return undefined;
  const x = cast(tc['arg'] as PgNode, 'json');
  const distinctKeys = (prefix: string[]): PgNode => {
    const ks = prefix.length ? call('json_keys', structuredClone(x), strConst(pointer(prefix))) : call('json_keys', structuredClone(x));
    return { A_Expr: { kind: 'AEXPR_OP', name: [strNode('=')], lexpr: call('len', ks), rexpr: call('len', call('list_distinct', structuredClone(ks))) } };
  };
  const checks = keys.map((_, i) => distinctKeys(keys.slice(0, i)));
  const dupfree: PgNode = checks.length === 1 ? checks[0]! : { BoolExpr: { boolop: 'AND_EXPR', args: checks } };
  return call(emulated('lg_jsonb_text_at'), x, strConst(keys.length ? pointer(keys) : '$'), dupfree);
}

/** A json operator's expression, `l op r` (any other form is refused: 0A000), as its rewrite sees it. */
const jsonOperator = (names: readonly string[], macros: readonly string[], build: (l: PgNode, r: PgNode, f: Fields) => PgNode): OperatorRule => ({
  phase: 'json',
  names,
  macros,
  rewrite: ({ v, f, op }) => {
    if (String(f['kind']) !== 'AEXPR_OP' || !f['lexpr']) throw new SqlError('0A000', `operator ${op} in this form is not supported`, pos(f['location']));
    replaceNode(v.node, build(f['lexpr'] as PgNode, f['rexpr'] as PgNode, f));
    return true;
  },
});

/** json's operators (sql/dialect/registry.ts): none reaches DuckDB as written (DuckDB's `->` is a lambda). */
export const JSON_OPERATOR_RULES: readonly OperatorRule[] = [
  jsonOperator(['->'], ['lg_jsonb_get'], (l, r, f) => get(l, stepPath(r, f['location']))),
  jsonOperator(['->>'], ['lg_jsonb_get_text'], (l, r, f) => textAsWritten(l, stepKeys(r)) ?? jsonbCall('lg_jsonb_get_text', l, strConst(stepPath(r, f['location'])))),
  jsonOperator(['#>'], ['lg_jsonb_get'], (l, r, f) => get(l, pathOf(r, f['location']))),
  jsonOperator(['#>>'], ['lg_jsonb_get_text'], (l, r, f) => textAsWritten(l, pathKeys(r, f['location'])) ?? jsonbCall('lg_jsonb_get_text', l, strConst(pathOf(r, f['location'])))),
  jsonOperator(['@>'], ['lg_json_contains'], (l, r) => call(emulated('lg_json_contains'), asWritten(l), asWritten(r))),
  jsonOperator(['?'], ['lg_json_has'], (l, r) => call(emulated('lg_json_has'), asWritten(l), r)),
  jsonOperator(['?|'], ['lg_json_has_any'], (l, r) => call(emulated('lg_json_has_any'), asWritten(l), keyList(r))),
  jsonOperator(['?&'], ['lg_json_has_all'], (l, r) => call(emulated('lg_json_has_all'), asWritten(l), keyList(r))),
  jsonOperator(['#-'], ['lg_jsonb_del_step', 'lg_jsonb_nonscalar'], (l, r, f) => {
    const keys = pathKeys(r, f['location']);
    const top = nonScalar(tagged(l), 'delete');
    return canonicalTagged(keys.length ? deletePath(top, keys, 1) : cast(top, 'json'));
  }),
];

/** jsonb orders an object's keys by length, then bytes; the last of equal keys wins. */
function jsonbKeyOrder(pairs: [unknown, unknown][]): [unknown, unknown][] {
  const keys = pairs.map(([k]) => constText(k));
  if (keys.some((k) => k === undefined)) return pairs;
  const last = new Map<string, [unknown, unknown]>();
  pairs.forEach((p, i) => last.set(keys[i]!, p));
  const byteLen = (s: string) => Buffer.byteLength(s);
  return [...last.entries()]
    .sort(([a], [b]) => byteLen(a) - byteLen(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)))
    .map(([, p]) => p);
}

function buildObject(args: unknown[], jsonb: boolean, location: unknown): PgNode {
  if (args.length % 2 !== 0) throw new SqlError('22023', 'argument list must have even number of elements', pos(location));
  let pairs: [unknown, unknown][] = [];
  for (let i = 0; i < args.length; i += 2) pairs.push([args[i], args[i + 1]]);
  if (jsonb) pairs = jsonbKeyOrder(pairs);
  const sep = jsonb ? ': ' : ' : ';
  const parts: PgNode[] = [strConst('{')];
  pairs.forEach(([k, val], i) => {
    if (i > 0) parts.push(strConst(', '));
    parts.push(jsonKey(k as PgNode), strConst(sep), jsonValue(val as PgNode));
  });
  parts.push(strConst('}'));
  return cast(concat(parts), 'json');
}

function buildArray(args: unknown[]): PgNode {
  const parts: PgNode[] = [strConst('[')];
  args.forEach((a, i) => {
    if (i > 0) parts.push(strConst(', '));
    parts.push(jsonValue(a as PgNode));
  });
  parts.push(strConst(']'));
  return cast(concat(parts), 'json');
}

/** A json function's call as its rewrite sees it; `one()` is its only argument (42883 for another count). */
interface JsonCall {
  v: Visit;
  f: Fields;
  name: string;
  args: unknown[];
  one: () => PgNode;
}

const json = (names: readonly string[], macros: readonly string[], rewrite: (j: JsonCall) => boolean): Rule => ({
  phase: 'json',
  names,
  macros,
  rewrite: (c) =>
    rewrite({
      v: c.v,
      f: c.f,
      name: c.name,
      args: c.args,
      one: () => {
        if (c.args.length !== 1) throw undefinedFunction(c.name, c.f['location'], c.args);
        return c.args[0] as PgNode;
      },
    }),
});

/** The json and jsonb functions this module rewrites (sql/dialect/registry.ts), each with the macros it calls. */
export const JSON_RULES: readonly Rule[] = [
  {
    // an untyped literal where a jsonb_* function takes a jsonb is read as one, wherever the call stands
    phase: 'jsonbLiterals',
    at: 'anywhere',
    names: Object.keys(JSONB_ARGS),
    rewrite: (c) => {
      jsonbLiteralArgs(c.name, c.args);
      return false;
    },
  },
  json(['json_build_object', 'jsonb_build_object'], [], ({ v, f, name, args }) => {
    const built = buildObject(args, name.startsWith('jsonb'), f['location']);
    replaceNode(v.node, name.startsWith('jsonb') ? canonical(built) : built);
    return true;
  }),
  json(['json_build_array'], [], ({ v, args }) => {
    replaceNode(v.node, buildArray(args));
    return true;
  }),
  json(['jsonb_build_array'], [], ({ v, args }) => {
    replaceNode(v.node, canonical(buildArray(args)));
    return true;
  }),
  json(['json_agg', 'jsonb_agg'], [], ({ v, f, name, one }) => {
    // the aggregate stays (its ORDER BY, FILTER, DISTINCT with it) as a string_agg of JSON texts
    const x = one();
    f['funcname'] = [strNode('string_agg')];
    f['args'] = [jsonValue(x), strConst(', ')];
    const agg = cast(concat([strConst('['), { FuncCall: f }, strConst(']')]), 'json');
    replaceNode(v.node, name === 'jsonb_agg' ? canonical(agg) : agg);
    return true;
  }),
  json(['json_object_agg', 'jsonb_object_agg'], [], ({ v, f, name, args }) => {
    if (args.length !== 2) throw undefinedFunction(name, f['location'], args);
    const [k, val] = args as PgNode[];
    const jsonb = name.startsWith('jsonb');
    f['funcname'] = [strNode('string_agg')];
    f['args'] = [concat([jsonKey(k!), strConst(jsonb ? ': ' : ' : '), jsonValue(val!)]), strConst(', ')];
    const agg = cast(concat([strConst(jsonb ? '{' : '{ '), { FuncCall: f }, strConst(jsonb ? '}' : ' }')]), 'json');
    replaceNode(v.node, jsonb ? canonical(agg) : agg);
    return true;
  }),
  json(['to_json', 'row_to_json'], [], ({ v, one }) => {
    replaceNode(v.node, toJson(namedRow(one())));
    return true;
  }),
  json(['to_jsonb'], [], ({ v, one }) => {
    replaceNode(v.node, canonical(toJson(namedRow(one()))));
    return true;
  }),
  json(['jsonb_strip_nulls'], ['lg_jsonb_strip_nulls'], ({ v, one }) => {
    replaceNode(v.node, canonical(call(emulated('lg_jsonb_strip_nulls'), one())));
    return true;
  }),
  json(['jsonb_set', 'jsonb_insert'], [], ({ v, f, name, args }) => {
    replaceNode(v.node, canonicalTagged(jsonbSetCall(name, args, f['location'])));
    return true;
  }),
  json(['jsonb_pretty'], ['lg_jsonb_pretty'], ({ v, one }) => {
    replaceNode(v.node, call(emulated('lg_jsonb_pretty'), one()));
    return true;
  }),
  json(['json_typeof', 'jsonb_typeof'], ['lg_json_typeof'], ({ v, one }) => {
    replaceNode(v.node, call(emulated('lg_json_typeof'), asWritten(one())));
    return true;
  }),
  json(['json_array_length', 'jsonb_array_length'], ['lg_json_array_length'], ({ v, one }) => {
    replaceNode(v.node, cast(call(emulated('lg_json_array_length'), asWritten(one())), 'int4'));
    return true;
  }),
];

/** Scalar and aggregate functions this module translates (none reaches DuckDB by its own name): the allowlist's json names. */
export const JSON_FUNCTIONS: ReadonlySet<string> = new Set(JSON_RULES.filter((r) => r.phase === 'json').flatMap((r) => r.names));
