/**
 * information_schema.tables / columns / schemata / views / table_privileges / column_privileges … as views over the
 * emulated pg_catalog, so both always agree. data_type and the numeric
 * columns follow PostgreSQL's information_schema definitions.
 */
import { EMULATION_DB, INFO_SCHEMA, PGC_SCHEMA } from '../sql/emulation.js';
import { PSEUDO_TYPES } from '../sql/regTypes.js';

const P = `${EMULATION_DB}.${PGC_SCHEMA}`;
const I = `${EMULATION_DB}.${INFO_SCHEMA}`;

/** An aclitem's grantee (empty for PUBLIC), privilege letters and grantor; a role name may be double-quoted. */
const ACLITEM = `'^("(?:[^"]|"")*"|[^=]*)=([^/]*)/(.*)$'`;
const unquoteRole = (x: string) => `CASE WHEN starts_with(${x}, '"') THEN replace(${x}[2:-2], '""', '"') ELSE ${x} END`;
/** aclitem's letters of the table privileges (PostgreSQL's ACL_*_CHR). */
const ACL_LETTERS = [['a', 'INSERT'], ['r', 'SELECT'], ['w', 'UPDATE'], ['d', 'DELETE'], ['D', 'TRUNCATE'], ['x', 'REFERENCES'], ['t', 'TRIGGER']]
  .map(([l, p]) => `('${l}', '${p}')`).join(', ');

/** information_schema's domains as the engine's types (the wire types come from sql/catalogColumnTypes.ts). */
const DOMAIN_TYPES = { id: 'VARCHAR', text: 'VARCHAR', yn: 'VARCHAR', num: 'INTEGER', ts: 'TIMESTAMPTZ' } as const;
type Domain = keyof typeof DOMAIN_TYPES;
/** The select list of a view with PostgreSQL's `columns`, each NULL unless `values` has an expression for it. */
const selectList = (columns: string, values: Readonly<Record<string, string>> = {}) =>
  columns.trim().split(/\s*,\s*/).map((c) => {
    const [name, domain] = c.split(/\s+/) as [string, Domain];
    return `CAST(${values[name] ?? 'NULL'} AS ${DOMAIN_TYPES[domain]}) AS ${name}`;
  }).join(', ');

const ROUTINES_COLUMNS = `specific_catalog id, specific_schema id, specific_name id, routine_catalog id, routine_schema id,
  routine_name id, routine_type text, module_catalog id, module_schema id, module_name id, udt_catalog id, udt_schema id,
  udt_name id, data_type text, character_maximum_length num, character_octet_length num, character_set_catalog id,
  character_set_schema id, character_set_name id, collation_catalog id, collation_schema id, collation_name id,
  numeric_precision num, numeric_precision_radix num, numeric_scale num, datetime_precision num, interval_type text,
  interval_precision num, type_udt_catalog id, type_udt_schema id, type_udt_name id, scope_catalog id, scope_schema id,
  scope_name id, maximum_cardinality num, dtd_identifier id, routine_body text, routine_definition text, external_name text,
  external_language text, parameter_style text, is_deterministic yn, sql_data_access text, is_null_call yn, sql_path text,
  schema_level_routine yn, max_dynamic_result_sets num, is_user_defined_cast yn, is_implicitly_invocable yn,
  security_type text, to_sql_specific_catalog id, to_sql_specific_schema id, to_sql_specific_name id, as_locator yn,
  created ts, last_altered ts, new_savepoint_level yn, is_udt_dependent yn, result_cast_from_data_type text,
  result_cast_as_locator yn, result_cast_char_max_length num, result_cast_char_octet_length num,
  result_cast_char_set_catalog id, result_cast_char_set_schema id, result_cast_char_set_name id,
  result_cast_collation_catalog id, result_cast_collation_schema id, result_cast_collation_name id,
  result_cast_numeric_precision num, result_cast_numeric_precision_radix num, result_cast_numeric_scale num,
  result_cast_datetime_precision num, result_cast_interval_type text, result_cast_interval_precision num,
  result_cast_type_udt_catalog id, result_cast_type_udt_schema id, result_cast_type_udt_name id, result_cast_scope_catalog id,
  result_cast_scope_schema id, result_cast_scope_name id, result_cast_maximum_cardinality num, result_cast_dtd_identifier id`;

