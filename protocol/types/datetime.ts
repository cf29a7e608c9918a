/**
 * PostgreSQL's ISO text for date, time, timestamp and timezone offsets
 * (DateStyle ISO; src/backend/utils/adt/datetime.c EncodeDateOnly,
 * EncodeTimeOnly, EncodeDateTime, EncodeTimezone), from the integer forms both
 * engines store: days and microseconds since 1970-01-01 (DuckDB's epoch), or
 * since 2000-01-01 for PostgreSQL's binary format. Writers take a byte array
 * and a position and return the new position (the hot path); the caller has
 * reserved MAX_TIMESTAMPTZ_TEXT bytes.
 */
import { writeFraction, writeMinPadded, writePadded } from './digits.js';

export const MICROS_PER_DAY = 86_400_000_000;
export const MICROS_PER_SECOND = 1_000_000;
/** Days from 1970-01-01 to 2000-01-01, PostgreSQL's epoch for binary date/timestamp. */
export const PG_EPOCH_DAYS = 10_957;
export const PG_EPOCH_MICROS = 946_684_800_000_000;
export const PG_EPOCH_MICROS_BIG = 946_684_800_000_000n;

/** Longest text: '294247-01-10 04:00:54.775807+15:59:59 BC' and some slack. */
export const MAX_TIMESTAMPTZ_TEXT = 48;

const INFINITY = Buffer.from('infinity');
const NEG_INFINITY = Buffer.from('-infinity');
const BC = Buffer.from(' BC');

export function writeInfinity(buf: Uint8Array, pos: number, negative: boolean): number {
  const src = negative ? NEG_INFINITY : INFINITY;
  buf.set(src, pos);
  return pos + src.length;
}

/**
 * Proleptic Gregorian year/month/day of a day count since 1970-01-01
 * (H. Hinnant's civil_from_days). Year 0 is 1 BC, as in PostgreSQL's j2date.
 * Returns year * 10000 + month * 100 + day... no: packs into the shared scratch below.
 */
const ymd = new Int32Array(3);

