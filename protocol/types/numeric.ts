/**
 * numeric text and binary (numeric_out, numeric_send) from the exact forms
 * DuckDB has: an unscaled integer and a scale (DECIMAL(p,s), HUGEINT, UBIGINT
 * with scale 0). numeric_send: int16 ndigits, int16 weight, int16 sign,
 * int16 dscale, then ndigits base-10000 digits, most significant first.
 */
import { writeInt, writePadded } from './digits.js';

export const NUMERIC_POS = 0x0000;
export const NUMERIC_NEG = 0x4000;
export const NUMERIC_NAN = 0xc000;
export const NUMERIC_PINF = 0xd000;
export const NUMERIC_NINF = 0xf000;

/** Powers of ten exact as doubles. */
const POW10 = [1, 10, 100, 1000, 10000, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/** Text of unscaled / 10^scale, for |unscaled| < 2^53; PostgreSQL prints exactly `scale` fraction digits. */
export function writeScaled(buf: Uint8Array, pos: number, unscaled: number, scale: number): number {
  if (scale === 0) return writeInt(buf, pos, unscaled);
  if (unscaled < 0) {
    buf[pos++] = 45;
    unscaled = -unscaled;
  }
  if (scale > 15) {
    // 10^scale is no longer exact as a double: go through the string form.
    const t = scaledText(BigInt(unscaled), scale);
    for (let k = 0; k < t.length; k++) buf[pos++] = t.charCodeAt(k);
    return pos;
  }
  const p10 = POW10[scale]!;
  let intPart = Math.floor(unscaled / p10);
  let frac = unscaled - intPart * p10;
  // The quotient of two doubles can round up across an integer: correct by one step.
  if (frac < 0) {
    intPart--;
    frac += p10;
  }
  pos = writeInt(buf, pos, intPart);
  buf[pos++] = 46;
  return writePadded(buf, pos, frac, scale);
}

/** Same for any bigint (DECIMAL(38,s), HUGEINT). */
export function scaledText(unscaled: bigint, scale: number): string {
  const neg = unscaled < 0n;
  let digits = (neg ? -unscaled : unscaled).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    digits = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  }
  return neg ? `-${digits}` : digits;
}

/** Base-10000 digits of |unscaled| / 10^scale, as numeric_send orders them. */
function toBase10000(absDigits: string, scale: number): { digits: number[]; weight: number } {
  const padded = absDigits.padStart(scale + 1, '0');
  const intPart = padded.slice(0, padded.length - scale);
  const fracPart = padded.slice(padded.length - scale);
  const intGroups = Math.ceil(intPart.length / 4);
  const intAligned = intPart.padStart(intGroups * 4, '0');
  const fracAligned = fracPart.padEnd(Math.ceil(fracPart.length / 4) * 4, '0');
  const all = intAligned + fracAligned;
  const digits: number[] = [];
  for (let i = 0; i < all.length; i += 4) digits.push(Number(all.slice(i, i + 4)));
  let weight = intGroups - 1;
  let first = 0;
  while (first < digits.length && digits[first] === 0) {
    first++;
    weight--;
  }
  let last = digits.length;
  while (last > first && digits[last - 1] === 0) last--;
  const kept = digits.slice(first, last);
  return kept.length === 0 ? { digits: [], weight: 0 } : { digits: kept, weight };
}

/** numeric_send payload of unscaled / 10^scale. */
export function numericBinary(unscaled: bigint, scale: number): Buffer {
  const neg = unscaled < 0n;
  const { digits, weight } = toBase10000((neg ? -unscaled : unscaled).toString(), scale);
  const out = Buffer.allocUnsafe(8 + digits.length * 2);
  out.writeInt16BE(digits.length, 0);
  out.writeInt16BE(weight, 2);
  out.writeUInt16BE(digits.length === 0 || !neg ? NUMERIC_POS : NUMERIC_NEG, 4);
  out.writeInt16BE(scale, 6);
  for (let i = 0; i < digits.length; i++) out.writeInt16BE(digits[i]!, 8 + i * 2);
  return out;
}

export type NumericValue =
  | { kind: 'finite'; unscaled: bigint; scale: number }
  | { kind: 'nan' }
  | { kind: 'infinity'; negative: boolean };

