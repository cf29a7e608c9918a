/**
 * Time-zone arithmetic for Ranger's validity schedules, with no dependency beyond `Intl`.
 *
 * Ranger resolves zone names with Java's `TimeZone.getTimeZone`, which knows three kinds of
 * names that `Intl` does not treat the same way:
 *  - the old three-letter ids (`PST`, `IST`, `CTT` …), which Java maps to a region;
 *  - `EST`, `MST`, `HST`, which Java (unlike ICU) treats as fixed offsets;
 *  - custom offsets `GMT+8`, `GMT-08:00`, `GMT+0530`.
 * Those are mapped here explicitly; everything else goes to `Intl` as an IANA name.
 */

export type ResolvedZone = { kind: 'fixed'; offsetMinutes: number; id: string } | { kind: 'region'; iana: string; id: string };

/** Wall-clock fields; month is 1-12, dayOfWeek is Java's 1 (Sunday) .. 7 (Saturday). */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

export class UnknownTimeZoneError extends Error {
  constructor(readonly zoneId: string) {
    super(`unknown time zone '${zoneId}'`);
    this.name = 'UnknownTimeZoneError';
  }
}

/** java.time.ZoneId.SHORT_IDS, the ids java.util.TimeZone still accepts. */
const JAVA_SHORT_IDS: Readonly<Record<string, string>> = {
  ACT: 'Australia/Darwin',
  AET: 'Australia/Sydney',
  AGT: 'America/Argentina/Buenos_Aires',
  ART: 'Africa/Cairo',
  AST: 'America/Anchorage',
  BET: 'America/Sao_Paulo',
  BST: 'Asia/Dhaka',
  CAT: 'Africa/Harare',
  CNT: 'America/St_Johns',
  CST: 'America/Chicago',
  CTT: 'Asia/Shanghai',
  EAT: 'Africa/Addis_Ababa',
  ECT: 'Europe/Paris',
  IET: 'America/Indiana/Indianapolis',
  IST: 'Asia/Kolkata',
  JST: 'Asia/Tokyo',
  MIT: 'Pacific/Apia',
  NET: 'Asia/Yerevan',
  NST: 'Pacific/Auckland',
  PLT: 'Asia/Karachi',
  PNT: 'America/Phoenix',
  PRT: 'America/Puerto_Rico',
  PST: 'America/Los_Angeles',
  SST: 'Pacific/Guadalcanal',
  VST: 'Asia/Ho_Chi_Minh',
};

/** Java keeps these three as fixed offsets (ICU maps them to regions with history). */
const JAVA_FIXED_IDS: Readonly<Record<string, number>> = { EST: -300, MST: -420, HST: -600 };

const CUSTOM_OFFSET = /^(?:GMT|UTC)([+-])(\d{1,2})(?::?(\d{2}))?$/;

const resolvedCache = new Map<string, ResolvedZone>();

/** Resolve a Java/IANA zone id; throws UnknownTimeZoneError for a name neither Java nor Intl knows. */
export function resolveTimeZone(id: string): ResolvedZone {
  const cached = resolvedCache.get(id);
  if (cached) return cached;
  const resolved = resolveUncached(id);
  resolvedCache.set(id, resolved);
  return resolved;
}

function resolveUncached(id: string): ResolvedZone {
  if (id === 'GMT' || id === 'UTC' || id === 'Z') return { kind: 'fixed', offsetMinutes: 0, id };
  // a zone id from policy JSON: only the ids listed here, never Object.prototype's members
  const fixed = Object.hasOwn(JAVA_FIXED_IDS, id) ? JAVA_FIXED_IDS[id] : undefined;
  if (fixed !== undefined) return { kind: 'fixed', offsetMinutes: fixed, id };
  const custom = CUSTOM_OFFSET.exec(id);
  if (custom) {
    const hours = Number(custom[2]);
    const minutes = custom[3] === undefined ? 0 : Number(custom[3]);
    if (hours > 23 || minutes > 59) throw new UnknownTimeZoneError(id);
    const sign = custom[1] === '-' ? -1 : 1;
    return { kind: 'fixed', offsetMinutes: sign * (hours * 60 + minutes), id };
  }
  const iana = (Object.hasOwn(JAVA_SHORT_IDS, id) ? JAVA_SHORT_IDS[id] : undefined) ?? id;
  try {
    formatterFor(iana);
  } catch {
    throw new UnknownTimeZoneError(id);
  }
  return { kind: 'region', iana, id };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(iana: string): Intl.DateTimeFormat {
  let f = formatters.get(iana);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: iana,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(iana, f);
  }
  return f;
}

