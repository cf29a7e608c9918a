/**
 * UTC offset of an IANA zone at an instant, for timestamptz output in the
 * session TimeZone. The system tzdata answers when it has the zone (what a
 * PostgreSQL on this host uses, see tzif.ts); otherwise Intl (ICU's tzdata).
 * Either answer is cached per UTC hour: offsets change at most once within an hour, so an hour whose start
 * and end offsets agree is constant, and an hour that holds a transition is
 * bisected once to the second. A chunk of timestamps then costs one Map lookup
 * per distinct hour instead of one Intl call per value.
 */

import { PgError, SqlState } from '../errors.js';
import { loadTzif, posixZone, tzOffsetAt, type TzData } from './tzif.js';

const UTC_NAMES = new Set(['UTC', 'ETC/UTC', 'GMT', 'ETC/GMT', 'Z', 'ZULU', 'UCT', 'ETC/UCT', 'UNIVERSAL', 'ETC/UNIVERSAL', 'GREENWICH']);
/** Instants outside what Date can represent are clamped; zones are fixed LMT / rule-based that far out. */
const MIN_SECONDS = -8_000_000_000_000;
const MAX_SECONDS = 8_000_000_000_000;
const CACHE_LIMIT = 200_000;

interface HourEntry {
  start: number;
  end: number;
  /** First UTC second of the hour that has the `end` offset (only when start !== end). */
  switchAt: number;
}

export class ZoneOffsets {
  readonly isUtc: boolean;
  private readonly fmt: Intl.DateTimeFormat | null;
  private readonly tz: TzData | null;
  private readonly hours = new Map<number, HourEntry>();
  private lastHour = NaN;
  private lastEntry: HourEntry | null = null;

  constructor(readonly zone: string) {
    this.isUtc = UTC_NAMES.has(zone.toUpperCase());
    this.tz = this.isUtc ? null : (loadTzif(zone) ?? posixZone(zone));
    this.fmt = this.isUtc || this.tz ? null : icuFormat(zone);
  }

  /** Offset east of UTC, in seconds, at `utcSeconds` since 1970-01-01T00:00:00Z. */
  offsetAt(utcSeconds: number): number {
    if (this.isUtc) return 0;
    const hour = Math.floor(utcSeconds / 3600);
    let e = hour === this.lastHour ? this.lastEntry : this.hours.get(hour);
    if (!e) {
      e = this.entryFor(hour);
      if (this.hours.size >= CACHE_LIMIT) this.hours.clear();
      this.hours.set(hour, e);
    }
    this.lastHour = hour;
    this.lastEntry = e;
    return e.start === e.end || utcSeconds < e.switchAt ? e.start : e.end;
  }

  private entryFor(hour: number): HourEntry {
    const t0 = hour * 3600;
    const start = this.compute(t0);
    const end = this.compute(t0 + 3599);
    if (start === end) return { start, end, switchAt: t0 };
    let lo = t0;
    let hi = t0 + 3599; // compute(lo) === start, compute(hi) === end
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.compute(mid) === start) lo = mid;
      else hi = mid;
    }
    return { start, end, switchAt: hi };
  }

  /** Wall clock minus UTC at one instant. */
  private compute(utcSeconds: number): number {
    if (this.tz) return tzOffsetAt(this.tz, utcSeconds);
    const t = Math.min(MAX_SECONDS, Math.max(MIN_SECONDS, utcSeconds));
    let year = 0;
    let month = 1;
    let day = 1;
    let h = 0;
    let mi = 0;
    let s = 0;
    let bc = false;
    for (const p of this.fmt!.formatToParts(new Date(t * 1000))) {
      switch (p.type) {
        case 'year': year = Number(p.value); break;
        case 'month': month = Number(p.value); break;
        case 'day': day = Number(p.value); break;
        case 'hour': h = Number(p.value); break;
        case 'minute': mi = Number(p.value); break;
        case 'second': s = Number(p.value); break;
        case 'era': bc = p.value.startsWith('B'); break;
        default: break;
      }
    }
    const d = new Date(0);
    d.setUTCFullYear(bc ? 1 - year : year, month - 1, day);
    d.setUTCHours(h, mi, s, 0);
    return Math.round(d.getTime() / 1000) - t;
  }
}

/** ICU as the last resort; an unknown zone is the error PostgreSQL gives for SET TimeZone. */
function icuFormat(zone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    throw new PgError(SqlState.invalidParameterValue, `invalid value for parameter "TimeZone": "${zone}"`);
  }
}

/** Whether a TimeZone setting names a zone lakegate can print timestamptz values in. */
export function isKnownZone(zone: string): boolean {
  try {
    zoneOffsets(zone);
    return true;
  } catch {
    return false;
  }
}

const zones = new Map<string, ZoneOffsets>();

/** One shared, cached ZoneOffsets per zone name (sessions with the same TimeZone share the cache). */
export function zoneOffsets(zone: string): ZoneOffsets {
  let z = zones.get(zone);
  if (!z) {
    z = new ZoneOffsets(zone);
    // Names come from clients (SET TimeZone, POSIX strings): keep the cache bounded.
    if (zones.size >= 1000) zones.clear();
    zones.set(zone, z);
  }
  return z;
}
