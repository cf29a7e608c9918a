/**
 * Helpers of sql/dialect/format.ts as DuckDB macros: initcap, quote_ident,
 * quote_literal, pg_typeof's PostgreSQL names, regexp_matches' rows, div().
 */
export function formatMacroStatements(m: (sig: string) => string, schema: string): string[] {
  return [
    // a letter or digit after a letter or digit is lower case, any other upper case (PostgreSQL's initcap)
    m(`lg_initcap(s) AS CASE WHEN s IS NOT NULL THEN list_aggr(list_transform(range(1, length(s) + 1), lg_i ->
        CASE WHEN lg_i > 1 AND regexp_matches(substr(s, lg_i - 1, 1), '^[[:alnum:]]$') THEN lower(substr(s, lg_i, 1))
        ELSE upper(substr(s, lg_i, 1)) END), 'string_agg', '') END`),
    m(`lg_quote_ident(s) AS CASE WHEN regexp_matches(s, '^[a-z_][a-z0-9_$]*$') THEN s ELSE '"' || replace(s, '"', '""') || '"' END`),
    m(`lg_quote_literal(s) AS CASE WHEN strpos(s, '\\') > 0 THEN 'E''' || replace(replace(s, '\\', '\\\\'), '''', '''''') || ''''
        ELSE '''' || replace(s, '''', '''''') || '''' END`),
    m(`lg_pg_typename(t) AS CASE WHEN t LIKE 'DECIMAL%' THEN 'numeric' WHEN t LIKE '%[]' THEN 'array' ELSE coalesce(map_extract(MAP {
        'INTEGER': 'integer', 'BIGINT': 'bigint', 'SMALLINT': 'smallint', 'DOUBLE': 'double precision', 'FLOAT': 'real',
        'VARCHAR': 'text', 'BOOLEAN': 'boolean', 'DATE': 'date', 'TIMESTAMP': 'timestamp without time zone',
        'TIMESTAMP WITH TIME ZONE': 'timestamp with time zone', 'INTERVAL': 'interval', 'TIME': 'time without time zone',
        'JSON': 'json', 'UUID': 'uuid', 'BLOB': 'bytea', 'HUGEINT': 'numeric', '"NULL"': 'unknown'}, t)[1], lower(t)) END`),
    m(`lg_pg_typeof(x) AS ${schema}.lg_pg_typename(typeof(x))`),
    m(`lg_record_quote(s) AS CASE WHEN s IS NULL THEN '' WHEN s = '' OR regexp_matches(s, '["\\\\(),[:space:]]')
        THEN '"' || replace(replace(s, '\\', '\\\\'), '"', '""') || '"' ELSE s END`),
    // a field of PostgreSQL's record text: quoted when empty or holding "\(), or blanks; NULL as nothing
    m(`lg_record_field(x) AS ${schema}.lg_record_quote(CASE WHEN typeof(x) = 'BOOLEAN'
        THEN (CASE CAST(x AS VARCHAR) WHEN 'true' THEN 't' WHEN 'false' THEN 'f' END) ELSE CAST(x AS VARCHAR) END)`),
    // to_char's number templates (sql/dialect/format.ts numberTemplate): body is |x| with the template's decimals
    m(`lg_to_char_sign(num, neg, fm, width) AS CASE WHEN fm THEN (CASE WHEN neg THEN '-' ELSE '' END) || num
        ELSE lpad((CASE WHEN neg THEN '-' ELSE ' ' END) || num, CAST(greatest(width, length(num) + 1) AS INTEGER), ' ') END`),
    m(`lg_to_char_num2(ip, fp, neg, digits, min_int, grouped, fm, point, frac_min, width, overflow) AS
        CASE WHEN ip IS NULL THEN NULL WHEN length(ip) > digits AND NOT (ip = '0' AND min_int = 0) THEN overflow
        ELSE ${schema}.lg_to_char_sign(
          (CASE WHEN ip = '0' AND min_int = 0 THEN (CASE WHEN point THEN '' ELSE '0' END) WHEN grouped THEN format('{:,}', CAST(ip AS HUGEINT)) ELSE lpad(ip, CAST(greatest(min_int, length(ip)) AS INTEGER), '0') END)
          || (CASE WHEN NOT point THEN '' WHEN fm THEN '.' || rpad(rtrim(fp, '0'), CAST(greatest(frac_min, length(rtrim(fp, '0'))) AS INTEGER), '0') ELSE '.' || fp END),
          neg, fm, width) END`),
    // the S / MI / PR forms (sign anchored to the number, or in a column of its own after it): mode is 'S<' (a leading
    // S), 'S>' (a trailing S), 'MI' (a trailing MI) or 'PR' (a negative value in angle brackets); width is the template's
    m(`lg_to_char_snum2(ip, fp, neg, digits, min_int, grouped, fm, point, frac_min, width, hashes, mode) AS
        CASE WHEN ip IS NULL THEN NULL WHEN length(ip) > digits AND NOT (ip = '0' AND min_int = 0) THEN (CASE mode
          WHEN 'S<' THEN (CASE WHEN neg THEN '-' ELSE '+' END) || hashes WHEN 'S>' THEN hashes || (CASE WHEN neg THEN '-' ELSE '+' END)
          WHEN 'MI' THEN hashes || (CASE WHEN neg THEN '-' ELSE ' ' END) ELSE (CASE WHEN neg THEN '<' || hashes || '>' ELSE ' ' || hashes || ' ' END) END)
        ELSE ${schema}.lg_to_char_snum3(
          (CASE WHEN ip = '0' AND min_int = 0 THEN (CASE WHEN point THEN '' ELSE '0' END) WHEN grouped THEN format('{:,}', CAST(ip AS HUGEINT)) ELSE lpad(ip, CAST(greatest(min_int, length(ip)) AS INTEGER), '0') END)
          || (CASE WHEN NOT point THEN '' WHEN fm THEN '.' || rpad(rtrim(fp, '0'), CAST(greatest(frac_min, length(rtrim(fp, '0'))) AS INTEGER), '0') ELSE '.' || fp END),
          neg, fm, width, mode) END`),
    m(`lg_to_char_snum3(num, neg, fm, width, mode) AS CASE mode
        WHEN 'S<' THEN (CASE WHEN fm THEN '' ELSE repeat(' ', CAST(greatest(0, width - length(num) - 1) AS INTEGER)) END) || (CASE WHEN neg THEN '-' ELSE '+' END) || num
        WHEN 'S>' THEN (CASE WHEN fm THEN num ELSE lpad(num, CAST(greatest(width - 1, length(num)) AS INTEGER), ' ') END) || (CASE WHEN neg THEN '-' ELSE '+' END)
        WHEN 'MI' THEN (CASE WHEN fm THEN num ELSE lpad(num, CAST(greatest(width - 2, length(num)) AS INTEGER), ' ') END) || (CASE WHEN neg THEN '-' WHEN fm THEN '' ELSE ' ' END)
        ELSE (CASE WHEN fm THEN (CASE WHEN neg THEN '<' || num || '>' ELSE num END)
          WHEN neg THEN lpad('<' || num, CAST(greatest(width - 1, length(num) + 1) AS INTEGER), ' ') || '>'
          ELSE lpad(num, CAST(greatest(width - 1, length(num)) AS INTEGER), ' ') || ' ' END) END`),
    m(`lg_to_char_snum(body, neg, digits, min_int, grouped, fm, point, frac_min, width, hashes, mode) AS
        ${schema}.lg_to_char_snum2(split_part(body, '.', 1), split_part(body, '.', 2), neg, digits, min_int, grouped, fm, point, frac_min, width, hashes, mode)`),
    // an interval's fields as to_char prints them (sql/dialect/format.ts intervalTemplate): zero-padded to two digits,
    // three when negative ('-03'), none under FM
    m(`lg_to_char_ivf(n, fm) AS CASE WHEN fm THEN CAST(n AS VARCHAR) WHEN n >= 0 THEN printf('%02d', n) ELSE printf('%03d', n) END`),
    m(`lg_to_char_num(body, neg, digits, min_int, grouped, fm, point, frac_min, width, overflow) AS
        ${schema}.lg_to_char_num2(split_part(body, '.', 1), split_part(body, '.', 2), neg, digits, min_int, grouped, fm, point, frac_min, width, overflow)`),
    m(`lg_regexp_rows(matches) AS list_transform(matches, lg_m -> [lg_m])`),
    m(`lg_regexp_rows_zip(groups) AS list_transform(range(1, len(groups[1]) + 1), lg_i -> list_transform(groups, lg_g -> lg_g[lg_i]))`),
    // div(a, b): trunc(a / b) as a numeric of scale 0, exactly (sql/dialect/numericMacros.ts lg_nscaled: |a|, |b| < 10^18)
    m(`lg_idiv(a, b) AS CASE WHEN b = 0 THEN error('division by zero')
        ELSE CAST(${schema}.lg_nscaled(a) // ${schema}.lg_nscaled(b) AS DECIMAL(38,0)) END`),
  ];
}