/** Offset of the zone from UTC at the given instant, in minutes (east positive). */
export function offsetMinutesAt(zone: ResolvedZone, epochMs: number): number {
  if (zone.kind === 'fixed') return zone.offsetMinutes;
  const wall = regionWallClock(zone.iana, epochMs);
  const asUtc = wallClockToEpochMsUtc(wall);
  return Math.round((asUtc - epochMs) / 60000);
}

function regionWallClock(iana: string, epochMs: number): WallClock {
  // Intl has second precision; the millisecond is carried over from the instant itself.
  const parts = formatterFor(iana).formatToParts(new Date(epochMs));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? NaN);
  const era = parts.find((p) => p.type === 'era')?.value;
  let year = get('year');
  if (era === 'BC' || era === 'B') year = 1 - year;
  return {
    year,
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
    millisecond: ((epochMs % 1000) + 1000) % 1000,
  };
}

/** The wall clock shown in `zone` at `epochMs`. */
export function wallClockAt(zone: ResolvedZone, epochMs: number): WallClock {
  if (zone.kind === 'fixed') return utcWallClock(epochMs + zone.offsetMinutes * 60000);
  return regionWallClock(zone.iana, epochMs);
}

/** Reads a wall clock as if it were UTC — the arithmetic space for calendar stepping. */
export function wallClockToEpochMsUtc(w: WallClock): number {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, w.millisecond);
  return d.getTime();
}

export function utcWallClock(epochMs: number): WallClock {
  const d = new Date(epochMs);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
  };
}

/**
 * The instant at which `zone` shows wall clock `w`. In a DST gap the earlier offset is used
 * (the instant lands after the gap); in an overlap the first occurrence wins — as Java's lenient
 * Calendar does.
 */
export function wallClockToEpochMs(zone: ResolvedZone, w: WallClock): number {
  const asUtc = wallClockToEpochMsUtc(w);
  if (zone.kind === 'fixed') return asUtc - zone.offsetMinutes * 60000;
  // Transitions are rarer than one a day: the offsets a day either side are the only candidates.
  const before = offsetMinutesAt(zone, asUtc - 86400000);
  const after = offsetMinutesAt(zone, asUtc + 86400000);
  const valid = [before, after]
    .map((offset) => asUtc - offset * 60000)
    .filter((t) => wallClockToEpochMsUtc(wallClockAt(zone, t)) === asUtc)
    .sort((a, b) => a - b);
  return valid[0] ?? asUtc - before * 60000;
}

/** Java's day of week: 1 = Sunday … 7 = Saturday. */
export function javaDayOfWeek(year: number, month: number, day: number): number {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 1;
}

/**
 * Ids Ranger's schedule validator refuses although Java knows them (it strips the ambiguous
 * three-letter ids and the SystemV ones from `TimeZone.getAvailableIDs()`).
 */
const VALIDATOR_REFUSED_IDS = new Set([
  'JST', 'IST', 'BET', 'ACT', 'AET', 'AGT', 'VST', 'SystemV/AST4', 'CNT', 'NET', 'SystemV/MST7', 'PLT', 'CST',
  'SST', 'SystemV/CST6', 'CTT', 'PNT', 'BST', 'SystemV/YST9', 'MIT', 'ART', 'AST', 'PRT', 'SystemV/HST10', 'PST',
  'SystemV/EST5', 'IET', 'SystemV/PST8', 'SystemV/CST6CDT', 'NST', 'EAT', 'ECT', 'SystemV/MST7MDT',
  'SystemV/YST9YDT', 'CAT', 'SystemV/PST8PDT', 'SystemV/AST4ADT', 'SystemV/EST5EDT',
]);

/**
 * Whether Ranger's validator accepts `id`: one of Java's available ids (approximated by "Intl
 * knows it as a region or it is GMT/UTC/EST/MST/HST") minus the refused list. Custom offsets
 * (`GMT+8`) resolve at evaluation time but are not in Java's available-id list, so they fail here.
 */
export function isValidatorAcceptedZoneId(id: string): boolean {
  if (VALIDATOR_REFUSED_IDS.has(id)) return false;
  if (CUSTOM_OFFSET.test(id)) return false;
  if (Object.hasOwn(JAVA_SHORT_IDS, id)) return false;
  try {
    resolveTimeZone(id);
    return true;
  } catch {
    return false;
  }
}

/** The zone this process runs in — what Java calls the JVM default zone. */
export function hostTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
