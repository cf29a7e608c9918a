/**
 * The system time zone database (TZif files, RFC 8536), read the way
 * PostgreSQL built --with-system-tzdata reads it, so that timestamptz output
 * matches a PostgreSQL on the same host: Node's bundled ICU carries its own
 * tzdata release, which differs for merged zones' history (ICU gives
 * Europe/Amsterdam 1890 as +00:17:30, the system file +00:19:32) and lags
 * rule changes. Instants after the last transition follow the file's POSIX
 * TZ footer rule (e.g. 'CET-1CEST,M3.5.0,M10.5.0/3').
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { civilFromDays, daysFromCivil } from './datetime.js';

export const ZONEINFO_DIR = '/usr/share/zoneinfo';

interface PosixRule {
  std: number;
  dst: number | null;
  start: RuleDate | null;
  end: RuleDate | null;
}

interface RuleDate {
  month: number;
  week: number;
  weekday: number;
  /** Seconds after local midnight (may be negative or exceed a day). */
  time: number;
}

export interface TzData {
  /** Transition instants, seconds since 1970 UTC, ascending. */
  transitions: Float64Array;
  /** Offset east of UTC in effect from transitions[k]. */
  offsets: Int32Array;
  /** Offset before the first transition. */
  initial: number;
  rule: PosixRule | null;
}

/** Zone names are paths below the zoneinfo dir: no '..', no absolute paths. */
const SAFE_NAME = /^[A-Za-z0-9_+-]+(?:\/[A-Za-z0-9_+-]+)*$/;

export function loadTzif(zone: string, dir = ZONEINFO_DIR): TzData | null {
  const name = canonicalZoneName(zone, dir);
  if (name === null) return null;
  try {
    return parseTzif(readFileSync(join(dir, name)));
  } catch {
    return null;
  }
}

let lowerNames: Map<string, string> | null = null;
let lowerNamesDir = '';

/**
 * The zone file name as the system spells it: PostgreSQL matches zone names
 * case-insensitively ('europe/berlin' is Europe/Berlin), the file system does
 * not. Null for names that are not plain paths or have no file.
 */
export function canonicalZoneName(zone: string, dir = ZONEINFO_DIR): string | null {
  if (!SAFE_NAME.test(zone)) return null;
  if (lowerNames === null || lowerNamesDir !== dir) {
    lowerNames = new Map();
    lowerNamesDir = dir;
    try {
      for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const rel = join(entry.parentPath ?? entry.path, entry.name).slice(dir.length + 1);
        lowerNames.set(rel.toLowerCase(), rel);
      }
    } catch {
      // No zoneinfo directory: every lookup falls back to ICU.
    }
  }
  return lowerNames.get(zone.toLowerCase()) ?? null;
}

/** A POSIX TZ string used as a zone name ('EST5EDT,M3.2.0,M11.1.0', '<+0530>-05:30', 'UTC+3'), as PostgreSQL accepts it. */
export function posixZone(zone: string): TzData | null {
  const rule = parsePosixTz(zone);
  return rule ? { transitions: new Float64Array(0), offsets: new Int32Array(0), initial: rule.std, rule } : null;
}

export function parseTzif(buf: Buffer): TzData | null {
  if (buf.length < 44 || buf.toString('latin1', 0, 4) !== 'TZif') return null;
  const version = buf[4]!;
  const counts = (at: number) => ({
    isut: buf.readUInt32BE(at + 20),
    isstd: buf.readUInt32BE(at + 24),
    leap: buf.readUInt32BE(at + 28),
    time: buf.readUInt32BE(at + 32),
    type: buf.readUInt32BE(at + 36),
    char: buf.readUInt32BE(at + 40),
  });
  let at = 0;
  let c = counts(0);
  let timeSize = 4;
  if (version >= 0x32) {
    // Skip the 32-bit block; use the 64-bit one that follows.
    at = 44 + c.time * 4 + c.time + c.type * 6 + c.char + c.leap * 8 + c.isstd + c.isut;
    if (buf.toString('latin1', at, at + 4) !== 'TZif') return null;
    c = counts(at);
    timeSize = 8;
  }
  let p = at + 44;
  const transitions = new Float64Array(c.time);
  for (let k = 0; k < c.time; k++, p += timeSize) {
    transitions[k] = timeSize === 8 ? Number(buf.readBigInt64BE(p)) : buf.readInt32BE(p);
  }
  const typeIdx = buf.subarray(p, p + c.time);
  p += c.time;
  const utoff: number[] = [];
  for (let k = 0; k < c.type; k++, p += 6) utoff.push(buf.readInt32BE(p));
  p += c.char + c.leap * (timeSize + 4) + c.isstd + c.isut;
  const offsets = new Int32Array(c.time);
  for (let k = 0; k < c.time; k++) offsets[k] = utoff[typeIdx[k]!] ?? 0;
  let rule: PosixRule | null = null;
  if (timeSize === 8 && buf[p] === 10) {
    const end = buf.indexOf(10, p + 1);
    if (end > p) rule = parsePosixTz(buf.toString('latin1', p + 1, end));
  }
  return { transitions, offsets, initial: utoff[0] ?? 0, rule };
}

