/**
 * has_table_privilege, has_column_privilege, has_any_column_privilege, has_schema_privilege and
 * has_database_privilege as DuckDB macros over the session's own catalog: they read the ACL columns
 * that installUserCatalog fills from the gates (relacl, attacl, nspacl), so every answer agrees with
 * \dp, information_schema's privilege views and pgJDBC's privilege calls.
 *
 * As PostgreSQL (acl.c): the privilege text is a comma-separated list, each item trimmed and matched
 * without regard to case, optionally `WITH GRANT OPTION`; the list holds if one item does; an unknown
 * item is 22023 `unrecognized privilege type`. A relation named by text is resolved as regclassin does
 * (42P01 when this user cannot see it), one named by OID that the user cannot see is NULL. A user
 * argument naming the session user or one of its roles is answered with the session user's privileges
 * (the catalog shows no other principal's); PUBLIC and the owner role hold nothing; a role the catalog
 * does not show is 42704.
 */
import { INFORMATION_SCHEMA_NSP_OID, PG_CATALOG_NSP_OID, OWNER_OID } from '../sql/emulation.js';

/** PostgreSQL's privilege words per object kind → aclitem letters (`*`: the grant option, never held). */
const MODES = {
  table: { select: 'r', insert: 'a', update: 'w', delete: 'd', truncate: 'D', references: 'x', trigger: 't' },
  column: { select: 'r', insert: 'a', update: 'w', references: 'x' },
  schema: { create: 'C', usage: 'U' },
  database: { create: 'C', connect: 'c', temporary: 'T', temp: 'T' },
} as const;

function modeMap(kind: keyof typeof MODES): string {
  const entries = Object.entries(MODES[kind]).flatMap(([word, letter]) => [`'${word}': '${letter}'`, `'${word} with grant option': '${letter}*'`]);
  return `MAP {${entries.join(', ')}}`;
}

