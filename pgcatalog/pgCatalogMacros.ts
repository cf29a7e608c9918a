/**
 * The emulation's functions as DuckDB macros. A macro body is expanded into the
 * caller's query, so its own table aliases are prefixed lg_ to never capture the
 * caller's `c` or `n`; macros that call each other use distinct prefixes.
 * (SQL macros run in the engine,
 * no JS call per row). They take PostgreSQL OIDs: DuckDB's own pg_catalog
 * functions of the same names use DuckDB's internal type ids.
 */
import { EMULATION_DB, INTERNAL_MACROS, OWNER_OID, PGC_SCHEMA } from '../sql/emulation.js';
import { formatMacroStatements } from '../sql/dialect/formatMacros.js';
import { jsonMacroStatements } from '../sql/dialect/jsonMacros.js';
import { numericMacroStatements } from '../sql/dialect/numericMacros.js';
import { builtinMacroStatements } from '../sql/dialect/builtinMacros.js';
import { privilegeMacroStatements } from './privilegeMacros.js';

const S = `${EMULATION_DB}.${PGC_SCHEMA}`;

export function macroStatements(owner: string): string[] {
  const ownerLit = `'${owner.replace(/'/g, "''")}'`;
  const m = (sig: string) => `CREATE OR REPLACE MACRO ${S}.${sig}`;
  return [
    m(`pg_get_userbyid(r) AS CASE WHEN r IS NULL THEN NULL WHEN r = ${OWNER_OID} THEN ${ownerLit} ELSE 'unknown (OID=' || r || ')' END`),
    m(`format_type(t, m) AS CASE
        WHEN t IS NULL THEN NULL
        WHEN t = 1700 AND m >= 4 THEN 'numeric(' || ((m - 4) >> 16) || ',' || ((m - 4) & 65535) || ')'
        WHEN t = 1231 AND m >= 4 THEN 'numeric(' || ((m - 4) >> 16) || ',' || ((m - 4) & 65535) || ')[]'
        WHEN t = 1043 AND m >= 4 THEN 'character varying(' || (m - 4) || ')'
        WHEN t = 1042 AND m >= 4 THEN 'character(' || (m - 4) || ')'
        ELSE coalesce((SELECT lg_t.formatted FROM ${S}.lg_type_names lg_t WHERE lg_t.oid = t), '???') END`),
    m(`pg_table_is_visible(rel, path) AS EXISTS (
        SELECT 1 FROM ${S}.pg_class lg_vc JOIN ${S}.pg_namespace lg_vn ON lg_vn.oid = lg_vc.relnamespace
        WHERE lg_vc.oid = rel AND list_contains(path, lg_vn.nspname) AND NOT EXISTS (
          SELECT 1 FROM ${S}.pg_class lg_vc2 JOIN ${S}.pg_namespace lg_vn2 ON lg_vn2.oid = lg_vc2.relnamespace
          WHERE lg_vc2.relname = lg_vc.relname AND list_contains(path, lg_vn2.nspname)
            AND list_position(path, lg_vn2.nspname) < list_position(path, lg_vn.nspname)))`),
    m(`pg_type_is_visible(t) AS EXISTS (SELECT 1 FROM ${S}.pg_type lg_t WHERE lg_t.oid = t)`),
    m(`pg_encoding_to_char(e) AS CASE e WHEN 6 THEN 'UTF8' WHEN 0 THEN 'SQL_ASCII' ELSE '' END`),
    // No defaults, partition bounds, policies or index predicates exist, so the stored text is NULL.
    m(`pg_get_expr(e, r) AS CAST(e AS VARCHAR), (e, r, p) AS CAST(e AS VARCHAR)`),
    m(`pg_get_indexdef(i) AS CAST(NULL AS VARCHAR), (i, c, p) AS CAST(NULL AS VARCHAR)`),
    m(`pg_get_constraintdef(c) AS CAST(NULL AS VARCHAR), (c, p) AS CAST(NULL AS VARCHAR)`),
    m(`pg_get_viewdef(v) AS CAST(NULL AS VARCHAR), (v, p) AS CAST(NULL AS VARCHAR)`),
    m(`pg_get_partkeydef(r) AS CAST(NULL AS VARCHAR)`),
    m(`pg_get_statisticsobjdef_columns(s) AS CAST(NULL AS VARCHAR)`),
    // PostgreSQL's own texts for the built-ins in pg_proc (pgcatalog/pgProc.ts); NULL for an unknown OID, as there
    m(`pg_get_function_result(f) AS (SELECT min(lg_pt.result) FROM ${S}.lg_proc_text lg_pt WHERE lg_pt.oid = f)`),
    m(`pg_get_function_arguments(f) AS (SELECT min(lg_pa.arguments) FROM ${S}.lg_proc_text lg_pa WHERE lg_pa.oid = f)`),
    m(`pg_get_function_identity_arguments(f) AS (SELECT min(lg_pi.identity_arguments) FROM ${S}.lg_proc_text lg_pi WHERE lg_pi.oid = f)`),
    m(`pg_get_function_sqlbody(f) AS CAST(NULL AS VARCHAR)`),
    // every listed function is a pg_catalog built-in, always on the path (information_schema's are not)
    m(`pg_function_is_visible(f) AS EXISTS (SELECT 1 FROM ${S}.pg_proc lg_fv WHERE lg_fv.oid = f AND lg_fv.pronamespace = 11)`),
    // by name or OID; the size of the data in object storage is not known here (like the relation sizes)
    // no sequences exist (SQLAlchemy's get_columns asks for identity columns' sequences)
    m(`pg_get_serial_sequence(t, c) AS CAST(NULL AS VARCHAR)`),
    // in a target list (SQLAlchemy's index query, next to unnest(indkey)): the subscripts of dimension 1
    m(`generate_subscripts(a, d) AS unnest(CASE WHEN d = 1 THEN range(1, len(a) + 1) END)`),
    m(`pg_collation_is_visible(c) AS EXISTS (SELECT 1 FROM ${S}.pg_collation lg_cv WHERE lg_cv.oid = c)`),
    // the object kinds lakegate has none of (pgcatalog/pgCatalogTables.ts): their tables are empty, so is nothing visible
    ...([['operator', 'pg_operator'], ['opclass', 'pg_opclass'], ['opfamily', 'pg_opfamily'], ['conversion', 'pg_conversion'],
      ['statistics_obj', 'pg_statistic_ext'], ['ts_config', 'pg_ts_config'], ['ts_dict', 'pg_ts_dict'], ['ts_parser', 'pg_ts_parser'],
      ['ts_template', 'pg_ts_template']] as const).map(([kind, table]) =>
      m(`pg_${kind}_is_visible(o) AS EXISTS (SELECT 1 FROM ${S}.${table} lg_ov WHERE lg_ov.oid = o)`)),
    // pg_default and pg_global live in the data directory: PostgreSQL answers '' for them
    m(`pg_tablespace_location(t) AS CASE WHEN t IS NOT NULL THEN '' END`),
    m(`pg_tablespace_size(t) AS CAST(0 AS BIGINT)`),
    m(`getdatabaseencoding() AS 'UTF8'`),
    m(`pg_char_to_encoding(n) AS CASE upper(CAST(n AS VARCHAR)) WHEN 'UTF8' THEN 6 WHEN 'UTF-8' THEN 6 WHEN 'SQL_ASCII' THEN 0 ELSE -1 END`),
    // PostgreSQL's own definitions of the built-ins (pgcatalog/pgProc.ts); an aggregate has none, as there
    m(`pg_get_functiondef(f) AS (SELECT CASE WHEN lg_fd.prokind = 'a' THEN error('"' || lg_fd.proname || '" is an aggregate function')
        ELSE lg_fd.definition END FROM ${S}.lg_proc_text lg_fd WHERE lg_fd.oid = f)`),
    // 'name'::regproc / 'name(args)'::regprocedure as OIDs (sql/dialect.ts): regprocin's answers and errors
    m(`lg_regproc_oid(n, written) AS (SELECT CASE count(*) WHEN 1 THEN min(lg_ro.oid)
        WHEN 0 THEN error('function "' || written || '" does not exist') ELSE error('more than one function named "' || written || '"') END
        FROM ${S}.lg_proc_text lg_ro WHERE lg_ro.proname = n)`),
    m(`lg_regprocedure_oid(n, args, written) AS (SELECT coalesce(min(lg_rpo.oid), error('function "' || written || '" does not exist'))
        FROM ${S}.lg_proc_text lg_rpo WHERE lg_rpo.proname = n AND lg_rpo.identity_arguments = args)`),
    m(`pg_database_size(d) AS CAST(0 AS BIGINT)`),
    // PostgreSQL parses the name with the type grammar; here: a known type name, alias or array form, else NULL
    m(`to_regtype(n) AS (SELECT min(lg_rt.oid) FROM ${S}.lg_type_lookup lg_rt
        WHERE lg_rt.name = regexp_replace(lower(trim(CAST(n AS VARCHAR))), '^pg_catalog[.]', ''))`),
    m(`pg_relation_is_publishable(r) AS false`),
    // Sizes live in object storage and are not known here; PostgreSQL says 0 for relations without storage.
    m(`pg_total_relation_size(r) AS CAST(0 AS BIGINT)`),
    m(`pg_relation_size(r) AS CAST(0 AS BIGINT), (r, f) AS CAST(0 AS BIGINT)`),
    m(`pg_table_size(r) AS CAST(0 AS BIGINT)`),
    m(`pg_indexes_size(r) AS CAST(0 AS BIGINT)`),
    m(`pg_size_pretty(s) AS CASE WHEN s < 10240 THEN s || ' bytes' WHEN s < 10485760 THEN round(s / 1024.0) || ' kB'
        WHEN s < 10737418240 THEN round(s / 1048576.0) || ' MB' ELSE round(s / 1073741824.0) || ' GB' END`),
    m(`obj_description(o) AS (SELECT min(lg_d.description) FROM ${S}.pg_description lg_d WHERE lg_d.objoid = o AND lg_d.objsubid = 0),
       (o, cat) AS (SELECT min(lg_d.description) FROM ${S}.pg_description lg_d WHERE lg_d.objoid = o AND lg_d.objsubid = 0)`),
    m(`col_description(o, n) AS (SELECT min(lg_d.description) FROM ${S}.pg_description lg_d WHERE lg_d.objoid = o AND lg_d.objsubid = n)`),
    m(`shobj_description(o, cat) AS CAST(NULL AS VARCHAR)`),
    // The planner turns a relation named by a constant into its OID (42P01 when this user cannot load it);
    // an OID is true when the relation is in this user's pg_class, NULL otherwise (PostgreSQL: NULL for an unknown OID).
    m(`lg_visible_rel(r) AS CASE WHEN EXISTS (SELECT 1 FROM ${S}.pg_class lg_hp WHERE lg_hp.oid = TRY_CAST(r AS BIGINT)) THEN true END`),
    m(`pg_has_role(a, b) AS true, (a, b, c) AS true`),
    m(`pg_is_other_temp_schema(n) AS false`),
    m(`pg_my_temp_schema() AS CAST(0 AS BIGINT)`),
    m(`pg_stat_get_numscans(r) AS CAST(0 AS BIGINT)`),
    m(`array_upper(a, d) AS CASE WHEN d = 1 AND len(a) > 0 THEN CAST(len(a) AS INTEGER) END`),
    m(`array_lower(a, d) AS CASE WHEN d = 1 AND len(a) > 0 THEN 1 END`),
    m(`_pg_expandarray(a) AS unnest(list_transform(a, (v, i) -> {'x': v, 'n': CAST(i AS INTEGER)}))`),
    m(`regclass_out(r, path) AS coalesce((SELECT CASE WHEN ${S}.pg_table_is_visible(lg_c.oid, path) THEN lg_c.relname
        ELSE lg_n.nspname || '.' || lg_c.relname END FROM ${S}.pg_class lg_c JOIN ${S}.pg_namespace lg_n
        ON lg_n.oid = lg_c.relnamespace WHERE lg_c.oid = r), CAST(r AS VARCHAR))`),
    // A relation name known only at Bind (`$1::regclass`) → its OID in this user's pg_class, as regclassin
    // resolves it (42P01 when this user cannot see it); digits are an OID already.
    m(`lg_regclass_part(t, i) AS CASE WHEN starts_with(trim(string_split(t, '.')[i]), '"')
        THEN replace(trim(string_split(t, '.')[i])[2:-2], '""', '"') ELSE lower(trim(string_split(t, '.')[i])) END`),
    m(`lg_regclass_in(t, path) AS CASE WHEN t IS NULL THEN NULL
        WHEN regexp_full_match(trim(t), '[0-9]+') THEN CAST(trim(t) AS BIGINT)
        ELSE coalesce((SELECT lg_c.oid FROM ${S}.pg_class lg_c JOIN ${S}.pg_namespace lg_n ON lg_n.oid = lg_c.relnamespace
          WHERE lg_c.relname = ${S}.lg_regclass_part(t, -1) AND CASE WHEN NOT contains(t, '.')
            THEN list_contains(path, lg_n.nspname) ELSE lg_n.nspname = ${S}.lg_regclass_part(t, -2) END
          ORDER BY list_position(path, lg_n.nspname) LIMIT 1), error('relation "' || t || '" does not exist')) END`),
    // x::regclass of a column: a name is resolved as regclassin does (42P01 when this user cannot see it), an OID
    // is printed as regclassout does; the overload is chosen by x's type (the last argument, never evaluated)
    m(`lg_regclass_t(x, path, t VARCHAR) AS ${S}.regclass_out(${S}.lg_regclass_in(x, path), path),
       (x, path, t) AS ${S}.regclass_out(x, path)`),
    m(`lg_regclass(x, path) AS ${S}.lg_regclass_t(x, path, x)`),
    // A relation by OID, or by a name known only when the statement runs (Metabase's `'"' || schema || '"."' || name || '"'`):
    // resolved as regclassin does (42P01 for one this user cannot see); an OID's digits are the OID.
    m(`lg_rel_oid(x, path) AS ${S}.lg_regclass_in(CAST(x AS VARCHAR), path)`),
    m(`regtype_out(t) AS ${S}.format_type(t, NULL)`),
    // x::regtype[] of an oid[] or an oidvector (its text, OIDs apart by spaces); the overload is chosen by x's type
    m(`lg_regtype_list(l) AS CASE WHEN l IS NULL THEN NULL ELSE coalesce((SELECT list(${S}.regtype_out(lg_ru.v) ORDER BY lg_ru.i)
        FROM (SELECT unnest(l) AS v, generate_subscripts(l, 1) AS i) lg_ru), CAST([] AS VARCHAR[])) END`),
    m(`lg_regtype_arr(a, t VARCHAR) AS ${S}.lg_regtype_list(CASE WHEN trim(a) = '' THEN CAST([] AS BIGINT[]) ELSE CAST(string_split(trim(a), ' ') AS BIGINT[]) END),
       (a, t) AS ${S}.lg_regtype_list(CAST(a AS BIGINT[]))`),
    m(`${INTERNAL_MACROS.regtypeArray}(a) AS ${S}.lg_regtype_arr(a, a)`),
    m(`regnamespace_out(o) AS coalesce((SELECT lg_n.nspname FROM ${S}.pg_namespace lg_n WHERE lg_n.oid = o), CAST(o AS VARCHAR))`),
    ...privilegeMacroStatements(m, S),
    ...numericMacroStatements(m, S),
    ...builtinMacroStatements(m, S),
    ...jsonMacroStatements(m, S),
    ...formatMacroStatements(m, S),
    // PostgreSQL's limit on a built string (1 GB less the header), with its words; the error() also keeps
    // a huge constant repeat() from being folded at prepare time, where no interrupt reaches it.
    m(`${INTERNAL_MACROS.repeat}(s, n) AS CASE WHEN n > 0 AND strlen(s) > 0 AND n > 1073741819 // strlen(s)
        THEN error('requested length too large') ELSE repeat(s, greatest(n, 0)) END`),
    m(`${INTERNAL_MACROS.lpad}(s, n) AS CASE WHEN n > 268435454 THEN error('requested length too large') ELSE lpad(s, greatest(n, 0), ' ') END,
       (s, n, f) AS CASE WHEN n > 268435454 THEN error('requested length too large') ELSE lpad(s, greatest(n, 0), f) END`),
    m(`${INTERNAL_MACROS.rpad}(s, n) AS CASE WHEN n > 268435454 THEN error('requested length too large') ELSE rpad(s, greatest(n, 0), ' ') END,
       (s, n, f) AS CASE WHEN n > 268435454 THEN error('requested length too large') ELSE rpad(s, greatest(n, 0), f) END`),
    // A LIKE pattern → RE2, token by token (sql/like.ts): an escaped character, %, _ or one character.
    // list_aggr(…, 'string_agg'), not array_to_string: the engine must know the type of a parameter's translation
    // at prepare time; the empty list (an empty pattern) aggregates to NULL, hence the coalesce.
    m(`${INTERNAL_MACROS.likeRegex}(p, tokens) AS CASE WHEN p IS NOT NULL THEN coalesce(list_aggr(list_transform(regexp_extract_all(p, tokens), t ->
        CASE WHEN length(t) = 2 THEN (CASE WHEN regexp_matches(t[2], '^[[:punct:]]$') THEN '\\' || t[2] ELSE t[2] END)
        WHEN t = '%' THEN '.*' WHEN t = '_' THEN '.'
        WHEN regexp_matches(t, '^[[:punct:]]$') THEN '\\' || t ELSE t END), 'string_agg', ''), '') END`),
    // PostgreSQL's keyword list (pgcatalog/pgBuiltins.ts): pgJDBC's getSQLKeywords and DBeaver read it
    m(`pg_get_keywords() AS TABLE SELECT * FROM ${S}.lg_keywords`),
  ];
}
