/**
 * Validity schedules (policy `validitySchedules`, tag `validityPeriods`, the validity-schedule
 * condition): is an access time inside a schedule?
 *
 * Semantics (Ranger's RangerValidityScheduleEvaluator, re-derived):
 *  - `startTime` / `endTime` are wall-clock `yyyy/MM/dd HH:mm:ss` in the schedule's `timeZone`
 *    (GMT when blank); bounds are inclusive; an empty bound is open.
 *  - With recurrences, the access must also fall in `[start, start + interval]` for a start time
 *    matching the cron-like fields (minute, hour, dayOfMonth OR dayOfWeek, month, year).
 *    Ranger evaluates these fields in the **JVM default zone**, not the schedule's zone (its
 *    own tests only pass with the JVM in PST); `localTimeZone` is that zone here, the host's
 *    zone by default.
 *  - A recurrence whose interval is zero or negative matches always (Ranger does the same;
 *    the validator refuses such schedules).
 *  - Several schedules: applicable if any is; no schedules: always.
 *
 * Where Ranger's own closest-past-start search takes shortcuts, this module searches for the
 * true latest matching start; all of Ranger's fixtures agree on both.
 */
import { parseScheduleWallClock } from './rangerDates.js';
import {
  hostTimeZone,
  javaDayOfWeek,
  resolveTimeZone,
  type ResolvedZone,
  wallClockAt,
  wallClockToEpochMs,
  wallClockToEpochMsUtc,
  utcWallClock,
} from './timeZones.js';

export interface RecurrenceSchedule {
  minute?: string | number | null;
  hour?: string | number | null;
  dayOfMonth?: string | number | null;
  dayOfWeek?: string | number | null;
  month?: string | number | null;
  year?: string | number | null;
}

export interface ValidityInterval {
  days?: number | null;
  hours?: number | null;
  minutes?: number | null;
}

export interface ValidityRecurrence {
  schedule?: RecurrenceSchedule | null;
  interval?: ValidityInterval | null;
}

export interface ValiditySchedule {
  startTime?: string | null;
  endTime?: string | null;
  timeZone?: string | null;
  recurrences?: ValidityRecurrence[] | null;
}

export interface ScheduleOptions {
  /** Zone recurrence fields are read in (Ranger: the JVM default zone). Default: the host's zone. */
  localTimeZone?: string;
}

export class InvalidScheduleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidScheduleError';
  }
}

export type ScheduleFieldName = 'minute' | 'hour' | 'dayOfMonth' | 'dayOfWeek' | 'month' | 'year';

/** Bounds as the schedule's author writes them (month 1-12, dayOfWeek 1 = Sunday). */
export const SCHEDULE_FIELD_BOUNDS: Readonly<Record<ScheduleFieldName, { min: number; max: number }>> = {
  minute: { min: 0, max: 59 },
  hour: { min: 0, max: 23 },
  dayOfMonth: { min: 1, max: 31 },
  dayOfWeek: { min: 1, max: 7 },
  month: { min: 1, max: 12 },
  year: { min: 2017, max: 2100 },
};

/** One field of a recurrence: undefined = blank (no constraint), else a predicate. */
type FieldMatcher = ((value: number) => boolean) | undefined;

interface CompiledRecurrence {
  intervalMinutes: number;
  intervalDays: number;
  intervalHours: number;
  intervalMinutePart: number;
  minute: FieldMatcher;
  hour: FieldMatcher;
  dayOfMonth: FieldMatcher;
  dayOfWeek: FieldMatcher;
  month: FieldMatcher;
  year: FieldMatcher;
}

export function fieldText(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value);
}

