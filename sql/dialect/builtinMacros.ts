/**
 * PostgreSQL built-ins as DuckDB macros, called by sql/dialect/builtin.ts in
 * place of the user's call. Where PostgreSQL's answer depends on an argument's
 * type, an overload on a probe argument (`t`, a copy of the argument) decides
 * when DuckDB binds the call, as in sql/dialect/numericMacros.ts:
 *
 * - date_trunc(text, date) and generate_series(date, date, interval) are the
 *   timestamptz functions in PostgreSQL: the date becomes midnight in the
 *   session's time zone (`tz`); a timestamp or timestamptz stays as it is.
 * - round(float8) rounds half to even; round(numeric) (integers and decimals,
 *   which DECIMAL(38,10) takes and a double does not) half away from zero.
 * - to_hex(int4) shows 32 bits in lower case.
 * - octet_length counts a text's UTF-8 bytes (DuckDB's takes bytes and bits only).
 * - width_bucket of integers and numerics divides exactly (on 10^-10 units,
 *   sql/dialect/numericMacros.ts lg_nscaled); of doubles, in double precision.
 *
 * Lambdas name their parameter lg_e / lg_i / lg_v, which never captures a caller's column. The body
 * of a macro holds each argument at most a few times (sql/limits.ts counts MACRO_ARG_COPIES copies per
 * call): where the computation names a value more often, the value is computed once as the one element
 * of a list and named by a lambda (`list_transform([x], lambda lg_v: …)[1]`), which copies a column
 * reference instead of the caller's expression.
 */
const DAY = 'CAST(86400000000 AS BIGINT)';

