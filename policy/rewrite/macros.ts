/**
 * The data gate's DuckDB macros, installed on the privileged connection before
 * the engine is locked, in a schema of the emulation's in-memory catalog that
 * user SQL can never name (three-part function names and other databases are
 * refused by sql/). SQL macros run inside the engine: no JS call per row.
 *
 * MASK_HASH is HMAC-SHA256 (RFC 2104) of the value's UTF-8 bytes keyed by the
 * configured mask key, written over DuckDB's sha256(blob): the key's inner and
 * outer pads are blob constants in the macro text, which is why the schema
 * must stay out of reach (and why EXPLAIN of a masked query is refused).
 * The integer and date helpers reproduce Hive's mask UDFs
 * (reference/ranger.md §9): digits are counted on the value's absolute value
 * and the result wraps as Java's narrowing arithmetic does.
 */
import { createHash } from 'node:crypto';
import { EMULATION_DB } from '../../sql/emulation.js';

/** The schema (inside EMULATION_DB) holding the mask macros. */
export const MASK_SCHEMA = 'lgp';

/** Macro names, as the mask builder calls them. */
export const MACROS = {
  hmac: 'mask_hash',
  maskInt: 'mask_int',
  showLastInt: 'show_last_int',
  showFirstInt: 'show_first_int',
  maskDate: 'mask_date',
} as const;

const BLOCK = 64;

/** The HMAC-SHA256 inner and outer pads of a key, as hex. */
export function hmacPads(key: string): { ipad: string; opad: string } {
  let k = Buffer.from(key, 'utf8');
  if (k.length > BLOCK) k = createHash('sha256').update(k).digest();
  const padded = Buffer.alloc(BLOCK);
  k.copy(padded);
  const ipad = Buffer.alloc(BLOCK);
  const opad = Buffer.alloc(BLOCK);
  for (let i = 0; i < BLOCK; i++) {
    ipad[i] = padded[i]! ^ 0x36;
    opad[i] = padded[i]! ^ 0x5c;
  }
  return { ipad: ipad.toString('hex'), opad: opad.toString('hex') };
}

/** CREATE MACRO statements; the HMAC macro only when a mask key is configured. */
export function maskMacroStatements(maskKey: string | undefined): string[] {
  const S = `${EMULATION_DB}.${MASK_SCHEMA}`;
  const m = (sig: string) => `CREATE OR REPLACE MACRO ${S}.${sig}`;
  const out = [
    `CREATE SCHEMA IF NOT EXISTS ${S}`,
    // Java's narrowing: the value modulo 2^bits, as a signed number (m = 2^bits).
    m(`lg_wrap(x, m) AS CAST((((CAST(x AS HUGEINT) + m // 2) % m) + m) % m - m // 2 AS HUGEINT)`),
    m(`lg_absdigits(v) AS CAST(abs(CAST(v AS HUGEINT)) AS VARCHAR)`),
    m(`lg_signed(v, x, m) AS ${S}.lg_wrap(CASE WHEN v < 0 THEN -x ELSE x END, m)`),
    m(`lg_keep_last(s, n, d) AS CASE WHEN length(s) <= n THEN s ELSE repeat(d, length(s) - n) || right(s, n) END`),
    m(`lg_keep_first(s, n, d) AS CASE WHEN length(s) <= n THEN s ELSE left(s, n) || repeat(d, length(s) - n) END`),
    // mask(): every digit of |v| becomes d, the sign stays; 0 becomes d.
    m(`${MACROS.maskInt}(v, d, m) AS ${S}.lg_signed(v, CAST(repeat(d, length(${S}.lg_absdigits(v))) AS HUGEINT), m)`),
    // mask_show_last_n / mask_show_first_n: the n least / most significant digits stay.
    m(`${MACROS.showLastInt}(v, n, d, m) AS ${S}.lg_signed(v, CAST(${S}.lg_keep_last(${S}.lg_absdigits(v), n, d) AS HUGEINT), m)`),
    m(`${MACROS.showFirstInt}(v, n, d, m) AS ${S}.lg_signed(v, CAST(${S}.lg_keep_first(${S}.lg_absdigits(v), n, d) AS HUGEINT), m)`),
    // mask() of a date: each field replaced unless its value is -1 (month already 1-based here).
    m(`${MACROS.maskDate}(v, dd, mm, yy) AS CASE WHEN v IS NULL THEN NULL ELSE make_date(
        CASE WHEN yy = -1 THEN year(v) ELSE yy END,
        CASE WHEN mm = -1 THEN month(v) ELSE mm END,
        CASE WHEN dd = -1 THEN day(v) ELSE dd END) END`),
  ];
  if (maskKey !== undefined) {
    const { ipad, opad } = hmacPads(maskKey);
    out.push(m(`${MACROS.hmac}(v) AS sha256(unhex('${opad}') || unhex(sha256(unhex('${ipad}') || encode(v))))`));
  }
  return out;
}

/** Install the macros through a privileged connection (before the engine's lock-down). */
export async function installMaskMacros(run: (sql: string) => Promise<unknown>, maskKey: string | undefined): Promise<void> {
  for (const sql of maskMacroStatements(maskKey)) await run(sql);
}