export function civilFromDays(days: number): Int32Array {
  const z = days + 719468;
  if (z >= 0 && z < 2147483647) {
    // Dates from 0000-03-01 on: all quantities are non-negative int32, so `| 0` floors.
    const era = (z / 146097) | 0;
    const doe = z - era * 146097;
    const yoe = ((doe - ((doe / 1460) | 0) + ((doe / 36524) | 0) - ((doe / 146096) | 0)) / 365) | 0;
    const doy = doe - (365 * yoe + ((yoe / 4) | 0) - ((yoe / 100) | 0));
    const mp = ((5 * doy + 2) / 153) | 0;
    const m = mp < 10 ? mp + 3 : mp - 9;
    ymd[0] = yoe + era * 400 + (m <= 2 ? 1 : 0);
    ymd[1] = m;
    ymd[2] = doy - (((153 * mp + 2) / 5) | 0) + 1;
    return ymd;
  }
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  ymd[0] = yoe + era * 400 + (m <= 2 ? 1 : 0);
  ymd[1] = m;
  ymd[2] = d;
  return ymd;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (year 0 = 1 BC). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * Recently written dates, kept as bytes in a small direct-mapped cache:
 * consecutive timestamps mostly share their day, and the calendar arithmetic
 * is the costly part of the text. Several slots, so a date column and a
 * timestamp column in the same row do not evict each other.
 */
const SLOTS = 64;
const SLOT_BYTES = 16;
const cachedDays = new Float64Array(SLOTS).fill(NaN);
const cachedLen = new Uint8Array(SLOTS);
const cachedYear = new Int32Array(SLOTS);
const cachedBytes = new Uint8Array(SLOTS * SLOT_BYTES);

/** 'YYYY-MM-DD' without the BC suffix (the caller checks ymd[0] <= 0 for BC). */
function writeYmd(buf: Uint8Array, pos: number, days: number): number {
  const slot = days & (SLOTS - 1);
  if (cachedDays[slot] === days) {
    const len = cachedLen[slot]!;
    const from = slot * SLOT_BYTES;
    for (let k = 0; k < len; k++) buf[pos + k] = cachedBytes[from + k]!;
    ymd[0] = cachedYear[slot]!;
    return pos + len;
  }
  const start = pos;
  const c = civilFromDays(days);
  const year = c[0]!;
  pos = writeMinPadded(buf, pos, year > 0 ? year : 1 - year, 4);
  buf[pos++] = 45;
  pos = writePadded(buf, pos, c[1]!, 2);
  buf[pos++] = 45;
  pos = writePadded(buf, pos, c[2]!, 2);
  const len = pos - start;
  if (len <= SLOT_BYTES) {
    const to = slot * SLOT_BYTES;
    for (let k = 0; k < len; k++) cachedBytes[to + k] = buf[start + k]!;
    cachedDays[slot] = days;
    cachedLen[slot] = len;
    cachedYear[slot] = year;
  }
  return pos;
}

function writeBC(buf: Uint8Array, pos: number): number {
  buf.set(BC, pos);
  return pos + 3;
}

/** date_out for a finite date (days since 1970-01-01). */
export function writeDate(buf: Uint8Array, pos: number, days: number): number {
  pos = writeYmd(buf, pos, days);
  return ymd[0]! <= 0 ? writeBC(buf, pos) : pos;
}

/** 'HH:MM:SS[.ffffff]' of microseconds since midnight (24:00:00 allowed, as in PostgreSQL). */
export function writeTime(buf: Uint8Array, pos: number, micros: number): number {
  const secs = Math.floor(micros / MICROS_PER_SECOND);
  const frac = micros - secs * MICROS_PER_SECOND;
  // secs <= 86400: int32 arithmetic from here on.
  const h = (secs / 3600) | 0;
  const rem = secs - h * 3600;
  const m = (rem / 60) | 0;
  pos = writePadded(buf, pos, h, 2);
  buf[pos++] = 58;
  pos = writePadded(buf, pos, m, 2);
  buf[pos++] = 58;
  pos = writePadded(buf, pos, rem - m * 60, 2);
  return writeFraction(buf, pos, frac);
}

/**
 * EncodeTimezone: '+HH', '+HH:MM' or '+HH:MM:SS' ('+HH:MM' at least in XSD
 * style, which json output uses). `offsetSeconds` is east of UTC (DuckDB's
 * and ISO's sign, the opposite of PostgreSQL's internal tz).
 */
export function writeOffset(buf: Uint8Array, pos: number, offsetSeconds: number, xsd = false): number {
  buf[pos++] = offsetSeconds >= 0 ? 43 : 45;
  let s = Math.abs(offsetSeconds);
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  pos = writeMinPadded(buf, pos, h, 2);
  if (m === 0 && s === 0 && !xsd) return pos;
  buf[pos++] = 58;
  pos = writePadded(buf, pos, m, 2);
  if (s === 0) return pos;
  buf[pos++] = 58;
  return writePadded(buf, pos, s, 2);
}

/**
 * timestamp_out / timestamptz_out for a finite value split into days since
 * 1970-01-01 and microseconds within the day (0 <= micros < MICROS_PER_DAY).
 * With an offset, it is printed before the BC suffix, as PostgreSQL does.
 * `xsd`: the XSD form json output uses ('T' separator, offset with minutes).
 */
export function writeTimestampParts(buf: Uint8Array, pos: number, days: number, micros: number, offsetSeconds?: number, xsd = false): number {
  pos = writeYmd(buf, pos, days);
  const bc = ymd[0]! <= 0;
  buf[pos++] = xsd ? 84 : 32;
  pos = writeTime(buf, pos, micros);
  if (offsetSeconds !== undefined) pos = writeOffset(buf, pos, offsetSeconds, xsd);
  return bc ? writeBC(buf, pos) : pos;
}

/** Split microseconds since 1970 (a Number, exact below 2^53) and write the timestamp. */
export function writeTimestamp(buf: Uint8Array, pos: number, micros: number, offsetSeconds?: number, xsd = false): number {
  const days = Math.floor(micros / MICROS_PER_DAY);
  return writeTimestampParts(buf, pos, days, micros - days * MICROS_PER_DAY, offsetSeconds, xsd);
}

/** Same for a bigint (timestamps more than ~285 years from 1970 exceed 2^53 µs). */
export function writeTimestampBig(buf: Uint8Array, pos: number, micros: bigint, offsetSeconds?: number, xsd = false): number {
  let days = micros / 86_400_000_000n;
  let rem = micros - days * 86_400_000_000n;
  if (rem < 0n) {
    days -= 1n;
    rem += 86_400_000_000n;
  }
  return writeTimestampParts(buf, pos, Number(days), Number(rem), offsetSeconds, xsd);
}

/** Convenience for callers off the hot path (tests, parameters, catalog). */
export function textOf(write: (buf: Uint8Array, pos: number) => number): string {
  const scratch = Buffer.allocUnsafe(64);
  return scratch.toString('latin1', 0, write(scratch, 0));
}
