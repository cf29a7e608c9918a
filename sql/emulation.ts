/**
 * What the pg_catalog / information_schema emulation provides, shared by the
 * planner (sql/query.ts maps names onto it) and the installer
 * (pgcatalog/pgCatalog.ts creates it). One list, so a name the planner accepts
 * always exists in DuckDB, and the installer's test proves it.
 */
import { strNode, type PgNode } from './walk.js';
import { ownTable } from './ownNames.js';

/** In-memory DuckDB catalog holding the emulation; user SQL can never name it (cross-database refusal). */
export const EMULATION_DB = 'lakegate_pg';
/** Schemas inside EMULATION_DB. `pg_catalog` itself is reserved by DuckDB in every attached catalog. */
export const PGC_SCHEMA = 'pgc';
export const INFO_SCHEMA = 'infs';

/** The qualified name of one of the emulation's macros, as a parse-tree name list. */
export const emulated = (name: string): PgNode[] => [strNode(EMULATION_DB), strNode(PGC_SCHEMA), strNode(name)];
/** A call of one of the emulation's macros. */
export const emulatedCall = (name: string, args: PgNode[]): PgNode => ({
  FuncCall: { funcname: emulated(name), args, funcformat: 'COERCE_EXPLICIT_CALL' },
});

/** PostgreSQL's fixed namespace OIDs. */
export const PG_CATALOG_NSP_OID = 11;
export const PUBLIC_NSP_OID = 2200;
export const INFORMATION_SCHEMA_NSP_OID = 13183;
/** BOOTSTRAP_SUPERUSERID: the owner shown for every object. */
export const OWNER_OID = 10;

export interface EmulatedRelation {
  /** PostgreSQL's own OID where clients compare against it ('pg_class'::regclass = 1259) */
  oid: number;
  relkind: 'r' | 'v';
}

/** pg_catalog relations, with PostgreSQL's OIDs (catalog/pg_*.h) for the system tables. */
export const PG_CATALOG_RELATIONS: Readonly<Record<string, EmulatedRelation>> = ownTable({
  pg_type: { oid: 1247, relkind: 'r' },
  pg_attribute: { oid: 1249, relkind: 'r' },
  pg_proc: { oid: 1255, relkind: 'r' },
  pg_class: { oid: 1259, relkind: 'r' },
  pg_database: { oid: 1262, relkind: 'r' },
  pg_attrdef: { oid: 2604, relkind: 'r' },
  pg_constraint: { oid: 2606, relkind: 'r' },
  pg_depend: { oid: 2608, relkind: 'r' },
  pg_description: { oid: 2609, relkind: 'r' },
  pg_index: { oid: 2610, relkind: 'r' },
  pg_inherits: { oid: 2611, relkind: 'r' },
  pg_namespace: { oid: 2615, relkind: 'r' },
  pg_rewrite: { oid: 2618, relkind: 'r' },
  pg_am: { oid: 2601, relkind: 'r' },
  pg_policy: { oid: 3256, relkind: 'r' },
  pg_statistic_ext: { oid: 3381, relkind: 'r' },
  pg_collation: { oid: 3456, relkind: 'r' },
  pg_enum: { oid: 3501, relkind: 'r' },
  pg_extension: { oid: 3079, relkind: 'r' },
  pg_auth_members: { oid: 1261, relkind: 'r' },
  pg_language: { oid: 2612, relkind: 'r' },
  pg_tablespace: { oid: 1213, relkind: 'r' },
  pg_sequence: { oid: 2224, relkind: 'r' },
  pg_opclass: { oid: 2616, relkind: 'r' },
  pg_publication: { oid: 6104, relkind: 'r' },
  pg_publication_rel: { oid: 6106, relkind: 'r' },
  pg_publication_namespace: { oid: 6237, relkind: 'r' },
  pg_cast: { oid: 2605, relkind: 'r' },
  pg_operator: { oid: 2617, relkind: 'r' },
  pg_opfamily: { oid: 2753, relkind: 'r' },
  pg_amop: { oid: 2602, relkind: 'r' },
  pg_amproc: { oid: 2603, relkind: 'r' },
  pg_conversion: { oid: 2607, relkind: 'r' },
  pg_ts_config: { oid: 3602, relkind: 'r' },
  pg_ts_config_map: { oid: 3603, relkind: 'r' },
  pg_ts_dict: { oid: 3600, relkind: 'r' },
  pg_ts_parser: { oid: 3601, relkind: 'r' },
  pg_ts_template: { oid: 3764, relkind: 'r' },
  pg_foreign_data_wrapper: { oid: 2328, relkind: 'r' },
  pg_foreign_server: { oid: 1417, relkind: 'r' },
  pg_foreign_table: { oid: 3118, relkind: 'r' },
  pg_event_trigger: { oid: 3466, relkind: 'r' },
  pg_trigger: { oid: 2620, relkind: 'r' },
  pg_db_role_setting: { oid: 2964, relkind: 'r' },
  pg_default_acl: { oid: 826, relkind: 'r' },
  pg_subscription: { oid: 6100, relkind: 'r' },
  pg_transform: { oid: 3576, relkind: 'r' },
  pg_range: { oid: 3541, relkind: 'r' },
  pg_user_mappings: { oid: 12327, relkind: 'v' },
  pg_roles: { oid: 12001, relkind: 'v' },
  pg_user: { oid: 12005, relkind: 'v' },
  pg_tables: { oid: 12021, relkind: 'v' },
  pg_views: { oid: 12017, relkind: 'v' },
  pg_matviews: { oid: 12025, relkind: 'v' },
  pg_indexes: { oid: 12029, relkind: 'v' },
  pg_settings: { oid: 12104, relkind: 'v' },
  pg_stat_activity: { oid: 12137, relkind: 'v' },
  pg_stat_all_tables: { oid: 12142, relkind: 'v' },
  pg_stat_user_tables: { oid: 12161, relkind: 'v' },
  pg_statio_all_tables: { oid: 12170, relkind: 'v' },
  pg_statio_user_tables: { oid: 12179, relkind: 'v' },
});