export function privilegeMacroStatements(m: (sig: string) => string, S: string): string[] {
  const system = `(${PG_CATALOG_NSP_OID}, ${INFORMATION_SCHEMA_NSP_OID})`;
  return [
    // the privilege list as letters; an unknown word raises PostgreSQL's error
    m(`lg_priv_modes(p, modes) AS list_transform(string_split(CAST(p AS VARCHAR), ','),
        lg_pm -> coalesce(modes[lower(trim(lg_pm))], error('unrecognized privilege type: "' || trim(lg_pm) || '"')))`),
    // no lambda over `letters`: it is a subquery where the macros expand, and DuckDB takes none inside a lambda
    m(`lg_priv_holds(letters, modes) AS list_has_any(modes, string_split(letters, ''))`),
    m(`lg_acl_letters(acl) AS coalesce(regexp_extract(acl[1], '=([^/]*)/', 1), '')`),
    // true: the session user or one of its roles; false: PUBLIC or the owner; 42704: no such role in this catalog
    m(`lg_priv_self(u) AS (SELECT CASE WHEN lg_u.v IS NULL THEN NULL WHEN lg_u.v = 'public' THEN false
        WHEN lg_ro.oid IS NOT NULL THEN lg_ro.oid <> ${OWNER_OID}
        WHEN regexp_full_match(lg_u.v, '[0-9]+') THEN error('role with OID ' || lg_u.v || ' does not exist')
        ELSE error('role "' || lg_u.v || '" does not exist') END
        FROM (SELECT CAST(u AS VARCHAR) AS v) lg_u LEFT JOIN ${S}.pg_roles lg_ro ON lg_ro.rolname = lg_u.v OR CAST(lg_ro.oid AS VARCHAR) = lg_u.v
        ORDER BY lg_ro.rolname = lg_u.v DESC LIMIT 1)`),
    // a relation's table privileges: its relacl (NULL: the owner's defaults, shown as SELECT); the system catalogs' SELECT is PUBLIC's
    m(`lg_relacl_letters(nsp, acl) AS CASE WHEN nsp IN ${system} OR acl IS NULL THEN 'r' ELSE ${S}.lg_acl_letters(acl) END`),
    // Each of these names the relation once, in one subquery over this user's pg_class (a macro's argument is copied for
    // every mention: sql/emulation.ts MACRO_ARG_COPIES). A column's privileges are the table's and its own attacl (SELECT
    // on a readable column of a table whose SELECT is withheld).
    m(`lg_table_priv(r, p, self) AS (SELECT CASE WHEN len(${S}.lg_priv_modes(lg_t1.p, ${modeMap('table')})) < 0 THEN NULL
        WHEN lg_tc.oid IS NULL THEN NULL WHEN NOT lg_t1.self THEN false
        ELSE ${S}.lg_priv_holds(${S}.lg_relacl_letters(lg_tc.relnamespace, lg_tc.relacl), ${S}.lg_priv_modes(lg_t1.p, ${modeMap('table')})) END
        FROM (SELECT TRY_CAST(r AS BIGINT) AS r, p AS p, self AS self) lg_t1 LEFT JOIN ${S}.pg_class lg_tc ON lg_tc.oid = lg_t1.r)`),
    m(`lg_col_priv(r, col, p, self) AS (SELECT CASE WHEN len(${S}.lg_priv_modes(lg_c1.p, ${modeMap('column')})) < 0 THEN NULL
        WHEN lg_cc.oid IS NULL OR lg_c1.col IS NULL THEN NULL
        WHEN lg_ca.attname IS NULL AND lg_cc.relnamespace NOT IN ${system}
          THEN error('column "' || lg_c1.col || '" of relation "' || lg_cc.relname || '" does not exist')
        WHEN NOT lg_c1.self THEN false
        ELSE ${S}.lg_priv_holds(${S}.lg_relacl_letters(lg_cc.relnamespace, lg_cc.relacl) || ${S}.lg_acl_letters(lg_ca.attacl),
          ${S}.lg_priv_modes(lg_c1.p, ${modeMap('column')})) END
        FROM (SELECT TRY_CAST(r AS BIGINT) AS r, CAST(col AS VARCHAR) AS col, p AS p, self AS self) lg_c1
        LEFT JOIN ${S}.pg_class lg_cc ON lg_cc.oid = lg_c1.r
        LEFT JOIN ${S}.pg_attribute lg_ca ON lg_ca.attrelid = lg_cc.oid AND lg_ca.attname = lg_c1.col AND lg_ca.attnum > 0)`),
    m(`lg_any_col_priv(r, p, self) AS (SELECT CASE WHEN len(${S}.lg_priv_modes(lg_a1.p, ${modeMap('column')})) < 0 THEN NULL
        WHEN lg_ac.oid IS NULL THEN NULL WHEN NOT lg_a1.self THEN false
        ELSE ${S}.lg_priv_holds(${S}.lg_relacl_letters(lg_ac.relnamespace, lg_ac.relacl) || coalesce(lg_aa.letters, ''),
          ${S}.lg_priv_modes(lg_a1.p, ${modeMap('column')})) END
        FROM (SELECT TRY_CAST(r AS BIGINT) AS r, p AS p, self AS self) lg_a1 LEFT JOIN ${S}.pg_class lg_ac ON lg_ac.oid = lg_a1.r
        LEFT JOIN (SELECT lg_ab.attrelid, string_agg(${S}.lg_acl_letters(lg_ab.attacl), '') AS letters FROM ${S}.pg_attribute lg_ab
          WHERE lg_ab.attnum > 0 GROUP BY lg_ab.attrelid) lg_aa ON lg_aa.attrelid = lg_ac.oid)`),
    m(`has_table_privilege(a, b, path) AS ${S}.lg_table_priv(${S}.lg_rel_oid(a, path), b, true),
       (a, b, c, path) AS ${S}.lg_table_priv(${S}.lg_rel_oid(b, path), c, ${S}.lg_priv_self(a))`),
    m(`has_column_privilege(a, b, c, path) AS ${S}.lg_col_priv(${S}.lg_rel_oid(a, path), b, c, true),
       (a, b, c, d, path) AS ${S}.lg_col_priv(${S}.lg_rel_oid(b, path), c, d, ${S}.lg_priv_self(a))`),
    m(`has_any_column_privilege(a, b, path) AS ${S}.lg_any_col_priv(${S}.lg_rel_oid(a, path), b, true),
       (a, b, c, path) AS ${S}.lg_any_col_priv(${S}.lg_rel_oid(b, path), c, ${S}.lg_priv_self(a))`),
    // a schema by name (3F000 when this user's catalog has none) or by OID (NULL when unknown); USAGE on every
    // schema listed, CREATE where nspacl says the gates allow it
    m(`lg_nsp_oid(s) AS (SELECT CASE WHEN lg_s.v IS NULL THEN NULL WHEN lg_sn.oid IS NOT NULL THEN lg_sn.oid
        WHEN regexp_full_match(lg_s.v, '[0-9]+') THEN CAST(lg_s.v AS BIGINT)
        ELSE error('schema "' || lg_s.v || '" does not exist') END
        FROM (SELECT CAST(s AS VARCHAR) AS v) lg_s LEFT JOIN ${S}.pg_namespace lg_sn ON lg_sn.nspname = lg_s.v)`),
    m(`lg_schema_priv(n, p, self) AS (SELECT CASE WHEN len(${S}.lg_priv_modes(lg_s1.p, ${modeMap('schema')})) < 0 THEN NULL
        WHEN lg_sp.oid IS NULL THEN NULL WHEN NOT lg_s1.self THEN false
        ELSE ${S}.lg_priv_holds(CASE WHEN lg_sp.oid IN ${system} OR lg_sp.nspacl IS NULL THEN 'U' ELSE ${S}.lg_acl_letters(lg_sp.nspacl) END,
          ${S}.lg_priv_modes(lg_s1.p, ${modeMap('schema')})) END
        FROM (SELECT n AS n, p AS p, self AS self) lg_s1 LEFT JOIN ${S}.pg_namespace lg_sp ON lg_sp.oid = lg_s1.n)`),
    m(`has_schema_privilege(a, b) AS ${S}.lg_schema_priv(${S}.lg_nsp_oid(a), b, true),
       (a, b, c) AS ${S}.lg_schema_priv(${S}.lg_nsp_oid(b), c, ${S}.lg_priv_self(a))`),
    // CONNECT and TEMPORARY for the database the session is in; CREATE (a schema) is decided per new name, not here: false
    m(`lg_database_priv(p, self) AS CASE WHEN len(${S}.lg_priv_modes(p, ${modeMap('database')})) < 0 THEN NULL WHEN NOT self THEN false
        ELSE ${S}.lg_priv_holds('cT', ${S}.lg_priv_modes(p, ${modeMap('database')})) END`),
    m(`has_database_privilege(a, b) AS CASE WHEN a IS NULL THEN NULL ELSE ${S}.lg_database_priv(b, true) END,
       (a, b, c) AS CASE WHEN b IS NULL THEN NULL ELSE ${S}.lg_database_priv(c, ${S}.lg_priv_self(a)) END`),
  ];
}
