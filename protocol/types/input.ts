/**
 * PostgreSQL input functions for Bind parameters (int4in, float8in, boolin,
 * date_in, timestamp_in ...), with PostgreSQL's SQLSTATEs and message texts.
 * Pure: values come back in the integer forms of protocol/types (days and
 * microseconds since 1970-01-01) and know nothing of DuckDB.
 */
import { PgError, SqlState } from '../errors.js';
import { daysFromCivil, MICROS_PER_DAY } from './datetime.js';
import type { ZoneOffsets } from './timezone.js';
import { zoneOffsets } from './timezone.js';

// Not yet in protocol/errors.ts SqlState (asked for there): datetime input errors.
const INVALID_DATETIME_FORMAT = SqlState.invalidDatetimeFormat;
const DATETIME_FIELD_OVERFLOW = SqlState.datetimeFieldOverflow;

export const invalidSyntax = (typeName: string, input: string): PgError =>
  new PgError(SqlState.invalidTextRepresentation, `invalid input syntax for type ${typeName}: "${input}"`);

const INT_LIMITS = {
  smallint: [-32768n, 32767n],
  integer: [-2147483648n, 2147483647n],
  bigint: [-9223372036854775808n, 9223372036854775807n],
} as const;

/** int2in / int4in / int8in (PostgreSQL 15: optional sign, decimal digits, surrounding whitespace). */
export function parseIntText(s: string, typeName: keyof typeof INT_LIMITS): bigint {
  const m = /^\s*([+-]?\d+)\s*$/.exec(s);
  if (!m) throw invalidSyntax(typeName, s);
  const v = BigInt(m[1]!);
  const [lo, hi] = INT_LIMITS[typeName];
  if (v < lo || v > hi) throw new PgError(SqlState.numericValueOutOfRange, `value "${s}" is out of range for type ${typeName}`);
  return v;
}

const FLOAT_TEXT = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** float4in / float8in: decimal forms plus NaN / Infinity / inf in any case; out of range is an error. */
export function parseFloatText(s: string, single: boolean): number {
  const typeName = single ? 'real' : 'double precision';
  const t = s.trim().toLowerCase();
  if (t === 'nan') return NaN;
  if (t === 'infinity' || t === '+infinity' || t === 'inf' || t === '+inf') return Infinity;
  if (t === '-infinity' || t === '-inf') return -Infinity;
  if (!FLOAT_TEXT.test(s)) throw invalidSyntax(typeName, s);
  const v = Number(t);
  const r = single ? Math.fround(v) : v;
  const zeroInput = !/[1-9]/.test(t.replace(/e.*$/, ''));
  if (!Number.isFinite(r) || (r === 0 && !zeroInput)) {
    throw new PgError(SqlState.numericValueOutOfRange, `"${s}" is out of range for type ${typeName}`);
  }
  return r;
}

/** boolin: t/true/y/yes/on/1 and f/false/n/no/off/0, any case, unique prefixes, trimmed. */
export function parseBoolText(s: string): boolean {
  const t = s.trim().toLowerCase();
  if (t.length > 0) {
    if ('true'.startsWith(t) || 'yes'.startsWith(t) || t === '1' || (t.length >= 2 && 'on'.startsWith(t))) return true;
    if ('false'.startsWith(t) || 'no'.startsWith(t) || t === '0' || (t.length >= 2 && 'off'.startsWith(t))) return false;
  }
  throw invalidSyntax('boolean', s);
}

export type Infinite = 'infinity' | '-infinity';

const DATETIME = new RegExp(
  '^\\s*(\\d{1,})-(\\d{1,2})-(\\d{1,2})' + // date
    '(?:(?:\\s+|T)(\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d*))?)?)?' + // time
    '\\s*(Z|[+-]\\d{1,2}(?::?\\d{2}(?::?\\d{2})?)?|(?!(?:BC|AD)\\s*$)[A-Za-z][A-Za-z0-9_/+-]*)?' + // zone (not the era)
    '\\s*(BC|AD)?\\s*$',
  'i',
);

