/**
 * PostgreSQL's arithmetic types, as DuckDB macros the planner calls in place
 * of `/`, sum(), avg() and `::numeric` (sql/dialect/dialect.ts). DuckDB picks a
 * macro overload by the argument types at bind time, so the result type
 * follows PostgreSQL's rules without the planner knowing column types:
 *
 * - int / int truncates (int4, int8); numeric / numeric is exact (DuckDB
 *   would answer a double), computed on 128-bit integers and rounded half away
 *   from zero at NUMERIC_DIV_SCALE decimals; float and interval divide as
 *   floats. A DECIMAL(38,10) parameter takes every integer and decimal
 *   exactly (a double has no implicit cast to it, so doubles fall through).
 * - sum(int2/int4) is bigint, sum(int8) numeric (DuckDB: HUGEINT for both).
 * - avg(integer or numeric) is numeric: sum / count, exactly as above.
 * - x::numeric keeps a decimal as it is and makes an integer a decimal of scale 0.
 * - date - date, ntile, gcd/lcm of integers and generate_series over integers
 *   are integer; int2 or real next to a numeric literal is int4 or float8;
 *   sign() is float8 or numeric; 1e3 is numeric (sql/dialect/numeric.ts).
 *
 * DuckDB types a macro's argument before choosing the overload only when it
 * can bind it on its own: the planner (sql/dialect/numeric.ts typedDispatchSafe)
 * passes an operand with aggregates or window functions together with a
 * probe, an expression of its type that DuckDB can bind on its own; the
 * overload decides on the probe and drops it, so a probe is never evaluated.
 * A typed parameter casts its argument: the macros pass an untyped copy on.
 *
 * The helpers (lg_n*) name their parameters at most five times each; a user
 * argument is copied at most 8 times through the nesting (the `b` of lg_div),
 * within MACRO_ARG_COPIES.
 */
import { INTERNAL_MACROS } from '../emulation.js';

/**
 * Decimals of numeric division and avg. PostgreSQL chooses a display scale per
 * value (16 significant digits, at least the operands' scales); a DuckDB
 * column has one scale, so lakegate uses the one PostgreSQL prints for
 * quotients from 1 to 9999 (README, deliberate differences).
 */
export const NUMERIC_DIV_SCALE = 16;

// Raised only for a non-NULL dividend: NULL / 0 is NULL in PostgreSQL (the operators are strict).
const ZERO = `error('division by zero')`;
const E8 = 'CAST(100000000 AS HUGEINT)';
const E16 = 'CAST(10000000000000000 AS HUGEINT)';
/** The exact statistics: macro key, sample, square root, DuckDB's own aggregate (for floats) */
const STATISTICS = [['varSamp', 'true', 'false', 'var_samp'], ['varPop', 'false', 'false', 'var_pop'], ['stddevSamp', 'true', 'true', 'stddev_samp'], ['stddevPop', 'false', 'true', 'stddev_pop']] as const;
const I = INTERNAL_MACROS;
/** Raised where the exact stddev / variance cannot hold a group's sums or its result (the server reports 22003). */
const VOVERFLOW = `error('numeric field overflow: stddev and variance are exact here while the variance stays below 10^22 and the sums fit in 128 bits (this group passes them); cast the argument to double precision')`;