/** Decode numeric_recv input; null when the bytes are not a well-formed numeric. */
export function parseNumericBinary(b: Buffer): NumericValue | null {
  if (b.length < 8) return null;
  const ndigits = b.readInt16BE(0);
  const weight = b.readInt16BE(2);
  const sign = b.readUInt16BE(4);
  const dscale = b.readInt16BE(6);
  if (ndigits < 0 || b.length !== 8 + ndigits * 2 || dscale < 0) return null;
  if (sign === NUMERIC_NAN) return { kind: 'nan' };
  if (sign === NUMERIC_PINF || sign === NUMERIC_NINF) return { kind: 'infinity', negative: sign === NUMERIC_NINF };
  if (sign !== NUMERIC_POS && sign !== NUMERIC_NEG) return null;
  // value = sum(d_i * 10000^(weight - i)); scaled by 10^dscale, truncated as numeric_recv rounds to dscale.
  let acc = 0n;
  for (let i = 0; i < ndigits; i++) {
    const d = b.readInt16BE(8 + i * 2);
    if (d < 0 || d > 9999) return null;
    acc = acc * 10000n + BigInt(d);
  }
  // acc currently has scale 4 * (ndigits - 1 - weight) decimal digits.
  const have = 4 * (ndigits - 1 - weight);
  let unscaled: bigint;
  if (have <= dscale) unscaled = acc * 10n ** BigInt(dscale - have);
  else unscaled = acc / 10n ** BigInt(have - dscale);
  return { kind: 'finite', unscaled: sign === NUMERIC_NEG ? -unscaled : unscaled, scale: dscale };
}

const NUMERIC_TEXT = /^\s*([+-])?(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?\s*$/;

/** Decode numeric_in input (digits, point, exponent, NaN, Infinity); null when malformed. */
export function parseNumericText(s: string): NumericValue | null {
  const t = s.trim().toLowerCase();
  if (t === 'nan') return { kind: 'nan' };
  if (t === 'infinity' || t === '+infinity' || t === 'inf' || t === '+inf') return { kind: 'infinity', negative: false };
  if (t === '-infinity' || t === '-inf') return { kind: 'infinity', negative: true };
  const m = NUMERIC_TEXT.exec(s.replace(/_/g, ''));
  if (!m) return null;
  const intDigits = m[2] ?? '';
  const fracDigits = m[3] ?? m[4] ?? '';
  const exp = m[5] ? Number(m[5]) : 0;
  let scale = fracDigits.length - exp;
  let unscaled = BigInt((intDigits + fracDigits) || '0');
  if (scale < 0) {
    unscaled *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { kind: 'finite', unscaled: m[1] === '-' ? -unscaled : unscaled, scale };
}

const groups = new Int32Array(16);

/**
 * numeric_send of unscaled / 10^scale written straight into buf, for the hot
 * path: |unscaled| < 2^53 and scale <= 12 (else returns -1 and the caller uses
 * numericBinary). Needs 8 + 2 * 8 bytes of room.
 */
export function writeNumericBinary(buf: Buffer, pos: number, unscaled: number, scale: number): number {
  if (scale > 12 || !(Math.abs(unscaled) <= 9007199254740991)) return -1;
  const neg = unscaled < 0;
  const v = neg ? -unscaled : unscaled;
  const p10 = POW10[scale]!;
  let intPart = Math.floor(v / p10);
  let frac = v - intPart * p10;
  if (frac < 0) {
    intPart--;
    frac += p10;
  } else if (frac >= p10) {
    intPart++;
    frac -= p10;
  }
  // Integer groups, least significant first, then reversed into place.
  let n = 0;
  while (intPart > 0) {
    const q = Math.floor(intPart / 10000);
    groups[n++] = intPart - q * 10000;
    intPart = q;
  }
  for (let a = 0, b = n - 1; a < b; a++, b--) {
    const t = groups[a]!;
    groups[a] = groups[b]!;
    groups[b] = t;
  }
  let weight = n - 1;
  const fracGroups = (scale + 3) >> 2;
  let f = frac * POW10[fracGroups * 4 - scale]!;
  for (let k = fracGroups - 1; k >= 0; k--) {
    const q = Math.floor(f / 10000);
    groups[n + k] = f - q * 10000;
    f = q;
  }
  n += fracGroups;
  let first = 0;
  while (first < n && groups[first] === 0) {
    first++;
    weight--;
  }
  while (n > first && groups[n - 1] === 0) n--;
  const ndigits = n - first;
  buf.writeInt16BE(ndigits, pos);
  buf.writeInt16BE(ndigits === 0 ? 0 : weight, pos + 2);
  buf.writeUInt16BE(ndigits === 0 || !neg ? NUMERIC_POS : NUMERIC_NEG, pos + 4);
  buf.writeInt16BE(scale, pos + 6);
  pos += 8;
  for (let k = first; k < n; k++) {
    buf[pos++] = groups[k]! >> 8;
    buf[pos++] = groups[k]! & 0xff;
  }
  return pos;
}
