/**
 * pg_stat_all_tables / pg_stat_user_tables / pg_statio_all_tables / pg_statio_user_tables as
 * views over the user's own pg_class, so they list exactly the tables pg_class shows the user
 * (DBeaver's and pgAdmin's table properties, Metabase's row estimates read them).
 *
 * Every counter is what PostgreSQL 15 shows for a table nobody has scanned, written or analyzed
 * since the server started: lakegate keeps no such counters, and pg_class.reltuples is -1
 * (never analyzed), so n_live_tup is 0 rather than the Iceberg snapshot's total-records, which
 * would need a catalog load per table for every read of the view. idx_* are NULL (no indexes),
 * toast_* / tidx_* NULL (reltoastrelid is 0: no TOAST table), the timestamps NULL.
 */
import { EMULATION_DB, PGC_SCHEMA } from '../sql/emulation.js';

const P = `${EMULATION_DB}.${PGC_SCHEMA}`;
const ZERO = 'CAST(0 AS BIGINT)';
const NO_COUNT = 'CAST(NULL AS BIGINT)';
const NEVER = 'CAST(NULL AS TIMESTAMPTZ)';

/** PostgreSQL's filter of the *_user_tables views over the *_all_tables ones. */
const USER_SCHEMAS = `schemaname NOT IN ('pg_catalog', 'information_schema') AND NOT regexp_matches(schemaname, '^pg_toast')`;

export function tableStatisticsStatements(): string[] {
  return [
    `CREATE OR REPLACE VIEW ${P}.pg_stat_all_tables AS SELECT c.oid AS relid, n.nspname AS schemaname, c.relname AS relname,
       ${ZERO} AS seq_scan, ${ZERO} AS seq_tup_read, ${NO_COUNT} AS idx_scan, ${NO_COUNT} AS idx_tup_fetch,
       ${ZERO} AS n_tup_ins, ${ZERO} AS n_tup_upd, ${ZERO} AS n_tup_del, ${ZERO} AS n_tup_hot_upd,
       ${ZERO} AS n_live_tup, ${ZERO} AS n_dead_tup, ${ZERO} AS n_mod_since_analyze, ${ZERO} AS n_ins_since_vacuum,
       ${NEVER} AS last_vacuum, ${NEVER} AS last_autovacuum, ${NEVER} AS last_analyze, ${NEVER} AS last_autoanalyze,
       ${ZERO} AS vacuum_count, ${ZERO} AS autovacuum_count, ${ZERO} AS analyze_count, ${ZERO} AS autoanalyze_count
       FROM ${P}.pg_class c LEFT JOIN ${P}.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 't', 'm', 'p')`,
    `CREATE OR REPLACE VIEW ${P}.pg_stat_user_tables AS SELECT * FROM ${P}.pg_stat_all_tables WHERE ${USER_SCHEMAS}`,
    `CREATE OR REPLACE VIEW ${P}.pg_statio_all_tables AS SELECT c.oid AS relid, n.nspname AS schemaname, c.relname AS relname,
       ${ZERO} AS heap_blks_read, ${ZERO} AS heap_blks_hit, ${NO_COUNT} AS idx_blks_read, ${NO_COUNT} AS idx_blks_hit,
       ${NO_COUNT} AS toast_blks_read, ${NO_COUNT} AS toast_blks_hit, ${NO_COUNT} AS tidx_blks_read, ${NO_COUNT} AS tidx_blks_hit
       FROM ${P}.pg_class c LEFT JOIN ${P}.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 't', 'm')`,
    `CREATE OR REPLACE VIEW ${P}.pg_statio_user_tables AS SELECT * FROM ${P}.pg_statio_all_tables WHERE ${USER_SCHEMAS}`,
  ];
}