interface DateTimeParts {
  days: number;
  micros: number;
  /** Seconds east of UTC when the text names a zone; null when it names none. */
  offset: ((localSeconds: number) => number) | null;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Offset (east, seconds) for a zone given in the text: 'Z', '+05', '-03:30', '+0530', or a zone name. */
function zoneOf(z: string): (localSeconds: number) => number {
  if (/^z$/i.test(z)) return () => 0;
  const m = /^([+-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?$/.exec(z);
  if (m) {
    const secs = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
    const off = m[1] === '-' ? -secs : secs;
    return () => off;
  }
  let zone: ZoneOffsets;
  try {
    zone = zoneOffsets(z);
  } catch {
    throw new PgError(INVALID_DATETIME_FORMAT, `time zone "${z}" not recognized`);
  }
  return (local) => localToOffset(zone, local);
}

/**
 * The offset that applies to a local wall-clock time in `zone`. In a DST gap
 * the pre-transition offset is used, so 02:30 in a spring-forward gap reads
 * as 03:30 DST, as PostgreSQL does.
 */
export function localToOffset(zone: ZoneOffsets, localSeconds: number): number {
  const first = zone.offsetAt(localSeconds);
  const second = zone.offsetAt(localSeconds - first);
  return first === second ? first : second;
}

function parseDateTime(s: string, typeName: string): DateTimeParts | Infinite {
  const t = s.trim().toLowerCase();
  if (t === 'infinity' || t === '+infinity') return 'infinity';
  if (t === '-infinity') return '-infinity';
  if (t === 'epoch') return { days: 0, micros: 0, offset: () => 0 };
  const m = DATETIME.exec(s);
  if (!m) throw new PgError(INVALID_DATETIME_FORMAT, `invalid input syntax for type ${typeName}: "${s}"`);
  let year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const bc = (m[9] ?? '').toUpperCase() === 'BC';
  if (year === 0 || month < 1 || month > 12) throw new PgError(DATETIME_FIELD_OVERFLOW, `date/time field value out of range: "${s}"`);
  if (bc) year = 1 - year;
  if (day < 1 || day > daysInMonth(year, month)) throw new PgError(DATETIME_FIELD_OVERFLOW, `date/time field value out of range: "${s}"`);
  const h = Number(m[4] ?? 0);
  const mi = Number(m[5] ?? 0);
  const sec = Number(m[6] ?? 0);
  const frac = m[7] ? Math.round(Number(`0.${m[7]}`) * 1e6) : 0;
  if (h > 24 || mi > 59 || sec > 60 || (h === 24 && (mi > 0 || sec > 0 || frac > 0))) {
    throw new PgError(DATETIME_FIELD_OVERFLOW, `date/time field value out of range: "${s}"`);
  }
  const offset = m[8] ? zoneOf(m[8]) : null;
  return { days: daysFromCivil(year, month, day), micros: ((h * 60 + mi) * 60 + sec) * 1e6 + frac, offset };
}

/** date_in (ISO and BC forms, infinity, epoch); a time or zone after the date is accepted and ignored. */
export function parseDateText(s: string): number | Infinite {
  const p = parseDateTime(s, 'date');
  if (typeof p === 'string') return p;
  return p.days;
}

/** timestamp_in: microseconds since 1970 of the wall-clock value (a zone in the text is ignored, as PostgreSQL does). */
export function parseTimestampText(s: string): bigint | Infinite {
  const p = parseDateTime(s, 'timestamp');
  if (typeof p === 'string') return p;
  return BigInt(p.days) * BigInt(MICROS_PER_DAY) + BigInt(p.micros);
}

/** timestamptz_in: the instant, as microseconds since 1970 UTC; no zone in the text → the session zone. */
export function parseTimestampTzText(s: string, sessionZone: string): bigint | Infinite {
  const p = parseDateTime(s, 'timestamp with time zone');
  if (typeof p === 'string') return p;
  const localSeconds = p.days * 86400 + Math.floor(p.micros / 1e6);
  const zone = zoneOffsets(sessionZone);
  const off = p.offset ? p.offset(localSeconds) : localToOffset(zone, localSeconds);
  return BigInt(p.days) * BigInt(MICROS_PER_DAY) + BigInt(p.micros) - BigInt(off) * 1_000_000n;
}

/** time_in: 'HH:MM[:SS[.ffffff]]' → microseconds since midnight. */
export function parseTimeText(s: string): bigint {
  const m = /^\s*(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d*))?)?\s*$/.exec(s);
  if (!m) throw new PgError(INVALID_DATETIME_FORMAT, `invalid input syntax for type time: "${s}"`);
  const h = Number(m[1]);
  const mi = Number(m[2]);
  const sec = Number(m[3] ?? 0);
  const frac = m[4] ? Math.round(Number(`0.${m[4]}`) * 1e6) : 0;
  if (h > 24 || mi > 59 || sec > 60 || (h === 24 && (mi > 0 || sec > 0 || frac > 0))) {
    throw new PgError(DATETIME_FIELD_OVERFLOW, `date/time field value out of range: "${s}"`);
  }
  return BigInt(((h * 60 + mi) * 60 + sec) * 1e6 + frac);
}

const INTERVAL_UNITS: Record<string, 'year' | 'month' | 'week' | 'day' | 'hour' | 'minute' | 'second' | 'ms' | 'us'> = {
  y: 'year', yr: 'year', yrs: 'year', year: 'year', years: 'year',
  mon: 'month', mons: 'month', month: 'month', months: 'month',
  w: 'week', week: 'week', weeks: 'week',
  d: 'day', day: 'day', days: 'day',
  h: 'hour', hr: 'hour', hrs: 'hour', hour: 'hour', hours: 'hour',
  m: 'minute', min: 'minute', mins: 'minute', minute: 'minute', minutes: 'minute',
  s: 'second', sec: 'second', secs: 'second', second: 'second', seconds: 'second',
  ms: 'ms', msec: 'ms', msecs: 'ms', millisecond: 'ms', milliseconds: 'ms',
  us: 'us', usec: 'us', usecs: 'us', microsecond: 'us', microseconds: 'us',
};

/**
 * interval_in for the postgres and verbose styles ('1 year 2 mons 3 days
 * 04:05:06.789', '-1 days +02:00:00', '@ 1 hour ago', '90 minutes'), the
 * forms clients send. Returns months, days and microseconds.
 */
export function parseIntervalText(s: string): { months: number; days: number; micros: bigint } {
  const fail = (): PgError => new PgError(INVALID_DATETIME_FORMAT, `invalid input syntax for type interval: "${s}"`);
  let text = s.trim().toLowerCase();
  if (text.startsWith('@')) text = text.slice(1).trim();
  let ago = false;
  if (/\sago$/.test(text) || text === 'ago') {
    ago = true;
    text = text.replace(/\s*ago$/, '');
  }
  let months = 0;
  let days = 0;
  let micros = 0;
  const re = /\s*(?:([+-]?)(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d*)?))?|([+-]?(?:\d+\.?\d*|\.\d+))\s*([a-z]+)?)/y;
  let pos = 0;
  let any = false;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m || m[0].length === 0) throw fail();
    pos = re.lastIndex;
    any = true;
    if (m[2] !== undefined) {
      const sign = m[1] === '-' ? -1 : 1;
      const t = (Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0)) * 1e6;
      micros += sign * Math.round(t);
      continue;
    }
    const n = Number(m[5]);
    const unit = m[6] === undefined ? 'second' : INTERVAL_UNITS[m[6]];
    if (!unit) throw fail();
    switch (unit) {
      case 'year': months += Math.trunc(n * 12); break;
      case 'month': {
        const whole = Math.trunc(n);
        months += whole;
        // Fractions of a month spill into days of 30, as in PostgreSQL.
        const fd = (n - whole) * 30;
        days += Math.trunc(fd);
        micros += Math.round((fd - Math.trunc(fd)) * 86_400e6);
        break;
      }
      case 'week':
      case 'day': {
        const d = unit === 'week' ? n * 7 : n;
        days += Math.trunc(d);
        micros += Math.round((d - Math.trunc(d)) * 86_400e6);
        break;
      }
      case 'hour': micros += Math.round(n * 3_600e6); break;
      case 'minute': micros += Math.round(n * 60e6); break;
      case 'second': micros += Math.round(n * 1e6); break;
      case 'ms': micros += Math.round(n * 1e3); break;
      default: micros += Math.round(n);
    }
  }
  if (!any) throw fail();
  const sign = ago ? -1 : 1;
  return { months: sign * months || 0, days: sign * days || 0, micros: BigInt(sign * micros || 0) };
}
