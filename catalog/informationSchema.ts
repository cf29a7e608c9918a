/**
 * information_schema.tables / columns / schemata / views as views over the
 * emulated pg_catalog, so both always agree. data_type and the numeric
 * columns follow PostgreSQL's information_schema definitions.
 */
import { EMULATION_DB, INFO_SCHEMA, PGC_SCHEMA } from '../sql/emulation.js';

const P = `${EMULATION_DB}.${PGC_SCHEMA}`;
const I = `${EMULATION_DB}.${INFO_SCHEMA}`;

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