/** `*`, `n`, `a-b`, comma lists; whitespace ignored. Blank → undefined (matches anything). */
function compileField(name: ScheduleFieldName, raw: string | number | null | undefined): FieldMatcher {
  const text = fieldText(raw).replace(/\s+/g, '');
  if (text === '') return undefined;
  const singles = new Set<number>();
  const ranges: Array<[number, number]> = [];
  for (const spec of text.split(',')) {
    if (spec === '') continue;
    const bounds = spec.split('-');
    if (bounds.length === 1) {
      if (bounds[0] === '*') return () => true;
      singles.add(parseFieldNumber(name, bounds[0]!));
    } else if (bounds.length === 2) {
      if (bounds[0] === '*' || bounds[1] === '*') return () => true;
      ranges.push([parseFieldNumber(name, bounds[0]!), parseFieldNumber(name, bounds[1]!)]);
    } else {
      throw new InvalidScheduleError(`recurrence ${name}: cannot read '${spec}'`);
    }
  }
  return (v) => singles.has(v) || ranges.some(([lo, hi]) => v >= lo && v <= hi);
}

function parseFieldNumber(name: ScheduleFieldName, text: string): number {
  if (!/^\d+$/.test(text)) throw new InvalidScheduleError(`recurrence ${name}: '${text}' is not a number`);
  return Number(text);
}

function compileRecurrence(r: ValidityRecurrence): CompiledRecurrence | undefined {
  const days = r.interval?.days ?? 0;
  const hours = r.interval?.hours ?? 0;
  const minutes = r.interval?.minutes ?? 0;
  const intervalMinutes = (days * 24 + hours) * 60 + minutes;
  // Ranger: no recurrence object, or a non-positive interval, imposes no constraint.
  if (intervalMinutes <= 0) return undefined;
  const s = r.schedule ?? {};
  return {
    intervalMinutes,
    intervalDays: days,
    intervalHours: hours,
    intervalMinutePart: minutes,
    minute: compileField('minute', s.minute),
    hour: compileField('hour', s.hour),
    dayOfMonth: compileField('dayOfMonth', s.dayOfMonth),
    dayOfWeek: compileField('dayOfWeek', s.dayOfWeek),
    month: compileField('month', s.month),
    year: compileField('year', s.year),
  };
}

const matches = (m: FieldMatcher, v: number): boolean => m === undefined || m(v);

/** Latest minute of `hour:minute` ≤ limit (in minutes of the day) allowed by the fields. */
function latestTimeOfDay(r: CompiledRecurrence, limitMinuteOfDay: number): number | undefined {
  for (let t = limitMinuteOfDay; t >= 0; t--) {
    if (matches(r.hour, Math.floor(t / 60)) && matches(r.minute, t % 60)) return t;
  }
  return undefined;
}

function dayMatches(r: CompiledRecurrence, year: number, month: number, day: number): boolean {
  if (!matches(r.year, year) || !matches(r.month, month)) return false;
  // dayOfMonth and dayOfWeek are alternatives; a blank one does not take part. Both blank: never.
  const byMonthDay = r.dayOfMonth !== undefined && r.dayOfMonth(day);
  const byWeekDay = r.dayOfWeek !== undefined && r.dayOfWeek(javaDayOfWeek(year, month, day));
  return byMonthDay || byWeekDay;
}

const MINUTE_MS = 60000;
const DAY_MS = 86400000;

/**
 * Is `accessMs` within `[start, start + interval]` for the latest matching start ≤ access?
 * Works in wall-clock-as-UTC milliseconds of the local zone (calendar stepping without DST noise).
 */
function recurrenceApplies(r: CompiledRecurrence, accessMs: number, localZone: ResolvedZone): boolean {
  const nowWall = wallClockAt(localZone, accessMs);
  const nowWallMs = wallClockToEpochMsUtc(nowWall);
  const todayMs = wallClockToEpochMsUtc({ ...nowWall, hour: 0, minute: 0, second: 0, millisecond: 0 });
  // Starts older than the interval cannot cover `now`, so look back interval-days + 1 days.
  for (let back = 0; back <= r.intervalDays + 1; back++) {
    const dayStartMs = todayMs - back * DAY_MS;
    const d = utcWallClock(dayStartMs);
    if (!dayMatches(r, d.year, d.month, d.day)) continue;
    const limit = back === 0 ? nowWall.hour * 60 + nowWall.minute : 24 * 60 - 1;
    const minuteOfDay = latestTimeOfDay(r, limit);
    if (minuteOfDay === undefined) continue;
    const startMs = dayStartMs + minuteOfDay * MINUTE_MS;
    // Calendar.add(DAY_OF_MONTH) then HOUR then MINUTE: in wall-clock space that is plain addition.
    const endMs = startMs + r.intervalDays * DAY_MS + (r.intervalHours * 60 + r.intervalMinutePart) * MINUTE_MS;
    return nowWallMs <= endMs;
  }
  return false;
}