export const INFORMATION_SCHEMA_RELATIONS: Readonly<Record<string, EmulatedRelation>> = ownTable({
  tables: { oid: 13290, relkind: 'v' },
  columns: { oid: 13373, relkind: 'v' },
  schemata: { oid: 13227, relkind: 'v' },
  views: { oid: 13450, relkind: 'v' },
  table_constraints: { oid: 13411, relkind: 'v' },
  key_column_usage: { oid: 13329, relkind: 'v' },
  referential_constraints: { oid: 13339, relkind: 'v' },
  table_privileges: { oid: 13416, relkind: 'v' },
  column_privileges: { oid: 13285, relkind: 'v' },
  routines: { oid: 13377, relkind: 'v' },
  parameters: { oid: 13334, relkind: 'v' },
});

/**
 * Functions implemented as macros in EMULATION_DB.PGC_SCHEMA. Calls to them,
 * unqualified or pg_catalog-qualified, are redirected there; DuckDB's own
 * pg_catalog functions of the same names use DuckDB's type ids and are never reached.
 * `searchPath`: the planner appends the session's search_path as a last argument.
 */
export const EMULATED_FUNCTIONS: Readonly<Record<string, { searchPath?: boolean }>> = ownTable({
  pg_get_userbyid: {},
  format_type: {},
  pg_table_is_visible: { searchPath: true },
  pg_type_is_visible: {},
  pg_encoding_to_char: {},
  pg_get_expr: {},
  pg_get_indexdef: {},
  pg_get_constraintdef: {},
  pg_get_viewdef: {},
  pg_get_partkeydef: {},
  pg_get_statisticsobjdef_columns: {},
  pg_get_function_result: {},
  pg_get_function_arguments: {},
  pg_get_function_identity_arguments: {},
  pg_get_function_sqlbody: {},
  pg_function_is_visible: {},
  pg_database_size: {},
  to_regtype: {},
  pg_get_serial_sequence: {},
  generate_subscripts: {},
  pg_collation_is_visible: {},
  pg_operator_is_visible: {},
  pg_opclass_is_visible: {},
  pg_opfamily_is_visible: {},
  pg_conversion_is_visible: {},
  pg_statistics_obj_is_visible: {},
  pg_ts_config_is_visible: {},
  pg_ts_dict_is_visible: {},
  pg_ts_parser_is_visible: {},
  pg_ts_template_is_visible: {},
  pg_tablespace_location: {},
  pg_tablespace_size: {},
  getdatabaseencoding: {},
  pg_char_to_encoding: {},
  pg_get_functiondef: {},
  pg_relation_is_publishable: {},
  pg_total_relation_size: {},
  pg_relation_size: {},
  pg_table_size: {},
  pg_indexes_size: {},
  pg_size_pretty: {},
  obj_description: {},
  col_description: {},
  shobj_description: {},
  has_table_privilege: { searchPath: true },
  has_schema_privilege: {},
  has_database_privilege: {},
  has_column_privilege: { searchPath: true },
  has_any_column_privilege: { searchPath: true },
  pg_has_role: {},
  pg_is_other_temp_schema: {},
  pg_my_temp_schema: {},
  pg_stat_get_numscans: {},
  justify_hours: {},
  justify_days: {},
  justify_interval: {},
  array_upper: {},
  array_lower: {},
  _pg_expandarray: {},
  regclass_out: {},
  regtype_out: {},
  regnamespace_out: {},
});

