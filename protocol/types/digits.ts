/**
 * ASCII digit writers for the DataRow hot path. Each writes into `buf` at
 * `pos` and returns the position after the last byte; the caller has already
 * reserved room (MessageWriter.ensure), so none of them allocate or check.
 */

const ZERO = 48;
const MINUS = 45;

/** Decimal text of an integral number with |v| < 2^53 (int8..int64 that fit, days, years ...). */
export function writeInt(buf: Uint8Array, pos: number, v: number): number {
  if (v < 0) {
    buf[pos++] = MINUS;
    v = -v;
  }
  if (v < 10) {
    buf[pos] = ZERO + v;
    return pos + 1;
  }
  if (v < 2147483648) {
    // int32 fast path: `| 0` truncation is exact and much cheaper than Math.floor on doubles.
    const n = v < 100 ? 2 : v < 1000 ? 3 : v < 10000 ? 4 : v < 100000 ? 5 : v < 1000000 ? 6 : v < 10000000 ? 7 : v < 100000000 ? 8 : v < 1000000000 ? 9 : 10;
    let p = pos + n - 1;
    while (v >= 10) {
      const q = (v / 10) | 0;
      buf[p--] = ZERO + v - q * 10;
      v = q;
    }
    buf[p] = ZERO + v;
    return pos + n;
  }
  // Beyond int32 (< 2^53): split off the last nine digits so both halves use
  // int32 arithmetic; the division is exact on doubles below 2^53.
  const high = Math.floor(v / 1e9);
  let low = v - high * 1e9;
  pos = writeInt(buf, pos, high);
  for (let p = pos + 8; p >= pos; p--) {
    const q = (low / 10) | 0;
    buf[p] = ZERO + low - q * 10;
    low = q;
  }
  return pos + 9;
}

/** Exactly `width` digits, zero padded (0 <= v < 10^width): months, hours, fractions. */
export function writePadded(buf: Uint8Array, pos: number, v: number, width: number): number {
  if (width === 2 && v < 100) {
    const t = (v / 10) | 0;
    buf[pos] = ZERO + t;
    buf[pos + 1] = ZERO + v - t * 10;
    return pos + 2;
  }
  if (v < 2147483648) {
    for (let p = pos + width - 1; p >= pos; p--) {
      const q = (v / 10) | 0;
      buf[p] = ZERO + (v - q * 10);
      v = q;
    }
    return pos + width;
  }
  for (let p = pos + width - 1; p >= pos; p--) {
    const q = Math.floor(v / 10);
    buf[p] = ZERO + (v - q * 10);
    v = q;
  }
  return pos + width;
}

/** At least `width` digits (PostgreSQL prints years as %04d, hours of intervals as %02d). */
export function writeMinPadded(buf: Uint8Array, pos: number, v: number, width: number): number {
  if (width === 4 && v >= 1000 && v < 10000) return writePadded(buf, pos, v, 4);
  let n = 1;
  for (let t = v; t >= 10; t = Math.floor(t / 10)) n++;
  return writePadded(buf, pos, v, n > width ? n : width);
}

/** Decimal text of an arbitrary bigint (hugeint, uhugeint, int128 decimals). */
export function writeBigInt(buf: Uint8Array, pos: number, v: bigint): number {
  const s = v.toString();
  for (let i = 0; i < s.length; i++) buf[pos + i] = s.charCodeAt(i);
  return pos + s.length;
}

/**
 * A signed 64-bit integer held as two 32-bit halves (little-endian lo, hi) as
 * a Number when it is exactly representable, else NaN. Reading int64 vectors
 * through an Int32Array view this way avoids one BigInt allocation per value.
 */
export function int64ToNumber(lo: number, hi: number): number {
  // |value| < 2^53 <=> hi in [-2^21, 2^21).
  if (hi >= -0x200000 && hi < 0x200000) return hi * 4294967296 + (lo >>> 0);
  return NaN;
}

/** Fractional seconds: '.' and up to 6 digits of micros with trailing zeros dropped; nothing when 0. */
export function writeFraction(buf: Uint8Array, pos: number, micros: number): number {
  if (micros === 0) return pos;
  buf[pos++] = 46; // '.'
  let width = 6;
  // micros < 10^6: int32 arithmetic.
  for (let q = (micros / 10) | 0; q * 10 === micros; q = (micros / 10) | 0) {
    micros = q;
    width--;
  }
  return writePadded(buf, pos, micros, width);
}