export type ScheduleTest = (accessTime: Date) => boolean;

/**
 * Compiles one schedule. Throws InvalidScheduleError for a bound or field Ranger could not
 * read, or an unknown zone (Ranger would log and ignore the bound — an open bound is not a
 * safe reading, so the caller decides).
 */
export function compileValiditySchedule(schedule: ValiditySchedule, options: ScheduleOptions = {}): ScheduleTest {
  const zoneId = schedule.timeZone && schedule.timeZone.trim() !== '' ? schedule.timeZone : 'GMT';
  const zone = resolveZoneOrThrow(zoneId);
  const localZone = resolveZoneOrThrow(options.localTimeZone ?? hostTimeZone());
  const start = boundToEpochMs('startTime', schedule.startTime, zone);
  const end = boundToEpochMs('endTime', schedule.endTime, zone);
  const recurrences: CompiledRecurrence[] = [];
  let unconstrainedRecurrence = false;
  for (const r of schedule.recurrences ?? []) {
    const compiled = compileRecurrence(r);
    if (compiled) recurrences.push(compiled);
    else unconstrainedRecurrence = true;
  }
  return (accessTime) => {
    const t = accessTime.getTime();
    if (start !== undefined && t < start) return false;
    if (end !== undefined && t > end) return false;
    if (recurrences.length === 0 || unconstrainedRecurrence) return true;
    return recurrences.some((r) => recurrenceApplies(r, t, localZone));
  };
}

function resolveZoneOrThrow(id: string): ResolvedZone {
  try {
    return resolveTimeZone(id);
  } catch {
    throw new InvalidScheduleError(`unknown time zone '${id}'`);
  }
}

function boundToEpochMs(name: string, text: string | null | undefined, zone: ResolvedZone): number | undefined {
  if (text === null || text === undefined || text === '') return undefined;
  const wall = parseScheduleWallClock(text);
  if (!wall) throw new InvalidScheduleError(`${name} '${text}' is not yyyy/MM/dd HH:mm:ss`);
  return wallClockToEpochMs(zone, wall);
}

/** Compiles a list of schedules: applicable if any applies; an empty list always applies. */
export function compileValiditySchedules(
  schedules: readonly ValiditySchedule[] | null | undefined,
  options: ScheduleOptions = {},
): ScheduleTest {
  if (!schedules || schedules.length === 0) return () => true;
  const tests = schedules.map((s) => compileValiditySchedule(s, options));
  return (accessTime) => tests.some((test) => test(accessTime));
}

/** Compiled schedules per schedule list, so repeated calls with the same policy do not re-parse. */
const compiledCache = new WeakMap<readonly ValiditySchedule[], Map<string, ScheduleTest>>();

/**
 * Is `accessTime` inside any of `schedules` (none = always)? Throws InvalidScheduleError for a
 * schedule that cannot be read. The compiled form is cached per list object.
 */
export function isScheduleApplicable(
  schedules: readonly ValiditySchedule[] | null | undefined,
  accessTime: Date,
  options: ScheduleOptions = {},
): boolean {
  if (!schedules || schedules.length === 0) return true;
  const key = options.localTimeZone ?? '';
  let byZone = compiledCache.get(schedules);
  if (!byZone) {
    byZone = new Map();
    compiledCache.set(schedules, byZone);
  }
  let test = byZone.get(key);
  if (!test) {
    test = compileValiditySchedules(schedules, options);
    byZone.set(key, test);
  }
  return test(accessTime);
}
