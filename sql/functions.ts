/**
 * Which functions user SQL may call. Deny by default: a name not listed here
 * (read_parquet, glob, duckdb_*, query, query_table, …) is reported exactly as
 * PostgreSQL reports an unknown function. Listed are PostgreSQL built-ins whose
 * DuckDB namesakes behave compatibly, plus the catalog emulation.
 */
import { EMULATED_FUNCTIONS, EMULATED_TABLE_FUNCTIONS } from './emulation.js';
import { ownTable } from './ownNames.js';

export const AGGREGATE_FUNCTIONS: readonly string[] = [
  'count', 'sum', 'avg', 'min', 'max', 'bool_and', 'bool_or', 'every', 'string_agg', 'array_agg',
  'stddev', 'stddev_pop', 'stddev_samp', 'variance', 'var_pop', 'var_samp', 'corr', 'covar_pop', 'covar_samp',
  'regr_avgx', 'regr_avgy', 'regr_count', 'regr_intercept', 'regr_r2', 'regr_slope', 'regr_sxx', 'regr_sxy',
  'regr_syy', 'percentile_cont', 'percentile_disc', 'mode', 'bit_and', 'bit_or', 'bit_xor',
];

export const WINDOW_FUNCTIONS: readonly string[] = [
  'row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead', 'first_value',
  'last_value', 'nth_value',
];

const SCALAR = [
  // math
  'abs', 'ceil', 'ceiling', 'floor', 'round', 'trunc', 'sqrt', 'cbrt', 'exp', 'ln', 'log', 'log10', 'power', 'pow',
  'mod', 'sign', 'pi', 'degrees', 'radians', 'sin', 'cos', 'tan', 'cot', 'asin', 'acos', 'atan', 'atan2', 'random',
  'gcd', 'lcm', 'factorial', 'isfinite',
  // strings
  'length', 'char_length', 'character_length', 'octet_length', 'bit_length', 'lower', 'upper', 'concat',
  'concat_ws', 'substr', 'substring', 'left', 'right', 'lpad', 'rpad', 'ltrim', 'rtrim', 'btrim', 'replace',
  'reverse', 'repeat', 'position', 'strpos', 'split_part', 'starts_with', 'md5', 'ascii', 'chr', 'regexp_replace',
  'regexp_split_to_array', 'translate', 'to_hex', 'string_to_array', 'array_to_string', 'array_length',
  'cardinality', 'array_position', 'array_cat', 'array_append', 'array_prepend',
  // date / time
  'now', 'date_trunc', 'date_part', 'extract', 'age', 'make_date', 'make_time', 'make_timestamp',
  'make_timestamptz', 'to_timestamp', 'transaction_timestamp', 'timezone',
  // misc
  'gen_random_uuid', 'unnest', 'generate_series',
];

/**
 * PostgreSQL names DuckDB spells differently (DuckDB's cardinality is for maps);
 * sql/dialect/dialect.ts renames calls (at the registry's `rename` step).
 * (btrim written as TRIM(BOTH …) keeps its SQL syntax and is not renamed.)
 */
export const RENAMED_FUNCTIONS: Readonly<Record<string, string>> = ownTable({ every: 'bool_and', btrim: 'trim', cardinality: 'len' });

/** Allowed built-ins DuckDB reaches only through SQL syntax (WITHIN GROUP, EXTRACT … FROM). */
export const SYNTAX_ONLY_FUNCTIONS: ReadonlySet<string> = new Set(['percentile_cont', 'percentile_disc', 'extract']);

/**
 * Scalar built-ins (no aggregates, window or catalog functions): what a policy's
 * row filter or mask expression may call (policy/rewrite/expressions.ts).
 */
export const SCALAR_BUILTINS: ReadonlySet<string> = new Set(SCALAR);

/** The built-ins passed to DuckDB by name (after RENAMED_FUNCTIONS): each must exist there. */
export const DUCKDB_BUILTINS: readonly string[] = [...AGGREGATE_FUNCTIONS, ...WINDOW_FUNCTIONS, ...SCALAR];

/** Folded to literals from the session context (sql/dialect/session.ts). */
export const FOLDED_FUNCTIONS: ReadonlySet<string> = new Set([
  'to_regclass',
  'current_database', 'current_catalog', 'current_schema', 'current_schemas', 'current_user', 'session_user',
  'current_role', 'version', 'current_setting', 'pg_backend_pid',
]);