export function builtinMacroStatements(m: (sig: string) => string, schema: string): string[] {
  const q = (name: string) => `${schema}.${name}`;
  return [
    // The session's TimeZone (sql/sessionZone.ts): t, x's probe, picks the overload (a date, then a timestamp, then
    // a timestamptz: DuckDB casts a date and a timestamp to a timestamptz implicitly, so those leave first). A
    // timestamptz's wall clock in the zone tz; its UTC offset there in seconds; a date or timestamp read in the zone.
    m(`lg_wall_z(x, tz, t TIMESTAMPTZ) AS timezone(tz, x), (x, tz, t) AS x`),
    m(`lg_wall_t(x, tz, t TIMESTAMP) AS x, (x, tz, t) AS ${q('lg_wall_z')}(x, tz, t)`),
    m(`lg_wall(x, tz, t DATE) AS x, (x, tz, t) AS ${q('lg_wall_t')}(x, tz, t)`),
    m(`lg_zone_seconds(x, tz) AS CAST(epoch(timezone(tz, x)) - epoch(x) AS INTEGER)`),
    m(`lg_zone_offset_z(x, tz, t TIMESTAMPTZ) AS ${q('lg_zone_seconds')}(x, tz), (x, tz, t) AS 0`),
    m(`lg_zone_offset_t(x, tz, t TIMESTAMP) AS 0, (x, tz, t) AS ${q('lg_zone_offset_z')}(x, tz, t)`),
    m(`lg_zone_offset(x, tz, t DATE) AS 0, (x, tz, t) AS ${q('lg_zone_offset_t')}(x, tz, t)`),
    // to_char's OF, TZH and TZM of an offset of s seconds (sql/dialect/format.ts): +05, +05:30, -03; FM OF unpadded
    m(`lg_offset_text(s, k, fm) AS list_transform([abs(s)], lambda lg_a: CASE WHEN k = 'TZM' THEN '' WHEN s < 0 THEN '-' ELSE '+' END || CASE
        WHEN k = 'TZM' THEN '' WHEN fm AND k = 'OF' THEN CAST(CAST(trunc(lg_a / 3600.0) AS INTEGER) AS VARCHAR)
        ELSE lpad(CAST(CAST(trunc(lg_a / 3600.0) AS INTEGER) AS VARCHAR), 2, '0') END
        || CASE WHEN k = 'TZH' OR (k = 'OF' AND lg_a % 3600 = 0) THEN '' ELSE (CASE WHEN k = 'OF' THEN ':' ELSE '' END)
          || lpad(CAST(CAST(trunc((lg_a % 3600) / 60.0) AS INTEGER) AS VARCHAR), 2, '0') END)[1]`),
    m(`lg_zone_hour(s) AS CAST(trunc(s / 3600.0) AS INTEGER)`),
    m(`lg_zone_minute(s) AS CAST(trunc((s - trunc(s / 3600.0) * 3600) / 60.0) AS INTEGER)`),
    m(`lg_zoned_text_z(x, tz, t TIMESTAMPTZ) AS CAST(timezone(tz, x) AS VARCHAR)
        || ${q('lg_offset_text')}(${q('lg_zone_seconds')}(x, tz), 'OF', false), (x, tz, t) AS x`),
    m(`lg_zoned_text_t(x, tz, t TIMESTAMP) AS x, (x, tz, t) AS ${q('lg_zoned_text_z')}(x, tz, t)`),
    m(`lg_zoned_text(x, tz, t DATE) AS x, (x, tz, t) AS ${q('lg_zoned_text_t')}(x, tz, t)`),
    m(`lg_zoned_t(x, tz, t TIMESTAMP) AS timezone(tz, x), (x, tz, t) AS CAST(x AS TIMESTAMPTZ)`),
    m(`lg_zoned(x, tz, t DATE) AS timezone(tz, CAST(x AS TIMESTAMP)), (x, tz, t) AS ${q('lg_zoned_t')}(x, tz, t)`),
    // a date and time written without an offset, read in the zone; compared with t, as t's type
    m(`lg_zone_read(s, tz) AS timezone(tz, CAST(s AS TIMESTAMP))`),
    m(`lg_zone_lit_z(t TIMESTAMPTZ, s, tz) AS ${q('lg_zone_read')}(s, tz), (t, s, tz) AS s`),
    m(`lg_zone_lit_t(t TIMESTAMP, s, tz) AS s, (t, s, tz) AS ${q('lg_zone_lit_z')}(t, s, tz)`),
    m(`lg_zone_lit(t DATE, s, tz) AS s, (t, s, tz) AS ${q('lg_zone_lit_t')}(t, s, tz)`),
    // date_trunc(u, x): a date is a timestamptz at midnight in the zone; a timestamptz is truncated in the zone
    m(`lg_date_trunc_tz(u, x, z) AS timezone(z, date_trunc(u, timezone(z, CAST(x AS TIMESTAMPTZ))))`),
    m(`lg_date_trunc_z(u, x, tz, t TIMESTAMPTZ) AS ${q('lg_date_trunc_tz')}(u, x, tz), (u, x, tz, t) AS date_trunc(u, x)`),
    m(`lg_date_trunc_t(u, x, tz, t TIMESTAMP) AS date_trunc(u, x), (u, x, tz, t) AS ${q('lg_date_trunc_z')}(u, x, tz, t)`),
    m(`lg_date_trunc(u, x, tz, t DATE) AS timezone(tz, date_trunc(u, CAST(x AS TIMESTAMP))), (u, x, tz, t) AS ${q('lg_date_trunc_t')}(u, x, tz, t)`),
    m(`lg_array_length(a, d) AS CASE WHEN len(a) > 0 THEN array_length(a, d) END`),
    // a boolean as PostgreSQL's text (t / f); decided on typeof(x), which DuckDB folds while planning
    // (an overload on BOOLEAN would also take text, which DuckDB casts to boolean implicitly)
    m(`lg_text_arg(x) AS CASE WHEN typeof(x) = 'BOOLEAN' THEN CASE WHEN CAST(x AS BOOLEAN) THEN 't' WHEN NOT CAST(x AS BOOLEAN) THEN 'f' END
        ELSE CAST(x AS VARCHAR) END`),
    m(`lg_date_tz(x, tz, t DATE) AS timezone(tz, CAST(x AS TIMESTAMP)), (x, tz, t) AS x`),
    m(`lg_round(x, t DECIMAL(38,10)) AS round(x), (x, t) AS round_even(CAST(x AS DOUBLE), 0)`),
    // round / trunc to n places: numeric only in PostgreSQL. One typed overload: a float probe t finds none
    // and fails while binding ("Macro … does not support the supplied arguments": 42883, server/errors.ts)
    m(`lg_round_n(x, n, t DECIMAL(38,10)) AS round(x, n)`),
    // x::bit(n) of an expression: a bit string cut or padded with zeros on the right to n; an integer's lowest n
    // bits, sign-extended past its 32 or 64 (PostgreSQL's bitfromint4/8). t: the probe that picks the overload.
    m(`lg_bits_to(s, n) AS CAST(CASE WHEN n <= length(s) THEN right(s, n) ELSE repeat(left(s, 1), n - length(s)) || s END AS BIT)`),
    m(`lg_bit_int(x, n, t INTEGER) AS ${q('lg_bits_to')}(CAST(CAST(CAST(x AS INTEGER) AS BIT) AS VARCHAR), n),
       (x, n, t) AS ${q('lg_bits_to')}(CAST(CAST(CAST(x AS BIGINT) AS BIT) AS VARCHAR), n)`),
    m(`lg_bit_n(x, n, t BIT) AS CAST(rpad(left(CAST(x AS VARCHAR), n), n, '0') AS BIT), (x, n, t) AS ${q('lg_bit_int')}(x, n, t)`),
    m(`lg_trunc_n(x, n, t DECIMAL(38,10)) AS trunc(x, n)`),
    // regexp_replace (sql/regexpReplace.ts; flags folded into p): the characters before st stay; from st, every
    // match (lg_re_all) or the n-th, found as PostgreSQL's replace_text_regexp finds them: each search starts where
    // the last match ended, one character further after an empty match (which may come right after another match),
    // and the end of the text is searched too. pw is '^((?s:.*?))(p)': the text before the next match, and the match.
    // Every step moves on at least one character, so no more than length(s) + 2 steps are taken.
    // lg_re_next: where the search after the match found from pos starts, NULL when there is none.
    m(`lg_re_next(s, p, pw, pos) AS CASE WHEN pos <= length(s) + 1 AND regexp_matches(substr(s, pos), p) THEN
        list_transform([regexp_extract(substr(s, pos), pw, ['lg_gap', 'lg_match'])], lambda lg_e:
          pos + length(lg_e.lg_gap) + greatest(length(lg_e.lg_match), 1))[1] END`),
    m(`lg_regexp_replace_nth(s, p, pw, r, st, n) AS list_transform([list_reduce(range(least(n - 1, length(s) + 2)), lambda lg_q, lg_k:
          ${q('lg_re_next')}(s, p, pw, lg_q), st)], lambda lg_q:
        CASE WHEN lg_q <= length(s) + 1 AND regexp_matches(substr(s, lg_q), p) THEN left(s, lg_q - 1) || regexp_replace(substr(s, lg_q), p, r)
          WHEN r IS NOT NULL THEN CAST(s AS VARCHAR) END)[1]`),
    // the replaced match at the head of rest (m characters long): rest with its first match replaced, less what
    // follows the match
    m(`lg_re_piece(rest, p, r, m) AS list_transform([regexp_replace(rest, p, r)], lambda lg_x: left(lg_x, length(lg_x) - length(rest) + m))[1]`),
    // one step of lg_re_all: a is {lg_pos: where the search starts, NULL once done; lg_out: the text so far}
    m(`lg_re_step(s, p, pw, r, a) AS CASE WHEN a.lg_pos IS NULL THEN a
        WHEN a.lg_pos <= length(s) + 1 AND regexp_matches(substr(s, a.lg_pos), p) THEN
          list_transform([regexp_extract(substr(s, a.lg_pos), pw, ['lg_gap', 'lg_match'])], lambda lg_e:
            list_transform([a.lg_pos + length(lg_e.lg_gap)], lambda lg_b: {
              'lg_pos': lg_b + greatest(length(lg_e.lg_match), 1),
              'lg_out': a.lg_out || lg_e.lg_gap || ${q('lg_re_piece')}(substr(s, lg_b), p, r, length(lg_e.lg_match))
                || CASE WHEN length(lg_e.lg_match) = 0 THEN substr(s, lg_b, 1) ELSE '' END})[1])[1]
        ELSE {'lg_pos': CAST(NULL AS BIGINT), 'lg_out': a.lg_out || substr(s, a.lg_pos)} END`),
    // RE2's global replace is PostgreSQL's unless the pattern can match the empty string (and the replacement is
    // not empty): an empty match right after another match is skipped there. (list_reduce's accumulator has its
    // list's type: the list holds the first state, then placeholders.)
    m(`lg_re_all(s, p, pw, r, st) AS CASE WHEN NOT regexp_full_match('', p) OR r = '' THEN left(s, st - 1) || regexp_replace(substr(s, st), p, r, 'g')
        WHEN r IS NOT NULL THEN list_reduce(list_transform(range(length(s) + 3), lambda lg_k: CASE WHEN lg_k = 0
          THEN {'lg_pos': CAST(st AS BIGINT), 'lg_out': left(s, st - 1)} ELSE {'lg_pos': CAST(NULL AS BIGINT), 'lg_out': CAST(NULL AS VARCHAR)} END),
          lambda lg_a, lg_x: ${q('lg_re_step')}(s, p, pw, r, lg_a)).lg_out END`),
    // min(x) / max(x) as min(lg_min_nb(x, x)) (sql/dialect/builtin.ts boolMinMax): t, a probe of x, picks the overload; the BOOLEAN one
    // names a macro that takes a DATE only, which no boolean is, so binding fails (42883 function min(boolean),
    // server/errors.ts); any other value is itself. (A typed parameter's body is bound when the macro is created: the
    // failing call takes the untyped v. The aggregate's own value cannot be the probe: DuckDB types it too late.)
    m(`lg_min_bool(v, t DATE) AS v`),
    m(`lg_max_bool(v, t DATE) AS v`),
    m(`lg_min_nb(v, t BOOLEAN) AS ${q('lg_min_bool')}(v, v), (v, t) AS v`),
    m(`lg_max_nb(v, t BOOLEAN) AS ${q('lg_max_bool')}(v, v), (v, t) AS v`),
    // round(x::numeric, n) of an aggregate or window value (sql/dialect/numeric.ts roundedNumericCast): its probe t picks
    // the conversion. An integer or numeric (which DECIMAL(38,10) takes) stays as it is; a float4 is its text to 6
    // significant digits (DuckDB does not narrow a double to FLOAT implicitly), a float8 to 15, as PostgreSQL converts them
    m(`lg_num_text_f(x, t FLOAT) AS printf('%.6g', x), (x, t) AS printf('%.15g', x)`),
    m(`lg_num_text_p(x, t DECIMAL(38,10)) AS x, (x, t) AS ${q('lg_num_text_f')}(x, t)`),
    // x::time: a timestamptz's wall clock in the session's zone tz; anything else DuckDB's cast (a timestamp, a
    // date, which a TIMESTAMP overload would take by an implicit cast, is never a TIMESTAMPTZ: the outer overload
    // catches them first)
    m(`lg_time_of_tz(x, tz, t TIMESTAMPTZ) AS CAST(timezone(tz, x) AS TIME), (x, tz, t) AS CAST(x AS TIME)`),
    m(`lg_time_of(x, tz, t TIMESTAMP) AS CAST(x AS TIME), (x, tz, t) AS ${q('lg_time_of_tz')}(x, tz, t)`),
    // array::text as PostgreSQL's array_out writes it: {a,b,NULL}, an element quoted (\\ and " escaped) when it is empty,
    // NULL in any case, or holds a brace, comma, quote, backslash or white space (DuckDB would print [a, b, NULL])
    m(`lg_array_text(x) AS CAST('{' || array_to_string(list_transform(x, lambda lg_e: CASE WHEN lg_e IS NULL THEN 'NULL' ELSE
        list_transform([${q('lg_text_arg')}(lg_e)], lambda lg_v: CASE WHEN lg_v = '' OR upper(lg_v) = 'NULL' OR regexp_matches(lg_v, '[{},"\\\\\\s]')
          THEN '"' || replace(replace(lg_v, '\\', '\\\\'), '"', '\\"') || '"' ELSE lg_v END)[1] END), ',') || '}' AS VARCHAR)`),
    // percentile_cont interpolates a double precision or an interval in PostgreSQL (an integer or numeric is cast to double)
    m(`lg_percentile_arg(x INTERVAL) AS x, (x) AS CAST(x AS DOUBLE)`),
    m(`lg_to_hex(x INTEGER) AS lower(to_hex(CAST(x AS BIGINT) & 4294967295)), (x) AS lower(to_hex(x))`),
    m(`lg_to_hex8(x) AS lower(to_hex(x))`),
    m(`lg_octet_length(x BLOB) AS octet_length(x), (x BIT) AS octet_length(x), (x) AS strlen(CAST(x AS VARCHAR))`),
    m(`lg_array_remove(a, x) AS list_filter(a, lambda lg_e: lg_e IS DISTINCT FROM x)`),
    m(`lg_array_to_string(a, s, n) AS array_to_string(list_transform(a, lambda lg_e: coalesce(CAST(lg_e AS VARCHAR), n)), s)`),
    m(`lg_overlay(s, r, p, n) AS substr(s, 1, p - 1) || r || substr(s, p + n), (s, r, p) AS substr(s, 1, p - 1) || r || substr(s, p + length(r))`),
    // DuckDB's regexp_extract answers '' where nothing matches; PostgreSQL NULL
    m(`lg_regexp_substr(s, p, g) AS CASE WHEN regexp_matches(s, p) THEN regexp_extract(s, p, g) END`),
    m(`lg_make_interval(y, mo, w, d, h, mi, s) AS to_months(y * 12 + mo) + to_days(w * 7 + d)
        + to_microseconds(h * CAST(3600000000 AS BIGINT) + mi * CAST(60000000 AS BIGINT) + CAST(round(s * 1000000) AS BIGINT))`),
    m(`lg_array_contains(a, b) AS CASE WHEN list_position(b, NULL) IS NOT NULL THEN false ELSE list_has_all(a, b) END`),
    m(`lg_array_replace(a, x, y) AS list_transform(a, lambda lg_e: CASE WHEN lg_e IS NOT DISTINCT FROM x THEN y ELSE lg_e END)`),
    m(`lg_trim_array(a, n) AS CASE WHEN n < 0 OR n > len(a) THEN error('number of elements to trim must be between 0 and ' || len(a))
        ELSE list_slice(a, 1, len(a) - n) END`),
    m(`lg_extract_epoch(v, t DATE) AS CAST(v AS DECIMAL(38,0)), (v, t) AS CAST(v AS DECIMAL(38,6))`),
    // PostgreSQL's base64 breaks its lines at 76 characters
    m(`lg_base64(b) AS rtrim(regexp_replace(to_base64(b), '(.{76})', '\\1' || chr(10), 'g'), chr(10))`),
    // escape format: NUL and bytes from 0x80 in octal (\\nnn), a backslash doubled, anything else as it is
    m(`lg_escape_byte(v) AS CASE WHEN v = 0 OR v >= 128 THEN '\\' || (v // 64) || ((v // 8) % 8) || (v % 8)
        WHEN v = 92 THEN '\\\\' ELSE chr(v) END`),
    m(`lg_escape(b) AS array_to_string(list_transform(range(0, octet_length(b)),
        lambda lg_i: ${q('lg_escape_byte')}(CAST(('0x' || substr(hex(b), 2 * lg_i + 1, 2)) AS INTEGER))), '')`),
    m(`lg_width_bucket_check(lo, hi, n) AS CASE WHEN n <= 0 THEN error('count must be greater than zero')
        WHEN lo = hi THEN error('lower bound cannot equal upper bound') END`),
    m(`lg_width_bucket_e(x, lo, hi, n) AS CAST(CASE
        WHEN lo < hi THEN CASE WHEN x < lo THEN 0 WHEN x >= hi THEN n + 1
          ELSE ((${q('lg_nscaled')}(x) - ${q('lg_nscaled')}(lo)) * n) // (${q('lg_nscaled')}(hi) - ${q('lg_nscaled')}(lo)) + 1 END
        ELSE CASE WHEN x > lo THEN 0 WHEN x <= hi THEN n + 1
          ELSE ((${q('lg_nscaled')}(lo) - ${q('lg_nscaled')}(x)) * n) // (${q('lg_nscaled')}(lo) - ${q('lg_nscaled')}(hi)) + 1 END END AS INTEGER)`),
    m(`lg_width_bucket_f(x, lo, hi, n) AS coalesce(CAST(${q('lg_width_bucket_check')}(lo, hi, n) AS INTEGER), CAST(CASE
        WHEN lo < hi THEN CASE WHEN x < lo THEN 0 WHEN x >= hi THEN n + 1 ELSE floor(n * ((x - lo) / (hi - lo))) + 1 END
        ELSE CASE WHEN x > lo THEN 0 WHEN x <= hi THEN n + 1 ELSE floor(n * ((lo - x) / (lo - hi))) + 1 END END AS INTEGER))`),
    m(`lg_width_bucket_p(x, lo, hi, n, t DECIMAL(38,10)) AS coalesce(CAST(${q('lg_width_bucket_check')}(lo, hi, n) AS INTEGER), ${q('lg_width_bucket_e')}(x, lo, hi, n)),
       (x, lo, hi, n, t) AS ${q('lg_width_bucket_f')}(x, lo, hi, n)`),
    // an interval's three fields (months, days, microseconds) and back; DuckDB's // and % truncate toward zero, as C does
    m(`lg_iv_months(i) AS datepart('year', i) * 12 + datepart('month', i)`),
    m(`lg_iv_micros(i) AS datepart('hour', i) * 3600000000 + datepart('minute', i) * 60000000 + datepart('microseconds', i)`),
    m(`lg_interval(mo, d, t) AS to_months(mo) + to_days(d) + to_microseconds(t)`),
    // PostgreSQL 15's interval_justify_hours / _days / _interval: whole days out of the time, whole months
    // (of 30 days) out of the days, then the signs of the parts made to agree
    m(`lg_jh2(mo, d, t) AS ${q('lg_interval')}(mo, CASE WHEN d > 0 AND t < 0 THEN d - 1 WHEN d < 0 AND t > 0 THEN d + 1 ELSE d END,
        CASE WHEN d > 0 AND t < 0 THEN t + ${DAY} WHEN d < 0 AND t > 0 THEN t - ${DAY} ELSE t END)`),
    m(`lg_jh(mo, d, t) AS ${q('lg_jh2')}(mo, d + t // ${DAY}, t % ${DAY})`),
    m(`justify_hours(i) AS list_transform([i], lambda lg_v: ${q('lg_jh')}(${q('lg_iv_months')}(lg_v), datepart('day', lg_v), ${q('lg_iv_micros')}(lg_v)))[1]`),
    m(`lg_jd2(mo, d, t) AS ${q('lg_interval')}(CASE WHEN mo > 0 AND d < 0 THEN mo - 1 WHEN mo < 0 AND d > 0 THEN mo + 1 ELSE mo END,
        CASE WHEN mo > 0 AND d < 0 THEN d + 30 WHEN mo < 0 AND d > 0 THEN d - 30 ELSE d END, t)`),
    m(`lg_jd(mo, d, t) AS ${q('lg_jd2')}(mo + d // 30, d % 30, t)`),
    m(`justify_days(i) AS list_transform([i], lambda lg_v: ${q('lg_jd')}(${q('lg_iv_months')}(lg_v), datepart('day', lg_v), ${q('lg_iv_micros')}(lg_v)))[1]`),
    m(`lg_ji3(mo, d, t) AS ${q('lg_jh2')}(
        CASE WHEN mo > 0 AND (d < 0 OR (d = 0 AND t < 0)) THEN mo - 1 WHEN mo < 0 AND (d > 0 OR (d = 0 AND t > 0)) THEN mo + 1 ELSE mo END,
        CASE WHEN mo > 0 AND (d < 0 OR (d = 0 AND t < 0)) THEN d + 30 WHEN mo < 0 AND (d > 0 OR (d = 0 AND t > 0)) THEN d - 30 ELSE d END, t)`),
    m(`lg_ji2(mo, d, t) AS ${q('lg_ji3')}(mo + d // 30, d % 30, t)`),
    m(`lg_ji(mo, d, t) AS ${q('lg_ji2')}(mo, d + t // ${DAY}, t % ${DAY})`),
    m(`justify_interval(i) AS list_transform([i], lambda lg_v: ${q('lg_ji')}(${q('lg_iv_months')}(lg_v), datepart('day', lg_v), ${q('lg_iv_micros')}(lg_v)))[1]`),
    // jsonb || jsonb: two objects merge their top-level keys (the right one's value wins); anything else is
    // concatenated as arrays, a non-array as an array of one. Both sides as minified text (json()), joined as text:
    // the left object first loses the right one's keys (json_merge_patch with each set to null deletes it).
    m(`lg_jsonb_join(a, b) AS CASE WHEN length(a) = 2 THEN b WHEN length(b) = 2 THEN a ELSE substr(a, 1, length(a) - 1) || ',' || substr(b, 2) END`),
    m(`lg_jsonb_arr(x) AS CASE WHEN json_type(x) = 'ARRAY' THEN x ELSE '[' || x || ']' END`),
    m(`lg_jsonb_nulls(b) AS '{' || array_to_string(list_transform(json_keys(b), lambda lg_e: CAST(to_json(lg_e) AS VARCHAR) || ':null'), ',') || '}'`),
    m(`lg_jsonb_concat2(a, b) AS CAST(CASE WHEN json_type(a) = 'OBJECT' AND json_type(b) = 'OBJECT'
        THEN ${q('lg_jsonb_join')}(CAST(json_merge_patch(a, ${q('lg_jsonb_nulls')}(b)) AS VARCHAR), b)
        ELSE ${q('lg_jsonb_join')}(${q('lg_jsonb_arr')}(a), ${q('lg_jsonb_arr')}(b)) END AS JSON)`),
    m(`lg_jsonb_concat(a, b) AS list_transform([struct_pack(a := json(CAST(a AS VARCHAR)), b := json(CAST(b AS VARCHAR)))],
        lambda lg_v: ${q('lg_jsonb_concat2')}(struct_extract(lg_v, 'a'), struct_extract(lg_v, 'b')))[1]`),
    m(`lg_width_bucket(x, lo, hi, n) AS ${q('lg_width_bucket_p')}(x, lo, hi, n, x * 0 + lo * 0 + hi * 0)`),
  ];
}
