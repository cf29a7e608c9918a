/**
 * pg_proc: PostgreSQL's own rows for the functions lakegate accepts
 * (sql/functions.ts ALLOWED_FUNCTION_NAMES), so psql's \df, pgJDBC's
 * getFunctions and DBeaver list what a user can call, with PostgreSQL's
 * signatures. The rows are taken from a real PostgreSQL 15 by
 * scripts/gen-pg-proc.mjs into pgcatalog/pgBuiltins.ts; pgcatalog/pgProc.test.ts
 * checks them against PostgreSQL and against the allowlist.
 */
import { OWNER_OID } from '../sql/emulation.js';
import type { Value } from './pgCatalogTables.js';

/** One function as PostgreSQL 15 describes it (the columns of PG_PROC_QUERY, in order). */
export type ProcRow = readonly [
  oid: number, proname: string, pronamespace: number, prolang: number, procost: number, prorows: number,
  provariadic: number, prosupport: string, prokind: string, prosecdef: boolean, proleakproof: boolean,
  proisstrict: boolean, proretset: boolean, provolatile: string, proparallel: string, pronargs: number,
  pronargdefaults: number, prorettype: number, proargtypes: readonly number[], proallargtypes: readonly number[] | null,
  proargmodes: readonly string[] | null, proargnames: readonly string[] | null, prosrc: string,
  result: string, args: string, identityArgs: string, description: string | null, functiondef: string | null,
  /** pg_get_expr(proargdefaults, 0): the defaults as PostgreSQL prints them */
  argDefaults: string | null,
];

/** A type a built-in's signature names, as format_type prints it (money, inet, anyarray …, also those lakegate has no pg_type row for). */
export type ProcTypeRow = readonly [oid: number, formatted: string];

/** pg_get_keywords(): word, catcode, barelabel, catdesc, baredesc. */
export type KeywordRow = readonly [word: string, catcode: string, barelabel: boolean, catdesc: string, baredesc: string];

export const PG_KEYWORDS_QUERY = 'SELECT word::text, catcode::text, barelabel, catdesc, baredesc FROM pg_catalog.pg_get_keywords() ORDER BY word';

export const KEYWORD_COLUMNS = 'word VARCHAR, catcode VARCHAR, barelabel BOOLEAN, catdesc VARCHAR, baredesc VARCHAR';

/** $1: the function names. Built-ins only (pg_catalog, information_schema). */
export const PG_PROC_QUERY = `SELECT p.oid::int8::int4, p.proname::text, p.pronamespace::int8::int4, p.prolang::int8::int4,
  p.procost, p.prorows, p.provariadic::int8::int4, p.prosupport::text, p.prokind::text, p.prosecdef, p.proleakproof,
  p.proisstrict, p.proretset, p.provolatile::text, p.proparallel::text, p.pronargs::int4, p.pronargdefaults::int4,
  p.prorettype::int8::int4, p.proargtypes::oid[]::int8[]::int4[], p.proallargtypes::int8[]::int4[],
  p.proargmodes::text[], p.proargnames, p.prosrc, pg_catalog.pg_get_function_result(p.oid),
  pg_catalog.pg_get_function_arguments(p.oid), pg_catalog.pg_get_function_identity_arguments(p.oid),
  pg_catalog.obj_description(p.oid, 'pg_proc'),
  CASE WHEN p.prokind <> 'a' THEN pg_catalog.pg_get_functiondef(p.oid) END,
  pg_catalog.pg_get_expr(p.proargdefaults, 0)
  FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
  WHERE n.nspname IN ('pg_catalog', 'information_schema') AND p.proname = ANY($1::text[])
  ORDER BY p.oid`;

/** $1: the type OIDs the rows name. */
export const PG_PROC_TYPES_QUERY = `SELECT t.oid::int8::int4, pg_catalog.format_type(t.oid, NULL) FROM pg_catalog.pg_type t
  WHERE t.oid = ANY($1::oid[]) ORDER BY t.oid`;

/** Every type OID the rows' result and argument types name. */
export function procTypeOids(rows: readonly ProcRow[]): number[] {
  return [...new Set(rows.flatMap((r) => [r[17], ...r[18], ...(r[19] ?? [])]))].sort((a, b) => a - b);
}

/** The pg_proc rows, in the emulation's column order (pgcatalog/pgCatalogTables.ts EMPTY_TABLES' old shape). */
export function procRows(rows: readonly ProcRow[]): Value[][] {
  return rows.map((r) => [
    r[0], r[1], r[2], OWNER_OID, r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14],
    // proargtypes is an oidvector: clients read its text form, OIDs separated by spaces (pgJDBC getFunctionColumns splits it)
    // proargdefaults holds the defaults' text, which the emulation's pg_get_expr answers as it is (no node trees here)
    r[15], r[16], r[17], r[18].join(' '), r[19], r[20], r[21], r[28], null, r[22], null, null, null, null,
  ]);
}

/** [oid, result, arguments, identity arguments, name, kind, definition] for pg_get_function_result / _arguments / pg_get_functiondef. */
export function procTextRows(rows: readonly ProcRow[]): Value[][] {
  return rows.map((r) => [r[0], r[23], r[24], r[25], r[1], r[8], r[27]]);
}

/** pg_description rows of the functions (obj_description(oid, 'pg_proc'), psql's \df+). */
export function procDescriptionRows(rows: readonly ProcRow[]): Value[][] {
  return rows.filter((r) => r[26] !== null).map((r) => [r[0], PG_PROC_CLASS_OID, 0, r[26]]);
}

const PG_PROC_CLASS_OID = 1255;

export const PROC_TEXT_COLUMNS = 'oid BIGINT, result VARCHAR, arguments VARCHAR, identity_arguments VARCHAR, proname VARCHAR, prokind VARCHAR, definition VARCHAR';

/** pg_language: the languages the built-ins are written in. */
export const LANGUAGE_ROWS: Value[][] = [
  [12, 'internal', OWNER_OID, false, false, 0, 0, 2246, null],
  [13, 'c', OWNER_OID, false, false, 0, 0, 2247, null],
  [14, 'sql', OWNER_OID, false, true, 0, 0, 2248, null],
];