/**
 * The functions only the dialect's translations make callable (sql/dialect/json.ts, format.ts, builtin.ts), and
 * the operators they turn into calls: named here, so the allowlist, which the authorization walk reads, depends on
 * no translation. sql/dialect/registry.test.ts holds these lists equal to the dialect's own.
 */
export const DIALECT_FUNCTIONS: ReadonlySet<string> = new Set([
  // json.ts
  'json_agg', 'json_array_length', 'json_build_array', 'json_build_object', 'json_object_agg', 'json_typeof', 'jsonb_agg',
  'jsonb_array_length', 'jsonb_build_array', 'jsonb_build_object', 'jsonb_insert', 'jsonb_object_agg', 'jsonb_pretty',
  'jsonb_set', 'jsonb_strip_nulls', 'jsonb_typeof', 'row_to_json', 'to_json', 'to_jsonb',
  // format.ts
  'clock_timestamp', 'div', 'format', 'initcap', 'pg_typeof', 'quote_ident', 'quote_literal', 'regexp_match',
  'regexp_matches', 'statement_timestamp', 'to_char', 'to_date', 'to_number',
  // builtin.ts
  'array_remove', 'array_replace', 'array_to_json', 'date_bin', 'decode', 'encode', 'json_extract_path',
  'json_extract_path_text', 'json_object_keys', 'jsonb_extract_path', 'jsonb_extract_path_text', 'make_interval',
  'num_nonnulls', 'num_nulls', 'overlay', 'regexp_count', 'regexp_like', 'regexp_split_to_table', 'regexp_substr',
  'sha256', 'string_to_table', 'trim_array', 'width_bucket',
]);

/** json's operators (translated by sql/dialect/json.ts, never passed on: DuckDB's `->` is a lambda), and those builtin.ts turns into calls. */
export const DIALECT_OPERATORS: ReadonlySet<string> = new Set([
  '->', '->>', '#>', '#>>', '@>', '?', '?|', '?&', '#-',
  '|/', '||/', '@', '#', '&&', '<@', '^@',
]);

const SCALAR_ALLOWED: ReadonlySet<string> = new Set([
  ...AGGREGATE_FUNCTIONS, ...WINDOW_FUNCTIONS, ...SCALAR, ...FOLDED_FUNCTIONS, ...Object.keys(EMULATED_FUNCTIONS),
  ...DIALECT_FUNCTIONS,
]);

/** Table functions in FROM: set-returning built-ins plus the emulation. */
const TABLE_ALLOWED: ReadonlySet<string> = new Set(['generate_series', 'unnest', ...EMULATED_TABLE_FUNCTIONS]);

/** Schemas a user may qualify a function with. `information_schema` only for its helper. */
function qualifierAllowed(schema: string, name: string): boolean {
  if (schema === 'pg_catalog') return true;
  return schema === 'information_schema' && name === '_pg_expandarray';
}

/** Every function name user SQL may call (the catalog emulation lists them in pg_proc). */
export const ALLOWED_FUNCTION_NAMES: ReadonlySet<string> = new Set([...SCALAR_ALLOWED, ...TABLE_ALLOWED]);

export function isAllowedFunction(nameParts: string[], asTable: boolean): boolean {
  if (nameParts.length === 0 || nameParts.length > 2) return false;
  const name = nameParts[nameParts.length - 1]!;
  if (nameParts.length === 2 && !qualifierAllowed(nameParts[0]!, name)) return false;
  return asTable ? TABLE_ALLOWED.has(name) : SCALAR_ALLOWED.has(name);
}

/**
 * Operators (A_Expr AEXPR_OP and friends). DuckDB-only operators (`->>` on
 * lists, `@>` on anything, `^@`, `<->`, …) are left out on purpose.
 */
export const ALLOWED_OPERATORS: ReadonlySet<string> = new Set([
  '=', '<>', '!=', '<', '>', '<=', '>=', '+', '-', '*', '/', '%', '||', '~', '!~', '~*', '!~*', '~~', '!~~',
  '~~*', '!~~*', '&', '|', '<<', '>>', '^',
  ...DIALECT_OPERATORS,
]);