/**
 * Helpers the planner itself calls (not user-callable): PostgreSQL raises
 * 22012 on division by zero where DuckDB returns NULL; PostgreSQL refuses
 * strings over 1 GB (54000) where DuckDB would build them; LIKE patterns
 * known only at run time are translated to RE2 (sql/like.ts).
 */
export const INTERNAL_MACROS = {
  divide: 'lg_div',
  plainDivide: 'lg_fdiv',
  probedDivide: 'lg_divp',
  subtract: 'lg_sub',
  numericText: 'lg_num_text',
  sign: 'lg_sign',
  gcd: 'lg_gcd',
  lcm: 'lg_lcm',
  intLiteral: 'lg_int_lit',
  numLiteral: 'lg_num_lit',
  sumProbe: 'lg_sum_p',
  avgProbe: 'lg_avg_p',
  sumAs: 'lg_sum_as',
  avgAs: 'lg_avg_as',
  statsAs: 'lg_stats_as',
  sum: 'lg_sum',
  avg: 'lg_avg',
  varSamp: 'lg_var_samp',
  varPop: 'lg_var_pop',
  stddevSamp: 'lg_stddev_samp',
  stddevPop: 'lg_stddev_pop',
  toNumeric: 'lg_numeric',
  modulo: 'lg_mod',
  typedModulo: 'lg_mod_t',
  repeat: 'lg_repeat',
  lpad: 'lg_lpad',
  rpad: 'lg_rpad',
  likeRegex: 'lg_like_re',
  regtypeArray: 'lg_regtype_array',
} as const;

/**
 * The most times any macro of the emulation names one of its parameters in
 * its body. DuckDB copies the argument for each mention, so nested macro
 * calls multiply; sql/limits.ts bounds the expanded size with this factor
 * (pgcatalog/pgCatalogMacros.test.ts checks it against the definitions).
 */
export const MACRO_ARG_COPIES = 16;

/**
 * The planner's typed-arithmetic macros (sql/dialect/numericMacros.ts), argument
 * by argument: how many copies of it DuckDB binds, through all the macros it
 * calls. A probe or a dispatch operand is bound once per overload choice and
 * then dropped; a value is copied as its body names it. sql/limits.ts uses
 * these instead of MACRO_ARG_COPIES, which would count a literal's wrapper
 * as a sixteenfold copy.
 */