export function numericMacroStatements(m: (sig: string) => string, schema: string): string[] {
  const q = (name: string) => `${schema}.${name}`;
  return [
    // a decimal (|a| < 10^18) as an integer count of 10^-10
    m(`lg_nscaled(a) AS CAST(CAST(a AS DECIMAL(38,10)) * CAST(10000000000 AS BIGINT) AS HUGEINT)`),
    // A / B to 17 decimals, truncated: the integer part, then two long-division steps (|B| < 1.7e29)
    m(`lg_nq17(A, B) AS (A // B) * CAST(100000000000000000 AS HUGEINT)
        + ((A % B) * CAST(1000000000 AS HUGEINT) // B) * CAST(100000000 AS HUGEINT)
        + ((((A % B) * CAST(1000000000 AS HUGEINT)) % B) * CAST(100000000 AS HUGEINT) // B)`),
    // round half away from zero to 16 decimals, as a DECIMAL(38,16)
    // (the cast to scale 16 rounds half away from zero; Q is named once, so the operands are not copied twice)
    m(`lg_nround16(Q) AS CAST(CAST(Q AS DECIMAL(38,0)) * CAST(0.00000000000000001 AS DECIMAL(18,17)) AS DECIMAL(38,16))`),
    m(`lg_ndiv(a, b) AS ${q('lg_nround16')}(${q('lg_nq17')}(${q('lg_nscaled')}(a), ${q('lg_nscaled')}(b)))`),
    // a decimal (|a| < 1e22) as an integer count of 10^-16, for lg_ndiv16: through its text, which names `a` once
    // (DuckDB prints every decimal of a DECIMAL); a DECIMAL(38,16) times 10^16 would overflow from 10^6 up
    m(`lg_nscaled16(a) AS CAST(replace(CAST(CAST(a AS DECIMAL(38,16)) AS VARCHAR), '.', '') AS HUGEINT)`),
    // lg_ndiv for operands that may carry 16 decimals (a quotient or an avg divided again, lg_divp): counts of
    // 10^-16 while the divisor allows (lg_nq17: |B| < 1.7e29), else lg_ndiv (operands rounded to 10 decimals)
    m(`lg_ndiv16(a, b) AS CASE WHEN abs(a) < 1e21 AND abs(b) < 1e12
        THEN ${q('lg_nround16')}(${q('lg_nq17')}(${q('lg_nscaled16')}(a), ${q('lg_nscaled16')}(b))) ELSE ${q('lg_ndiv')}(a, b) END`),
    // error() raises "Invalid Input Error: division by zero", which the server reports as 22012.
    // "/"(a, b) is DuckDB's float division: integer_division turns a written `/` into `//`.
    // The overloads look at one probe argument at a time (with two typed parameters DuckDB finds a
    // decimal castable to every pair and gives up): is a an integer or decimal, then b, then both integers?
    m(`lg_div_c(a, b, t INTEGER) AS CASE WHEN b = 0 AND a IS NOT NULL THEN ${ZERO} ELSE a // b END,
       (a, b, t BIGINT) AS CASE WHEN b = 0 AND a IS NOT NULL THEN ${ZERO} ELSE a // b END,
       (a, b, t) AS CASE WHEN b = 0 AND a IS NOT NULL THEN ${ZERO} ELSE ${q('lg_ndiv')}(a, b) END`),
    // pa, pb: probes, expressions of the operands' types that DuckDB can type before binding (lg_divp)
    m(`lg_div_b(a, b, pa, pb, t DECIMAL(38,10)) AS ${q('lg_div_c')}(a, b, pa * 0 + pb * 0), (a, b, pa, pb, t) AS CASE WHEN b = 0 AND a IS NOT NULL THEN ${ZERO} ELSE "/"(a, b) END`),
    m(`lg_div_a(a, b, pa, pb, t DECIMAL(38,10)) AS ${q('lg_div_b')}(a, b, pa, pb, pb), (a, b, pa, pb, t) AS CASE WHEN b = 0 AND a IS NOT NULL THEN ${ZERO} ELSE "/"(a, b) END`),
    m(`${I.divide}(a, b) AS ${q('lg_div_a')}(a, b, a, b, a)`),
    // Operands whose type DuckDB learns only after the macro is bound (an aggregate, a window function) would
    // pick an overload blindly; the planner passes a probe of each (sql/dialect/numeric.ts): an expression of the
    // same type without the aggregate, which decides the overload and is dropped with the others.
    // (the same overloads; a quotient of aggregates is computed once a group, so with lg_ndiv16's 16 decimals)
    m(`lg_pdiv_c(a, b, t INTEGER) AS CASE WHEN b = 0 AND a IS NOT NULL THEN ${ZERO} ELSE a // b END,
       (a, b, t BIGINT) AS CASE WHEN b = 0 AND a IS NOT NULL THEN ${ZERO} ELSE a // b END,
       (a, b, t) AS CASE WHEN b = 0 AND a IS NOT NULL THEN ${ZERO} ELSE ${q('lg_ndiv16')}(a, b) END`),
    m(`lg_pdiv_b(a, b, pa, pb, t DECIMAL(38,10)) AS ${q('lg_pdiv_c')}(a, b, pa * 0 + pb * 0), (a, b, pa, pb, t) AS CASE WHEN b = 0 AND a IS NOT NULL THEN ${ZERO} ELSE "/"(a, b) END`),
    m(`lg_pdiv_a(a, b, pa, pb, t DECIMAL(38,10)) AS ${q('lg_pdiv_b')}(a, b, pa, pb, pb), (a, b, pa, pb, t) AS CASE WHEN b = 0 AND a IS NOT NULL THEN ${ZERO} ELSE "/"(a, b) END`),
    m(`${I.probedDivide}(a, b, pa, pb) AS ${q('lg_pdiv_a')}(a, b, pa, pb, pa)`),
    // A subquery or a parameter has no probe: integers truncate, anything else is a float division.
    m(`${I.plainDivide}(a, b) AS CASE WHEN b = 0 AND a IS NOT NULL THEN ${ZERO} ELSE a / b END`),
    m(`${I.modulo}(a, b) AS CASE WHEN b = 0 AND a IS NOT NULL THEN ${ZERO} ELSE a % b END`),
    // PostgreSQL has no % (nor mod) of a real or double precision (DuckDB: fmod). t, a probe of a + b (sql/dialect/numeric.ts modulo),
    // is a float when either is: that overload names a macro that takes a DATE only, which no float is, so binding
    // fails (42883, server/errors.ts). Integers and numerics leave one level earlier (DECIMAL(38,10) takes them; a
    // DOUBLE overload would too). The check has only the probe for argument (an aggregate among a macro's arguments
    // leaves DuckDB's overload choice blind) and answers a constant: the probe is never evaluated. (A typed
    // parameter's body is bound when the macro is created: the failing call takes the untyped u.)
    m(`lg_mod_float(u DATE) AS true`),
    m(`lg_nofloat_f(u, t DOUBLE) AS ${q('lg_mod_float')}(u), (u, t) AS true`),
    m(`lg_nofloat(u, t DECIMAL(38,10)) AS true, (u, t) AS ${q('lg_nofloat_f')}(u, t)`),
    m(`${I.typedModulo}(a, b, t) AS CASE WHEN ${q('lg_nofloat')}(t, t) THEN ${q(I.modulo)}(a, b) END`),
    // an interval's months, days and microseconds (DuckDB keeps the three apart, as PostgreSQL does)
    m(`lg_iv_months(a) AS datepart('year', a) * 12 + datepart('month', a)`),
    m(`lg_iv_micros(a) AS datepart('hour', a) * CAST(3600000000 AS BIGINT) + datepart('minute', a) * CAST(60000000 AS BIGINT) + datepart('microseconds', a)`),
    m(`lg_iv_make(mo, d, us) AS to_months(CAST(mo AS INTEGER)) + to_days(CAST(d AS INTEGER)) + to_microseconds(CAST(us AS BIGINT))`),
    // sum(interval): each field summed apart (PostgreSQL's interval_pl; 25 hours stay 25:00:00)
    m(`lg_iv_sum(a) AS ${q('lg_iv_make')}(sum(${q('lg_iv_months')}(a)), sum(datepart('day', a)), sum(${q('lg_iv_micros')}(a)))`),
    // avg(interval): the sums divided as PostgreSQL 15's interval_div does, in doubles: whole months and days,
    // a month's fraction cascaded into days (30 a month) and a day's into seconds, each rounded to microseconds
    // (TSROUND), more than a day of seconds carried into days, the time rounded half to even (rint)
    m(`lg_iv_div4(mo, d, t, sec) AS ${q('lg_iv_make')}(mo, d + trunc(sec / 86400), round_even(t + (sec - trunc(sec / 86400) * 86400) * 1000000, 0))`),
    m(`lg_iv_div3(mo, d0, mrd, D, T, N) AS ${q('lg_iv_div4')}(mo, d0 + trunc(mrd), T / N, round_even((D / N - d0 + mrd - trunc(mrd)) * 86400 * 1000000, 0) / 1000000)`),
    m(`lg_iv_div(M, D, T, N) AS CASE WHEN N > 0 THEN ${q('lg_iv_div3')}(trunc(M / N), trunc(D / N), round_even((M / N - trunc(M / N)) * 30 * 1000000, 0) / 1000000, D, T, N) END`),
    m(`lg_iv_avg(a) AS ${q('lg_iv_div')}(CAST(sum(${q('lg_iv_months')}(a)) AS DOUBLE), CAST(sum(datepart('day', a)) AS DOUBLE),
        CAST(sum(${q('lg_iv_micros')}(a)) AS DOUBLE), CAST(count(a) AS DOUBLE))`),
    // sum(real) is real in PostgreSQL; DuckDB sums a FLOAT into a DOUBLE. A FLOAT overload would also take a
    // DECIMAL (DuckDB casts DECIMAL to FLOAT implicitly), so DECIMALs leave one level earlier.
    m(`lg_sum_r(a, t FLOAT) AS CAST(sum(a) AS FLOAT), (a, t) AS sum(a)`),
    m(`lg_sum_d(a, t DECIMAL(38,10)) AS sum(a), (a, t) AS ${q('lg_sum_r')}(a, t)`),
    m(`${I.sum}(a SMALLINT) AS CAST(sum(a) AS BIGINT), (a INTEGER) AS CAST(sum(a) AS BIGINT), (a BIGINT) AS CAST(sum(a) AS DECIMAL(38,0)),
       (a INTERVAL) AS ${q('lg_iv_sum')}(a), (a) AS ${q('lg_sum_d')}(a, a)`),
    m(`lg_avg_d(a, t DECIMAL(38,10)) AS CASE WHEN count(a) > 0 THEN ${q('lg_ndiv')}(sum(a), count(a)) END, (a, t) AS avg(a)`),
    m(`${I.avg}(a INTEGER) AS CASE WHEN count(a) > 0 THEN ${q('lg_ndiv')}(sum(a), count(a)) END,
       (a BIGINT) AS CASE WHEN count(a) > 0 THEN ${q('lg_ndiv')}(sum(a), count(a)) END,
       (a INTERVAL) AS ${q('lg_iv_avg')}(a),
       (a) AS ${q('lg_avg_d')}(a, a)`),
    m(`${I.toNumeric}(x INTEGER) AS CAST(x AS DECIMAL(10,0)), (x BIGINT) AS CAST(x AS DECIMAL(19,0)),
       (x HUGEINT) AS CAST(x AS DECIMAL(38,0)), (x VARCHAR) AS CAST(x AS DOUBLE), (x) AS x`),
    // A numeric literal next to a column (x the column, never evaluated: the overload drops it): PostgreSQL types
    // int2 + 2 as integer and real * 2 as double precision; DuckDB keeps the column's type.
    m(`${I.intLiteral}(x SMALLINT, l) AS CAST(l AS INTEGER), (x INTEGER, l) AS l, (x BIGINT, l) AS l, (x HUGEINT, l) AS l,
       (x FLOAT, l) AS CAST(l AS DOUBLE), (x DOUBLE, l) AS l, (x, l) AS l`),
    m(`${I.numLiteral}(x SMALLINT, l) AS l, (x INTEGER, l) AS l, (x BIGINT, l) AS l, (x HUGEINT, l) AS l,
       (x FLOAT, l) AS CAST(l AS DOUBLE), (x DOUBLE, l) AS l, (x, l) AS l`),
    // date - date is an integer in PostgreSQL (DuckDB: BIGINT); pa, pb probe the operands (sql/dialect/numeric.ts).
    // A BIGINT difference of a DATE is date - date; every other pair subtracts as written. (One typed overload a
    // level: DuckDB binds a macro's body when it is created and would find several typed ones ambiguous.)
    m(`lg_sub_b(a, b, t DATE) AS CAST(a - b AS INTEGER), (a, b, t) AS a - b`),
    m(`lg_sub_a(a, b, pa, t BIGINT) AS ${q('lg_sub_b')}(a, b, pa), (a, b, pa, t) AS a - b`),
    m(`${I.subtract}(a, b, pa, pb) AS ${q('lg_sub_a')}(a, b, pa, pa - pb)`),
    // gcd and lcm of integers are integer in PostgreSQL (DuckDB: BIGINT)
    m(`${I.gcd}(a, b, t INTEGER) AS CAST(gcd(a, b) AS INTEGER), (a, b, t) AS gcd(a, b)`),
    m(`${I.lcm}(a, b, t INTEGER) AS CAST(lcm(a, b) AS INTEGER), (a, b, t) AS lcm(a, b)`),
    // generate_series over integers is integer in PostgreSQL (DuckDB: BIGINT): the list (scalar position) or the
    // value (FROM) typed by the bounds and step, each probed in turn (sql/dialect/numeric.ts typedSeries).
    m(`lg_gsl(l, t INTEGER) AS CAST(l AS INTEGER[]), (l, t) AS l`),
    m(`lg_gsl2(l, b, t INTEGER) AS ${q('lg_gsl')}(l, b), (l, b, t) AS l`),
    m(`lg_gsl3(l, b, c, t INTEGER) AS ${q('lg_gsl2')}(l, c, b), (l, b, c, t) AS l`),
    m(`lg_gsv(v, t INTEGER) AS CAST(v AS INTEGER), (v, t) AS v`),
    m(`lg_gsv2(v, b, t INTEGER) AS ${q('lg_gsv')}(v, b), (v, b, t) AS v`),
    m(`lg_gsv3(v, b, c, t INTEGER) AS ${q('lg_gsv2')}(v, c, b), (v, b, c, t) AS v`),
    // float8 → numeric as PostgreSQL converts it: the value's text to 15 significant digits (float4: 6); other
    // types as they are. The planner casts the text to the numeric(38,n) of round(x::numeric, n).
    m(`${I.numericText}(y DOUBLE) AS printf('%.15g', y), (y FLOAT) AS printf('%.6g', y), (y SMALLINT) AS y, (y INTEGER) AS y,
       (y BIGINT) AS y, (y HUGEINT) AS y, (y VARCHAR) AS y, (y) AS y`),
    // sign(int or float) is double precision, sign(numeric) numeric in PostgreSQL (DuckDB: TINYINT)
    m(`lg_sign_b(x, t BIGINT) AS CAST(sign(x) AS DOUBLE), (x, t) AS CAST(sign(x) AS DECIMAL(1,0))`),
    m(`lg_sign_a(x, t DECIMAL(38,10)) AS ${q('lg_sign_b')}(x, x), (x, t) AS CAST(sign(x) AS DOUBLE)`),
    m(`${I.sign}(x) AS ${q('lg_sign_a')}(x, x)`),
    // Probes (never evaluated: a macro overload decides on them and drops them): a value of the type
    // lg_sum(a) and lg_avg(a) have, from an expression DuckDB types before binding.
    m(`${I.sumProbe}(a SMALLINT) AS CAST(0 AS BIGINT), (a INTEGER) AS CAST(0 AS BIGINT), (a BIGINT) AS CAST(0 AS DECIMAL(38,0)), (a) AS a`),
    m(`lg_avg_pd(a, t DECIMAL(38,10)) AS CAST(0 AS DECIMAL(38,16)), (a, t) AS a`),
    m(`${I.avgProbe}(a INTEGER) AS CAST(0 AS DECIMAL(38,16)), (a BIGINT) AS CAST(0 AS DECIMAL(38,16)), (a) AS ${q('lg_avg_pd')}(a, a)`),
    // sum and avg with DISTINCT, FILTER or OVER, which a macro cannot carry: v = sum(…), c = count(…), both
    // written with the user's clauses; the argument p decides the type, as in lg_sum and lg_avg.
    m(`lg_sum_asr(v, p FLOAT) AS CAST(v AS FLOAT), (v, p) AS v`),
    m(`lg_sum_asd(v, p DECIMAL(38,10)) AS v, (v, p) AS ${q('lg_sum_asr')}(v, p)`),
    m(`${I.sumAs}(v, p SMALLINT) AS CAST(v AS BIGINT), (v, p INTEGER) AS CAST(v AS BIGINT), (v, p BIGINT) AS CAST(v AS DECIMAL(38,0)), (v, p) AS ${q('lg_sum_asd')}(v, p)`),
    m(`lg_avg_asd(v, c, p, t DECIMAL(38,10)) AS CASE WHEN c > 0 THEN ${q('lg_ndiv')}(v, c) END, (v, c, p, t) AS "/"(v, c)`),
    m(`${I.avgAs}(v, c, p INTEGER) AS CASE WHEN c > 0 THEN ${q('lg_ndiv')}(v, c) END,
       (v, c, p BIGINT) AS CASE WHEN c > 0 THEN ${q('lg_ndiv')}(v, c) END,
       (v, c, p) AS ${q('lg_avg_asd')}(v, c, p, p)`),
    // stddev and variance of integers and numerics (PostgreSQL: numeric, exact): (N·Σx² − (Σx)²) / (N·(N−1)) on
    // 128-bit integers, rounded half up at 16 decimals, then a square root of that rounded value, also rounded half
    // up (numeric.c numeric_stddev_internal). x counts in units of its type's last decimal, 10^-s (s the DECIMAL's
    // scale, 0 for integers), so Σx² in 10^-2s and the variance is N·Σx² − (Σx)² over N·(N−1)·10^e, e = 2s. Only
    // Σx² itself must fit in 128 bits (DuckDB raises 22003 past it), and the variance must be below 10^22 (the result
    // is a DECIMAL(38,16)); past that they raise 22003 (VOVERFLOW) rather than answer in double precision. Lambdas
    // name each aggregate once: its value is bound to g, h, w and read from there.
    m(`lg_vdec(q) AS CAST(CAST(q AS DECIMAL(38,0)) * CAST(0.0000000000000001 AS DECIMAL(17,16)) AS DECIMAL(38,16))`),
    // 10^e as a HUGEINT, 0 <= e <= 38 (a constant wherever e is: folded while binding)
    m(`lg_vp10(e) AS CAST(concat('1', repeat('0', e)) AS HUGEINT)`),
    // the scale of v's type, 0 for an integer: a constant (typeof is folded while binding; v is not evaluated for it)
    m(`lg_vscale(v) AS CASE WHEN typeof(v) LIKE 'DECIMAL(%' THEN CAST(regexp_extract(typeof(v), ',([0-9]+)\\)', 1) AS INTEGER) ELSE 0 END`),
    // a sum (a DECIMAL(38,s) or a HUGEINT) as an integer count of 10^-s: its digits without the point (DuckDB prints
    // every decimal of a DECIMAL)
    m(`lg_vunits(v) AS CAST(replace(CAST(v AS VARCHAR), '.', '') AS HUGEINT)`),
    // x² on 128 bits, exact: an integer as a HUGEINT, a DECIMAL(p,s) as a DECIMAL(38,2s) (DuckDB's own product of
    // two DECIMAL(18) stays a DECIMAL(18) and overflows from 10^9 units up; a DECIMAL(38) product from 10^19)
    m(`lg_vsq(a) AS (a + CAST(0 AS HUGEINT)) * (a + CAST(0 AS HUGEINT))`),
    // a + b where either may be NULL (a sum over no rows)
    m(`lg_vadd(a, b) AS coalesce(a + b, a, b)`),
    // round(num · 10^k / (d · 10^e)) half up, num >= 0, d > 0 (d < 1.7·10^22), e and k constants; a result from 10^38
    // up (lim·10^(k−e)): VOVERFLOW. k >= e: long division by d, one step of k − e digits (at most 16) or two (16, then
    // the rest); k < e: num // 10^(e−k) first, its remainder and the quotient's decide the rounding (up when
    // 2·(q1 % d)·g + 2·r1 >= d·g, without forming d·g). Each remainder is a − q·d: a 128-bit division costs a
    // few hundred nanoseconds, a product next to nothing (this runs once a row under OVER).
    m(`lg_vdivup(num, d, m1, m2, lim) AS list_transform([num // d], lambda q: CASE WHEN q >= lim THEN ${VOVERFLOW} ELSE
        list_transform([(num - q * d) * m1], lambda a: list_transform([a // d], lambda t:
          CASE WHEN m2 = 1 THEN q * m1 + t + CASE WHEN 2 * (a - t * d) >= d THEN 1 ELSE 0 END
          ELSE list_transform([(a - t * d) * m2], lambda b: list_transform([b // d], lambda u:
            (q * m1 + t) * m2 + u + CASE WHEN 2 * (b - u * d) >= d THEN 1 ELSE 0 END)[1])[1] END)[1])[1] END)[1]`),
    m(`lg_vdivdn(num, d, g) AS list_transform([num // g], lambda q1: list_transform([q1 // d], lambda q:
        list_transform([q1 - q * d], lambda a: q + CASE WHEN 2 * a >= d OR (2 * a + 1 = d AND 2 * (num - q1 * g) >= g) THEN 1 ELSE 0 END)[1])[1])[1]`),
    m(`lg_vdivk(num, d, e, k) AS CASE WHEN k >= e THEN ${q('lg_vdivup')}(num, d, ${q('lg_vp10')}(least(k - e, 16)), ${q('lg_vp10')}(greatest(k - e - 16, 0)), ${q('lg_vp10')}(greatest(38 - (k - e), 0)))
        ELSE ${q('lg_vdivdn')}(num, d, ${q('lg_vp10')}(least(e - k, 38))) END`),
    // N·Σx² − (Σx)² without forming N·Σx²: with Σx = q·N + r (q = Σx // N, |r| < N), it is N·D − r² where
    // D = Σ(x − q)² = Σx² − q·(Σx + r), 0 <= q·(Σx + r) <= Σx²; N·D (about N² times the population variance) is checked before it is formed (in
    // double precision, a margin of 10^-3 below 2^127)
    m(`lg_vnum(n, s1, s2) AS list_transform([s1 // n], lambda q: list_transform([s1 - q * n], lambda r:
        list_transform([s2 - q * (s1 + r)], lambda dd: CASE WHEN CAST(n AS DOUBLE) * CAST(dd AS DOUBLE) >= 1.7e38 THEN ${VOVERFLOW}
          ELSE n * dd - r * r END)[1])[1])[1]`),
    // round(sqrt(m)) for 0 <= m <= 10^38: one integer Newton step from the double's root (then floor or floor + 1),
    // the floor s, and + 1 when m > s² + s (that is, m >= (s + ½)² + ¾: the root is at or above s + ½)
    m(`lg_isqrt(m0) AS list_transform([m0], lambda m: CASE WHEN m = 0 THEN CAST(0 AS HUGEINT) ELSE list_transform([CAST(sqrt(CAST(m AS DOUBLE)) AS HUGEINT)], lambda r0:
        list_transform([(r0 + m // r0) >> 1], lambda r:
          list_transform([r - CASE WHEN r * r > m THEN 1 ELSE 0 END], lambda s: s + CASE WHEN m > s * s + s THEN 1 ELSE 0 END)[1])[1])[1] END)[1]`),
    // the root of V (V·10^16 given) ·10^16: exact to 16 decimals below V = 4·10^5 (PostgreSQL prints 16 up to 2·10^4),
    // to 12 below 4·10^13, to 8 above (PostgreSQL prints fewer there)
    m(`lg_sd16(v) AS CASE WHEN v < CAST('4000000000000000000000' AS HUGEINT) THEN ${q('lg_isqrt')}(v * ${E16})
        WHEN v < CAST('400000000000000000000000000000' AS HUGEINT) THEN ${q('lg_isqrt')}(v * ${E8}) * 10000 ELSE ${q('lg_isqrt')}(v) * ${E8} END`),
    // V·10^16 (variance) or its root ·10^16 (stddev) of the numerator m > 0 over d·10^e; a variance below 1 has too
    // few digits at 16 decimals for its root's 16: the root of V at 24 decimals. A variance from 10^22 up: VOVERFLOW.
    m(`lg_vval(m, d, e, sd) AS list_transform([${q('lg_vdivk')}(m, d, e, 16)], lambda v: CASE WHEN NOT sd THEN v
        WHEN v > 0 AND v < ${E16} THEN ${q('lg_isqrt')}(${q('lg_vdivk')}(m, d, e, 24) * ${E8}) ELSE ${q('lg_sd16')}(v) END)[1]`),
    // the statistic of g {n, s1, s2} (sums in units, e = 2·scale): NULL without rows (sample: without two); a
    // numerator at or below 0 is 0 (numeric.c)
    m(`lg_vfin(g, e, samp, sd) AS ${q('lg_vdec')}(CASE WHEN g.n = 0 OR (samp AND g.n = 1) THEN NULL
        ELSE list_transform([{'m': ${q('lg_vnum')}(CAST(g.n AS HUGEINT), g.s1, g.s2), 'd': CASE WHEN samp THEN CAST(g.n AS HUGEINT) * (g.n - 1) ELSE CAST(g.n AS HUGEINT) * g.n END}],
          lambda w: CASE WHEN w.m <= 0 THEN CAST(0 AS HUGEINT) ELSE ${q('lg_vval')}(w.m, w.d, e, sd) END)[1] END)`),
    m(`lg_vstats_i(a) AS {'n': count(a), 's1': sum(CAST(a AS HUGEINT)), 's2': sum(CAST(a AS HUGEINT) * CAST(a AS HUGEINT))}`),
    // a decimal: DuckDB's own sums (exact, on the DECIMAL's integers), counted in units once per group
    m(`lg_vstats_d(a) AS {'n': count(a), 's1': ${q('lg_vunits')}(sum(a)), 's2': ${q('lg_vunits')}(sum(${q('lg_vsq')}(a)))}`),
    ...STATISTICS.map(
      ([k, samp, sd, duck]) => m(`${I[k]}_d(a, t DECIMAL(38,10)) AS list_transform([${q('lg_vstats_d')}(a)], lambda g: ${q('lg_vfin')}(g, 2 * ${q('lg_vscale')}(sum(a)), ${samp}, ${sd}))[1],
        (a, t) AS ${duck}(a)`)),
    ...STATISTICS.map(
      ([k, samp, sd]) => m(`${I[k]}(a SMALLINT) AS list_transform([${q('lg_vstats_i')}(a)], lambda g: ${q('lg_vfin')}(g, 0, ${samp}, ${sd}))[1],
        (a INTEGER) AS list_transform([${q('lg_vstats_i')}(a)], lambda g: ${q('lg_vfin')}(g, 0, ${samp}, ${sd}))[1],
        (a BIGINT) AS list_transform([${q('lg_vstats_i')}(a)], lambda g: ${q('lg_vfin')}(g, 0, ${samp}, ${sd}))[1],
        (a) AS ${q(`${I[k]}_d`)}(a, a)`)),
    // stddev and variance with DISTINCT or OVER, which a macro cannot carry (sql/dialect/numeric.ts): v = DuckDB's own
    // call, n = count(x), s1 = sum(x), s2 = Σx² (sum(lg_vsq(x)); with DISTINCT, over the distinct x: the distinct
    // squares of x >= 0 plus those of x < 0), all written with the user's clauses; p (a copy of x, never evaluated)
    // decides: integers and numerics exact as above, anything else v. samp and sd are constants.
    m(`lg_stats_asd(v, n, s1, s2, samp, sd, p, t DECIMAL(38,10)) AS list_transform([{'n': n, 's1': ${q('lg_vunits')}(s1), 's2': ${q('lg_vunits')}(s2)}],
        lambda g: ${q('lg_vfin')}(g, 2 * ${q('lg_vscale')}(s1), samp, sd))[1], (v, n, s1, s2, samp, sd, p, t) AS v`),
    m(`${I.statsAs}(v, n, s1, s2, samp, sd, p SMALLINT) AS list_transform([{'n': n, 's1': s1, 's2': s2}], lambda g: ${q('lg_vfin')}(g, 0, samp, sd))[1],
       (v, n, s1, s2, samp, sd, p INTEGER) AS list_transform([{'n': n, 's1': s1, 's2': s2}], lambda g: ${q('lg_vfin')}(g, 0, samp, sd))[1],
       (v, n, s1, s2, samp, sd, p BIGINT) AS list_transform([{'n': n, 's1': s1, 's2': s2}], lambda g: ${q('lg_vfin')}(g, 0, samp, sd))[1],
       (v, n, s1, s2, samp, sd, p) AS ${q('lg_stats_asd')}(v, n, s1, s2, samp, sd, p, p)`),
  ];
}