/** PostgreSQL's pseudo-types, which the emulated pg_type lacks (anyelement, record, void …): the return types of polymorphic built-ins. */
const PSEUDO_TYPE_ROWS = Object.entries(PSEUDO_TYPES).map(([name, oid]) => `(${oid}, '${name}')`).join(', ');

/** information_schema.routines' columns as PostgreSQL 15 defines them over pg_proc p, pg_language l, pg_type t, t's namespace nt. */
const routineValues = (db: string): Record<string, string> => ({
  specific_catalog: db,
  specific_schema: 'n.nspname',
  specific_name: `p.proname || '_' || CAST(p.oid AS VARCHAR)`,
  routine_catalog: db,
  routine_schema: 'n.nspname',
  routine_name: 'p.proname',
  routine_type: `CASE p.prokind WHEN 'f' THEN 'FUNCTION' WHEN 'p' THEN 'PROCEDURE' END`,
  ...typeValues(db, 'type_udt'),
  data_type: `CASE WHEN p.prokind <> 'p' THEN ${typeValues(db, 'type_udt')['data_type']} END`,
  dtd_identifier: `CASE WHEN p.prokind <> 'p' THEN '0' END`,
  routine_body: `CASE WHEN l.lanname = 'sql' THEN 'SQL' ELSE 'EXTERNAL' END`,
  external_name: `CASE WHEN l.lanname = 'c' THEN p.prosrc END`,
  external_language: 'upper(l.lanname)',
  parameter_style: `'GENERAL'`,
  is_deterministic: `CASE WHEN p.provolatile = 'i' THEN 'YES' ELSE 'NO' END`,
  sql_data_access: `'MODIFIES'`,
  is_null_call: `CASE WHEN p.prokind <> 'p' THEN CASE WHEN p.proisstrict THEN 'YES' ELSE 'NO' END END`,
  schema_level_routine: `'YES'`,
  max_dynamic_result_sets: '0',
  security_type: `CASE WHEN p.prosecdef THEN 'DEFINER' ELSE 'INVOKER' END`,
  as_locator: `'NO'`,
  is_udt_dependent: `'NO'`,
});

/** A type's data_type and udt_* columns as information_schema names them (t: pg_type, nt: its namespace, ps: a pseudo-type). */
const typeValues = (db: string, prefix: 'udt' | 'type_udt'): Record<string, string> => ({
  data_type: `CASE WHEN t.typelem <> 0 AND t.typlen = -1 THEN 'ARRAY'
    WHEN nt.nspname = 'pg_catalog' THEN ${P}.format_type(t.oid, NULL) WHEN ps.name = 'any' THEN '"any"'
    WHEN ps.name IS NOT NULL THEN ps.name WHEN t.oid IS NULL THEN NULL ELSE 'USER-DEFINED' END`,
  [`${prefix}_catalog`]: `CASE WHEN nt.nspname IS NOT NULL OR ps.name IS NOT NULL THEN ${db} END`,
  [`${prefix}_schema`]: `coalesce(nt.nspname, CASE WHEN ps.name IS NOT NULL THEN 'pg_catalog' END)`,
  [`${prefix}_name`]: 'coalesce(t.typname, ps.name)',
});

/** information_schema.parameters' columns as PostgreSQL 15 defines them, for a user who owns no function (no defaults shown). */
const parameterValues = (db: string): Record<string, string> => ({
  specific_catalog: db,
  specific_schema: 'ss.nspname',
  specific_name: `ss.proname || '_' || CAST(ss.oid AS VARCHAR)`,
  ordinal_position: 'ss.pos',
  parameter_mode: `CASE WHEN ss.proargmodes IS NULL THEN 'IN' WHEN ss.proargmodes[ss.pos] IN ('i', 'v') THEN 'IN'
    WHEN ss.proargmodes[ss.pos] IN ('o', 't') THEN 'OUT' WHEN ss.proargmodes[ss.pos] = 'b' THEN 'INOUT' END`,
  is_result: `'NO'`,
  as_locator: `'NO'`,
  parameter_name: `nullif(ss.proargnames[ss.pos], '')`,
  ...typeValues(db, 'udt'),
  dtd_identifier: 'CAST(ss.pos AS VARCHAR)',
});