export const MACRO_ARG_COPIES_OF: Readonly<Record<string, readonly number[]>> = ownTable({
  [INTERNAL_MACROS.intLiteral]: [1, 1],
  [INTERNAL_MACROS.numLiteral]: [1, 1],
  // through lg_pdiv_c, lg_ndiv16 (both branches) and lg_nq17: a 7 copies, b 12
  [INTERNAL_MACROS.probedDivide]: [12, 12, 3, 3],
  [INTERNAL_MACROS.subtract]: [1, 1, 3, 3],
  // a % b with its probe a + b (sql/dialect/numeric.ts modulo): through lg_mod, a and b twice each
  [INTERNAL_MACROS.typedModulo]: [2, 2, 2],
  [INTERNAL_MACROS.sumProbe]: [1],
  [INTERNAL_MACROS.avgProbe]: [2],
  [INTERNAL_MACROS.sumAs]: [1, 1],
  [INTERNAL_MACROS.avgAs]: [MACRO_ARG_COPIES, MACRO_ARG_COPIES, 2],
  // v, n, s1 (its units, and its type twice for the scale), s2, samp, sd, p (bound for each overload choice)
  [INTERNAL_MACROS.statsAs]: [1, 1, 3, 1, 2, 2, 2],
  [INTERNAL_MACROS.gcd]: [1, 1, 1],
  [INTERNAL_MACROS.lcm]: [1, 1, 1],
  [INTERNAL_MACROS.numericText]: [1],
  [INTERNAL_MACROS.sign]: [3],
  // sql/dialect/builtin.ts round(x, n) / trunc(x, n): x and n as written, the probe bound for the one overload
  lg_round_n: [1, 1, 1],
  lg_num_text_p: [1, 1],
  lg_time_of: [1, 1, 1],
  lg_trunc_n: [1, 1, 1],
  lg_min_nb: [1, 1],
  // regexp_replace's start and occurrence forms (sql/dialect/builtinMacros.ts): the source is named in each piece
  // the session's zone (sql/dialect/builtinMacros.ts, sql/sessionZone.ts): x, the zone, x's probe (one per level)
  lg_wall: [1, 1, 3],
  lg_zone_offset: [2, 1, 3],
  lg_zoned: [1, 1, 2],
  lg_zoned_text: [5, 3, 3],
  lg_zone_lit: [3, 1, 1],
  lg_zone_read: [1, 1],
  lg_offset_text: [2, 5, 1],
  lg_zone_hour: [1],
  lg_zone_minute: [2],
  lg_date_trunc: [1, 1, 2, 3],
  lg_re_next: [3, 1, 1, 4],
  lg_regexp_replace_nth: [9, 3, 1, 2, 1, 1],
  lg_re_piece: [2, 1, 1, 1],
  lg_re_step: [8, 2, 1, 1, 9],
  lg_re_all: [12, 4, 1, 4, 4],
  lg_max_nb: [1, 1],
  // x::bit(n) of an expression (sql/dialect/builtinMacros.ts): an integer's bits are named five times
  lg_bit_n: [5, 4, 2],
  lg_gsl2: [1, 2, 2],
  lg_gsl3: [1, 2, 2, 2],
  lg_gsv2: [1, 2, 2],
  lg_gsv3: [1, 2, 2, 2],
  // sql/dialect/jsonMacros.ts: jsonb's path operations (a composed path nests them) and its equality
  lg_jsonb_put: [1, 7, 2, 1, 3, 4],
  lg_jsonb_child: [1, 5, 2],
  lg_jsonb_del_step: [1, 9, 3],
  lg_jsonb_nonscalar: [3, 1],
  lg_jsonb_del_keys: [5, 3],
  lg_jsonb_del_index: [5, 3],
  lg_jsonb_strip_nulls: [2],
  // jsonb's text (each binds its value once, to a lambda's parameter)
  lg_jsonb: [1],
  lg_jsonb_eq: [1],
  lg_jsonb_get: [1, 1],
  lg_jsonb_get_text: [1, 1],
  lg_jsonb_text_at: [5, 6, 2],
  lg_json_tagged: [1],
  lg_jsonb_of_tagged: [1],
  lg_jsonb_pretty: [1],
  lg_jsonb_p: [1],
  lg_json_tagged_p: [1],
  lg_jsonb_eq_p: [1],
  lg_jsonb_get_p: [1, 1],
  lg_jsonb_get_text_p: [1, 1],
});

/** The PostgreSQL argument types an internal macro's binding failure stands for, where the engine does not name them. */
export const INTERNAL_MACRO_ARGUMENTS: Readonly<Record<string, readonly string[]>> = ownTable({
  lg_min_bool: ['boolean'],
  lg_mod_float: ['double precision', '…'],
  lg_max_bool: ['boolean'],
});

