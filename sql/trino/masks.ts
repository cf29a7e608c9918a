/**
 * The data gate's mask macros (policy/rewrite/macros.ts, called as `lakegate_pg.lgp.<name>(…)` by
 * policy/rewrite/masks.ts) in Trino SQL, each the same function of its arguments as the DuckDB macro:
 *
 * - mask_hash(v): HMAC-SHA256 of v's UTF-8 bytes under the mask key, lower-case hex (the macro's
 *   sha256 over the key's pads; Trino's hmac_sha256 is RFC 2104 over the same bytes).
 * - mask_int / show_last_int / show_first_int (v, …, d, m): Hive's digit masks over |v| as decimal text,
 *   the sign kept and the result wrapped modulo m = 2^bits as Java's narrowing (DuckDB's HUGEINT arithmetic
 *   here in decimal(38,0), which holds every value the masks reach: at most 20 digits).
 * - mask_date(v, dd, mm, yy): each field replaced unless its argument is -1; an impossible date is an
 *   error on both engines (DuckDB's make_date, Trino's cast).
 *
 * The macros' names are repeated here, not imported: sql/ imports no policy/ (print.test.ts holds the
 * two lists equal). The arguments after the value are the builder's constants; anything else is refused.
 */
import type { EngineCall, RenderedArg } from '../dialect/rule.js';
import { intValue, stringValue, trinoString } from '../dialect/trino.js';

/** The schema (in the emulation's catalog) the mask macros live in: policy/rewrite/macros.ts MASK_SCHEMA. */
export const MASK_MACRO_SCHEMA = 'lgp';

export interface MaskRenderOptions {
  /** the configured mask key; absent: a mask_hash call is refused */
  maskKey?: string;
}

const MODULI: ReadonlySet<bigint> = new Set([2n ** 8n, 2n ** 16n, 2n ** 32n, 2n ** 64n]);

/** A constant integer of any size (the modulus 2^64 is an fval). */
function bigValue(n: RenderedArg | undefined): bigint | undefined {
  const c = n?.node['A_Const'];
  if (c?.['ival']) return BigInt(Number(c['ival']['ival'] ?? 0));
  const f = c?.['fval']?.['fval'];
  return typeof f === 'string' && /^\d+$/.test(f) ? BigInt(f) : undefined;
}

const dec = (v: bigint): string => `DECIMAL '${v.toString()}'`;

/** |v| as decimal digits. */
const absDigits = (v: string): string => `CAST(abs(CAST(${v} AS decimal(38,0))) AS varchar)`;

/** `count` copies of the one-character string d (DuckDB's repeat). */
const repeat = (d: string, count: string): string => `lpad('', ${count}, ${trinoString(d)})`;

/** lg_signed(v, x, m): x with v's sign, wrapped to m (lg_wrap: ((x + m/2) % m + m) % m - m/2). */
function signedWrapped(v: string, x: string, m: bigint): string {
  const half = dec(m / 2n);
  const signed = `(CASE WHEN ${v} < 0 THEN -(${x}) ELSE ${x} END)`;
  return `((((${signed} + ${half}) % ${dec(m)}) + ${dec(m)}) % ${dec(m)} - ${half})`;
}

function digitArg(a: RenderedArg | undefined, call: EngineCall): string {
  const d = stringValue(a?.node);
  if (d === undefined || !/^[0-9]$/.test(d)) call.refuse('a mask digit that is not a constant digit');
  return d!;
}

function modulusArg(a: RenderedArg | undefined, call: EngineCall): bigint {
  const m = bigValue(a);
  if (m === undefined || !MODULI.has(m)) call.refuse('a mask modulus that is not 2^8, 2^16, 2^32 or 2^64');
  return m!;
}

function countArg(a: RenderedArg | undefined, call: EngineCall): number {
  const n = intValue(a?.node);
  if (n === undefined || n < 0) call.refuse('a mask count that is not a constant >= 0');
  return n!;
}

function arity(name: string, args: readonly RenderedArg[], n: number, call: EngineCall): void {
  if (args.length !== n) call.refuse(`the data gate's macro ${name} with ${args.length} arguments`);
}

type MaskRendering = (args: readonly RenderedArg[], call: EngineCall, opts: MaskRenderOptions) => string;

/** policy/rewrite/macros.ts MACROS, by macro name. */
export const MASK_MACROS: Readonly<Record<string, MaskRendering>> = {
  mask_hash: (args, call, opts) => {
    arity('mask_hash', args, 1, call);
    if (opts.maskKey === undefined) call.refuse('MASK_HASH without a mask key');
    return `lower(to_hex(hmac_sha256(to_utf8(${args[0]!.text}), to_utf8(${trinoString(opts.maskKey!)}))))`;
  },
  mask_int: (args, call) => {
    arity('mask_int', args, 3, call);
    const v = args[0]!.text;
    const d = digitArg(args[1], call);
    const m = modulusArg(args[2], call);
    return signedWrapped(v, `CAST(${repeat(d, `length(${absDigits(v)})`)} AS decimal(38,0))`, m);
  },
  show_last_int: (args, call) => {
    arity('show_last_int', args, 4, call);
    const v = args[0]!.text;
    const n = countArg(args[1], call);
    const d = digitArg(args[2], call);
    const m = modulusArg(args[3], call);
    const s = absDigits(v);
    const kept = `IF(length(${s}) <= ${n}, ${s}, concat(${repeat(d, `length(${s}) - ${n}`)}, substr(${s}, length(${s}) - ${n} + 1)))`;
    return signedWrapped(v, `CAST(${kept} AS decimal(38,0))`, m);
  },
  show_first_int: (args, call) => {
    arity('show_first_int', args, 4, call);
    const v = args[0]!.text;
    const n = countArg(args[1], call);
    const d = digitArg(args[2], call);
    const m = modulusArg(args[3], call);
    const s = absDigits(v);
    const kept = `IF(length(${s}) <= ${n}, ${s}, concat(substr(${s}, 1, ${n}), ${repeat(d, `length(${s}) - ${n}`)}))`;
    return signedWrapped(v, `CAST(${kept} AS decimal(38,0))`, m);
  },
  mask_date: (args, call) => {
    arity('mask_date', args, 4, call);
    const v = args[0]!.text;
    const field = (a: RenderedArg | undefined, keep: string): string => {
      const x = intValue(a?.node);
      if (x === undefined || x < -1) call.refuse('a date mask field that is not a constant');
      return x === -1 ? `${keep}(${v})` : String(x);
    };
    const [day, month, year] = [field(args[1], 'day'), field(args[2], 'month'), field(args[3], 'year')];
    return `(CASE WHEN ${v} IS NULL THEN NULL ELSE CAST(format('%04d-%02d-%02d', ${year}, ${month}, ${day}) AS date) END)`;
  },
};