/** POSIX TZ string: std offset [dst [offset] [,start[/time],end[/time]]], offsets west-positive. */
export function parsePosixTz(s: string): PosixRule | null {
  let i = 0;
  const name = (): boolean => {
    if (s[i] === '<') {
      const close = s.indexOf('>', i);
      if (close < 0) return false;
      i = close + 1;
      return true;
    }
    const start = i;
    while (i < s.length && /[A-Za-z]/.test(s[i]!)) i++;
    return i - start >= 3;
  };
  const hms = (): number | null => {
    const m = /^([+-])?(\d{1,3})(?::(\d{1,2}))?(?::(\d{1,2}))?/.exec(s.slice(i));
    if (!m) return null;
    i += m[0].length;
    const v = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
    return m[1] === '-' ? -v : v;
  };
  const date = (): RuleDate | null => {
    const m = /^M(\d{1,2})\.(\d)\.(\d)/.exec(s.slice(i));
    if (!m) return null; // Jn / n day forms: not used by current tzdata footers.
    i += m[0].length;
    let time = 7200;
    if (s[i] === '/') {
      i++;
      const t = hms();
      if (t === null) return null;
      time = t;
    }
    return { month: Number(m[1]), week: Number(m[2]), weekday: Number(m[3]), time };
  };
  if (!name()) return null;
  const stdWest = hms();
  if (stdWest === null) return null;
  const std = -stdWest;
  if (i >= s.length) return { std, dst: null, start: null, end: null };
  if (!name()) return null;
  let dst = std + 3600;
  if (s[i] !== ',' && i < s.length) {
    const w = hms();
    if (w === null) return null;
    dst = -w;
  }
  if (s[i] !== ',') return null;
  i++;
  const start = date();
  if (!start || s[i] !== ',') return null;
  i++;
  const end = date();
  if (!end) return null;
  return { std, dst, start, end };
}

/** Day (since 1970) of the w-th (5 = last) weekday d of month m in year y. */
function ruleDay(year: number, r: RuleDate): number {
  const first = daysFromCivil(year, r.month, 1);
  const wdFirst = (((first + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
  let day = first + ((r.weekday - wdFirst + 7) % 7) + (r.week - 1) * 7;
  const nextMonth = r.month === 12 ? daysFromCivil(year + 1, 1, 1) : daysFromCivil(year, r.month + 1, 1);
  while (day >= nextMonth) day -= 7;
  return day;
}

function ruleOffset(rule: PosixRule, utcSeconds: number): number {
  if (rule.dst === null || !rule.start || !rule.end) return rule.std;
  const year = civilFromDays(Math.floor(utcSeconds / 86400))[0]!;
  // Start is given in standard local time, end in daylight local time.
  const start = ruleDay(year, rule.start) * 86400 + rule.start.time - rule.std;
  const end = ruleDay(year, rule.end) * 86400 + rule.end.time - rule.dst;
  const inDst = start < end ? utcSeconds >= start && utcSeconds < end : utcSeconds < end || utcSeconds >= start;
  return inDst ? rule.dst : rule.std;
}

/** Offset east of UTC, in seconds, at an instant. */
export function tzOffsetAt(tz: TzData, utcSeconds: number): number {
  const t = tz.transitions;
  const n = t.length;
  if (n === 0 || utcSeconds < t[0]!) return n === 0 && tz.rule ? ruleOffset(tz.rule, utcSeconds) : tz.initial;
  if (utcSeconds >= t[n - 1]! && tz.rule) return ruleOffset(tz.rule, utcSeconds);
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t[mid]! <= utcSeconds) lo = mid;
    else hi = mid - 1;
  }
  return tz.offsets[lo]!;
}