/** What a user sees for an internal macro in an error: the PostgreSQL operator or function it stands for. */
export const INTERNAL_MACRO_DISPLAY: Readonly<Record<string, string>> = ownTable({
  [INTERNAL_MACROS.divide]: 'operator /',
  [INTERNAL_MACROS.plainDivide]: 'operator /',
  [INTERNAL_MACROS.probedDivide]: 'operator /',
  [INTERNAL_MACROS.subtract]: 'operator -',
  [INTERNAL_MACROS.numericText]: 'type numeric',
  [INTERNAL_MACROS.sign]: 'function sign',
  lg_sign_a: 'function sign',
  lg_sign_b: 'function sign',
  lg_sub_a: 'operator -',
  lg_sub_b: 'operator -',
  [INTERNAL_MACROS.gcd]: 'function gcd',
  [INTERNAL_MACROS.lcm]: 'function lcm',
  [INTERNAL_MACROS.intLiteral]: 'operator',
  [INTERNAL_MACROS.numLiteral]: 'operator',
  [INTERNAL_MACROS.sumProbe]: 'function sum',
  [INTERNAL_MACROS.avgProbe]: 'function avg',
  [INTERNAL_MACROS.sumAs]: 'function sum',
  [INTERNAL_MACROS.avgAs]: 'function avg',
  [INTERNAL_MACROS.statsAs]: 'function stddev',
  lg_stats_asd: 'function stddev',
  [INTERNAL_MACROS.sum]: 'function sum',
  [INTERNAL_MACROS.avg]: 'function avg',
  [INTERNAL_MACROS.toNumeric]: 'type numeric',
  lg_ndiv: 'operator /',
  lg_ndiv16: 'operator /',
  lg_pdiv_a: 'operator /',
  lg_pdiv_b: 'operator /',
  lg_pdiv_c: 'operator /',
  [INTERNAL_MACROS.modulo]: 'operator %',
  lg_mod_float: 'operator %',
  [INTERNAL_MACROS.repeat]: 'function repeat',
  [INTERNAL_MACROS.lpad]: 'function lpad',
  [INTERNAL_MACROS.rpad]: 'function rpad',
  [INTERNAL_MACROS.likeRegex]: 'operator ~~',
  // sql/dialect/builtin.ts, sql/dialect/builtinMacros.ts
  lg_date_trunc: 'function date_trunc',
  lg_date_tz: 'function generate_series',
  lg_round: 'function round',
  lg_round_n: 'function round',
  lg_trunc_n: 'function trunc',
  lg_min_nb: 'function min',
  lg_re_all: 'function regexp_replace',
  lg_re_step: 'function regexp_replace',
  lg_re_piece: 'function regexp_replace',
  lg_regexp_replace_nth: 'function regexp_replace',
  lg_re_next: 'function regexp_replace',
  lg_max_nb: 'function max',
  lg_min_bool: 'function min',
  lg_max_bool: 'function max',
  lg_percentile_arg: 'function percentile_cont',
  lg_num_text_p: 'type numeric',
  lg_time_of: 'type time',
  lg_array_text: 'type text',
  lg_time_of_tz: 'type time',
  lg_num_text_f: 'type numeric',
  lg_to_hex: 'function to_hex',
  lg_to_hex8: 'function to_hex',
  lg_octet_length: 'function octet_length',
  lg_array_remove: 'function array_remove',
  lg_array_to_string: 'function array_to_string',
  lg_overlay: 'function overlay',
  lg_base64: 'function encode',
  lg_escape: 'function encode',
  lg_width_bucket: 'function width_bucket',
  lg_width_bucket_f: 'function width_bucket',
  lg_jsonb_concat: 'operator ||',
  lg_jsonb_eq: 'operator =',
  lg_jsonb: 'type jsonb',
  lg_jsonb_p: 'type jsonb',
  lg_jsonb_pretty: 'function jsonb_pretty',
  lg_jsonb_num_x: 'type jsonb',
  lg_jsonb_del_keys: 'operator -',
  lg_jsonb_del_index: 'operator -',
  lg_regexp_substr: 'function regexp_substr',
  lg_array_replace: 'function array_replace',
  lg_trim_array: 'function trim_array',
  lg_array_contains: 'operator @>',
  lg_make_interval: 'function make_interval',
  lg_date_trunc_tz: 'function date_trunc',
  lg_array_length: 'function array_length',
  lg_text_arg: 'function concat',
  lg_extract_epoch: 'function extract',
});

/** json's set-returning functions in FROM, as table macros with PostgreSQL's columns (sql/dialect/jsonMacros.ts). */
export const JSON_TABLE_FUNCTIONS: readonly string[] = [
  'json_each', 'json_each_text', 'jsonb_each', 'jsonb_each_text', 'json_array_elements', 'json_array_elements_text',
  'jsonb_array_elements', 'jsonb_array_elements_text',
];

/** Table functions implemented as table macros in EMULATION_DB.PGC_SCHEMA. */
export const EMULATED_TABLE_FUNCTIONS: ReadonlySet<string> = new Set(['pg_get_keywords', ...JSON_TABLE_FUNCTIONS]);

/**
 * Array-typed columns of the emulated tables. PostgreSQL types a literal
 * compared with one of them as an array (psql: `pol.polroles = '{0}'`); the
 * planner turns such literals into ARRAY[…], and only next to these columns,
 * so `'{…}'` compared with a user's text or JSON column stays a string.
 * pgcatalog/pgCatalog.test.ts checks the list against the table definitions.
 */
export const EMULATED_ARRAY_COLUMNS: ReadonlySet<string> = new Set([
  'defaclacl', 'evttags', 'fdwacl', 'fdwoptions', 'ftoptions', 'setconfig', 'srvacl', 'srvoptions', 'subpublications',
  'tgattr', 'umoptions',
  'attacl', 'attfdwoptions', 'attoptions', 'conexclop', 'confdelsetcols', 'conffeqop', 'confkey', 'conkey', 'conpfeqop',
  'conppeqop', 'datacl', 'extcondition', 'extconfig', 'indclass', 'indcollation', 'indkey', 'indoption', 'lanacl', 'nspacl',
  'polroles', 'prattrs', 'proacl', 'proallargtypes', 'proargmodes', 'proargnames', 'proconfig',
  'protrftypes', 'relacl', 'reloptions', 'rolconfig', 'spcacl', 'spcoptions', 'stxkeys', 'stxkind', 'typacl', 'useconfig',
]);