const PARAMETERS_COLUMNS = `specific_catalog id, specific_schema id, specific_name id, ordinal_position num,
  parameter_mode text, is_result yn, as_locator yn, parameter_name id, data_type text, character_maximum_length num,
  character_octet_length num, character_set_catalog id, character_set_schema id, character_set_name id,
  collation_catalog id, collation_schema id, collation_name id, numeric_precision num, numeric_precision_radix num,
  numeric_scale num, datetime_precision num, interval_type text, interval_precision num, udt_catalog id, udt_schema id,
  udt_name id, scope_catalog id, scope_schema id, scope_name id, maximum_cardinality num, dtd_identifier id,
  parameter_default text`;

export function informationSchemaStatements(database: string): string[] {
  const db = `'${database.replace(/'/g, "''")}'`;
  return [
    `CREATE OR REPLACE VIEW ${I}.schemata AS SELECT ${db} AS catalog_name, nspname AS schema_name,
       ${P}.pg_get_userbyid(nspowner) AS schema_owner, CAST(NULL AS VARCHAR) AS default_character_set_catalog,
       CAST(NULL AS VARCHAR) AS default_character_set_schema, CAST(NULL AS VARCHAR) AS default_character_set_name,
       CAST(NULL AS VARCHAR) AS sql_path FROM ${P}.pg_namespace`,
    `CREATE OR REPLACE VIEW ${I}.tables AS SELECT ${db} AS table_catalog, n.nspname AS table_schema,
       c.relname AS table_name, CASE c.relkind WHEN 'r' THEN CASE WHEN n.nspname IN ('pg_catalog', 'information_schema')
       THEN 'SYSTEM TABLE' ELSE 'BASE TABLE' END WHEN 'v' THEN CASE WHEN n.nspname IN ('pg_catalog', 'information_schema')
       THEN 'SYSTEM VIEW' ELSE 'VIEW' END END AS table_type,
       CAST(NULL AS VARCHAR) AS self_referencing_column_name, CAST(NULL AS VARCHAR) AS reference_generation,
       CAST(NULL AS VARCHAR) AS user_defined_type_catalog, CAST(NULL AS VARCHAR) AS user_defined_type_schema,
       CAST(NULL AS VARCHAR) AS user_defined_type_name, 'NO' AS is_insertable_into, 'NO' AS is_typed,
       CAST(NULL AS VARCHAR) AS commit_action
       FROM ${P}.pg_class c JOIN ${P}.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'v', 'p')`,
    `CREATE OR REPLACE VIEW ${I}.views AS SELECT table_catalog, table_schema, table_name,
       CAST(NULL AS VARCHAR) AS view_definition, 'NONE' AS check_option, 'NO' AS is_updatable,
       'NO' AS is_insertable_into, 'NO' AS is_trigger_updatable, 'NO' AS is_trigger_deletable,
       'NO' AS is_trigger_insertable_into FROM ${I}.tables WHERE table_type LIKE '%VIEW'`,
    // Iceberg tables have no keys: the only constraints are PostgreSQL's NOT NULL checks of required columns,
    // named as PostgreSQL names them (<namespace oid>_<table oid>_<attnum>_not_null); BI tools read these three views.
    `CREATE OR REPLACE VIEW ${I}.table_constraints AS SELECT ${db} AS constraint_catalog, n.nspname AS constraint_schema,
       CAST(n.oid AS VARCHAR) || '_' || CAST(c.oid AS VARCHAR) || '_' || CAST(a.attnum AS VARCHAR) || '_not_null' AS constraint_name,
       ${db} AS table_catalog, n.nspname AS table_schema, c.relname AS table_name, 'CHECK' AS constraint_type,
       'NO' AS is_deferrable, 'NO' AS initially_deferred, 'YES' AS enforced, CAST(NULL AS VARCHAR) AS nulls_distinct
       FROM ${P}.pg_attribute a JOIN ${P}.pg_class c ON c.oid = a.attrelid JOIN ${P}.pg_namespace n ON n.oid = c.relnamespace
       WHERE a.attnotnull AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p')`,
    `CREATE OR REPLACE VIEW ${I}.key_column_usage AS SELECT CAST(NULL AS VARCHAR) AS constraint_catalog,
       CAST(NULL AS VARCHAR) AS constraint_schema, CAST(NULL AS VARCHAR) AS constraint_name, CAST(NULL AS VARCHAR) AS table_catalog,
       CAST(NULL AS VARCHAR) AS table_schema, CAST(NULL AS VARCHAR) AS table_name, CAST(NULL AS VARCHAR) AS column_name,
       CAST(NULL AS INTEGER) AS ordinal_position, CAST(NULL AS INTEGER) AS position_in_unique_constraint WHERE false`,
    `CREATE OR REPLACE VIEW ${I}.referential_constraints AS SELECT CAST(NULL AS VARCHAR) AS constraint_catalog,
       CAST(NULL AS VARCHAR) AS constraint_schema, CAST(NULL AS VARCHAR) AS constraint_name,
       CAST(NULL AS VARCHAR) AS unique_constraint_catalog, CAST(NULL AS VARCHAR) AS unique_constraint_schema,
       CAST(NULL AS VARCHAR) AS unique_constraint_name, CAST(NULL AS VARCHAR) AS match_option, CAST(NULL AS VARCHAR) AS update_rule,
       CAST(NULL AS VARCHAR) AS delete_rule WHERE false`,
    // The privileges pg_class.relacl grants (the session user's SELECT on each relation it may load), one row per
    // relation, grantee and privilege, as PostgreSQL's aclexplode reads an aclitem (`"a b"=r*/owner`).
    `CREATE OR REPLACE VIEW ${P}.lg_relation_grants AS SELECT g.oid, g.relname, g.relnamespace, g.relkind,
       CASE WHEN g.grantee = '' THEN 'PUBLIC' ELSE ${unquoteRole('g.grantee')} END AS grantee, ${unquoteRole('g.grantor')} AS grantor,
       p.privilege_type, contains(g.privs, p.letter || '*') AS grantable
       FROM (SELECT a.oid, a.relname, a.relnamespace, a.relkind,
               regexp_extract(a.acl, ${ACLITEM}, 1) AS grantee, regexp_extract(a.acl, ${ACLITEM}, 2) AS privs,
               regexp_extract(a.acl, ${ACLITEM}, 3) AS grantor
             FROM (SELECT oid, relname, relnamespace, relkind, unnest(relacl) AS acl FROM ${P}.pg_class) a
             WHERE regexp_full_match(a.acl, ${ACLITEM})) g
       JOIN (VALUES ${ACL_LETTERS}) p(letter, privilege_type) ON contains(g.privs, p.letter)`,
    `CREATE OR REPLACE VIEW ${I}.table_privileges AS SELECT g.grantor, g.grantee, ${db} AS table_catalog,
       n.nspname AS table_schema, g.relname AS table_name, g.privilege_type,
       CASE WHEN g.grantable THEN 'YES' ELSE 'NO' END AS is_grantable,
       CASE WHEN g.privilege_type = 'SELECT' THEN 'YES' ELSE 'NO' END AS with_hierarchy
       FROM ${P}.lg_relation_grants g JOIN ${P}.pg_namespace n ON n.oid = g.relnamespace
       WHERE g.relkind IN ('r', 'v', 'f', 'p')`,
    // A table's privilege holds for each of its columns (PostgreSQL lists those of the four column privileges),
    // and a column's own (attacl: SELECT on the readable columns of a table whose SELECT is withheld) for it.
    `CREATE OR REPLACE VIEW ${P}.lg_column_grants AS SELECT g.oid, a.attname, g.grantee, g.grantor, g.privilege_type, g.grantable
       FROM ${P}.lg_relation_grants g JOIN ${P}.pg_attribute a ON a.attrelid = g.oid AND a.attnum > 0 AND NOT a.attisdropped
       WHERE g.relkind IN ('r', 'v', 'f', 'p') AND g.privilege_type IN ('INSERT', 'SELECT', 'UPDATE', 'REFERENCES')
     UNION SELECT c.attrelid, c.attname, CASE WHEN c.grantee = '' THEN 'PUBLIC' ELSE ${unquoteRole('c.grantee')} END,
       ${unquoteRole('c.grantor')}, p.privilege_type, contains(c.privs, p.letter || '*')
       FROM (SELECT a.attrelid, a.attname, regexp_extract(a.acl, ${ACLITEM}, 1) AS grantee, regexp_extract(a.acl, ${ACLITEM}, 2) AS privs,
               regexp_extract(a.acl, ${ACLITEM}, 3) AS grantor
             FROM (SELECT attrelid, attname, unnest(attacl) AS acl FROM ${P}.pg_attribute WHERE attnum > 0 AND NOT attisdropped) a
             WHERE regexp_full_match(a.acl, ${ACLITEM})) c
       JOIN (VALUES ${ACL_LETTERS}) p(letter, privilege_type) ON contains(c.privs, p.letter)
       WHERE p.privilege_type IN ('INSERT', 'SELECT', 'UPDATE', 'REFERENCES')`,
    `CREATE OR REPLACE VIEW ${I}.column_privileges AS SELECT g.grantor, g.grantee, ${db} AS table_catalog,
       n.nspname AS table_schema, c.relname AS table_name, g.attname AS column_name, g.privilege_type,
       CASE WHEN g.grantable THEN 'YES' ELSE 'NO' END AS is_grantable
       FROM ${P}.lg_column_grants g JOIN ${P}.pg_class c ON c.oid = g.oid JOIN ${P}.pg_namespace n ON n.oid = c.relnamespace`,
    // pg_proc's functions (the allowlisted built-ins, executable by everyone), as PostgreSQL's view shows them to a
    // user who owns none of them (no routine_definition).
    `CREATE OR REPLACE VIEW ${I}.routines AS SELECT ${selectList(ROUTINES_COLUMNS, routineValues(db))}
       FROM ${P}.pg_proc p JOIN ${P}.pg_namespace n ON n.oid = p.pronamespace JOIN ${P}.pg_language l ON l.oid = p.prolang
       LEFT JOIN ${P}.pg_type t ON t.oid = p.prorettype LEFT JOIN ${P}.pg_namespace nt ON nt.oid = t.typnamespace
       LEFT JOIN (VALUES ${PSEUDO_TYPE_ROWS}) ps(oid, name) ON ps.oid = p.prorettype`,
    // One row per argument of each of those functions (OUT ones included), as PostgreSQL's view expands
    // coalesce(proallargtypes, proargtypes).
    `CREATE OR REPLACE VIEW ${I}.parameters AS SELECT ${selectList(PARAMETERS_COLUMNS, parameterValues(db))}
       FROM (SELECT a.*, unnest(range(1, len(a.args) + 1)) AS pos FROM (SELECT n.nspname, p.oid, p.proname, p.proargmodes,
               p.proargnames, coalesce(p.proallargtypes, list_transform(list_filter(string_split(p.proargtypes, ' '),
               lg_x -> lg_x <> ''), lg_x -> CAST(lg_x AS BIGINT))) AS args
             FROM ${P}.pg_proc p JOIN ${P}.pg_namespace n ON n.oid = p.pronamespace) a) ss
       LEFT JOIN ${P}.pg_type t ON t.oid = ss.args[ss.pos] LEFT JOIN ${P}.pg_namespace nt ON nt.oid = t.typnamespace
       LEFT JOIN (VALUES ${PSEUDO_TYPE_ROWS}) ps(oid, name) ON ps.oid = ss.args[ss.pos]`,
    `CREATE OR REPLACE VIEW ${I}.columns AS SELECT ${db} AS table_catalog, n.nspname AS table_schema,
       c.relname AS table_name, a.attname AS column_name, CAST(a.attnum AS INTEGER) AS ordinal_position,
       CAST(NULL AS VARCHAR) AS column_default, CASE WHEN a.attnotnull THEN 'NO' ELSE 'YES' END AS is_nullable,
       CASE WHEN t.typcategory = 'A' THEN 'ARRAY' WHEN t.oid = 1700 THEN 'numeric'
            ELSE ${P}.format_type(a.atttypid, NULL) END AS data_type,
       CASE WHEN a.atttypid IN (1042, 1043) AND a.atttypmod >= 4 THEN a.atttypmod - 4 END AS character_maximum_length,
       CASE WHEN a.atttypid IN (25, 1042, 1043) THEN 1073741824 END AS character_octet_length,
       CASE a.atttypid WHEN 21 THEN 16 WHEN 23 THEN 32 WHEN 20 THEN 64 WHEN 700 THEN 24 WHEN 701 THEN 53
            WHEN 1700 THEN CASE WHEN a.atttypmod >= 4 THEN ((a.atttypmod - 4) >> 16) & 65535 END END AS numeric_precision,
       CASE WHEN a.atttypid IN (21, 23, 20, 700, 701) THEN 2 WHEN a.atttypid = 1700 THEN 10 END AS numeric_precision_radix,
       CASE WHEN a.atttypid IN (21, 23, 20) THEN 0
            WHEN a.atttypid = 1700 AND a.atttypmod >= 4 THEN (a.atttypmod - 4) & 65535 END AS numeric_scale,
       CASE WHEN a.atttypid IN (1082) THEN 0 WHEN a.atttypid IN (1083, 1114, 1184, 1266, 1186) THEN 6 END AS datetime_precision,
       CAST(NULL AS VARCHAR) AS interval_type, CAST(NULL AS INTEGER) AS interval_precision,
       CAST(NULL AS VARCHAR) AS character_set_catalog, CAST(NULL AS VARCHAR) AS character_set_schema,
       CAST(NULL AS VARCHAR) AS character_set_name, CAST(NULL AS VARCHAR) AS collation_catalog,
       CAST(NULL AS VARCHAR) AS collation_schema, CAST(NULL AS VARCHAR) AS collation_name,
       CAST(NULL AS VARCHAR) AS domain_catalog, CAST(NULL AS VARCHAR) AS domain_schema,
       CAST(NULL AS VARCHAR) AS domain_name, ${db} AS udt_catalog, 'pg_catalog' AS udt_schema, t.typname AS udt_name,
       CAST(NULL AS VARCHAR) AS scope_catalog, CAST(NULL AS VARCHAR) AS scope_schema, CAST(NULL AS VARCHAR) AS scope_name,
       CAST(NULL AS INTEGER) AS maximum_cardinality, CAST(a.attnum AS VARCHAR) AS dtd_identifier,
       'NO' AS is_self_referencing, 'NO' AS is_identity, CAST(NULL AS VARCHAR) AS identity_generation,
       CAST(NULL AS VARCHAR) AS identity_start, CAST(NULL AS VARCHAR) AS identity_increment,
       CAST(NULL AS VARCHAR) AS identity_maximum, CAST(NULL AS VARCHAR) AS identity_minimum,
       CAST(NULL AS VARCHAR) AS identity_cycle, 'NEVER' AS is_generated, CAST(NULL AS VARCHAR) AS generation_expression,
       'NO' AS is_updatable
       FROM ${P}.pg_attribute a JOIN ${P}.pg_class c ON c.oid = a.attrelid
       JOIN ${P}.pg_namespace n ON n.oid = c.relnamespace JOIN ${P}.pg_type t ON t.oid = a.atttypid
       WHERE a.attnum > 0 AND NOT a.attisdropped`,
  ];
}
