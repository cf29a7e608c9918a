/**
 * The date formats Ranger writes and reads: fixture access times, schedule bounds, tag attributes.
 */
import type { WallClock } from './timeZones.js';
import { wallClockToEpochMsUtc } from './timeZones.js';

/** The wall clock in a match's groups 1–7 (year … millisecond); groups a format lacks read as 0. */
function wallClockOf(m: RegExpExecArray, groups: number): WallClock {
  const g = (i: number) => (i <= groups ? Number(m[i]) : 0);
  return { year: g(1), month: g(2), day: g(3), hour: g(4), minute: g(5), second: g(6), millisecond: g(7) };
}

const ACCESS_TIME = /^(\d{4})(\d{2})(\d{2})-(\d{2}):(\d{2}):(\d{2})\.(\d{3})-?(?:([+-])(\d{2}):?(\d{2})|Z)$/;

/**
 * Parses Gson's `yyyyMMdd-HH:mm:ss.SSSZ` (fixture `accessTime`, e.g. `20180127-10:06:00.000-0800`);
 * also the cache-file variant with a doubled dash (`…221--0700`). Returns undefined when malformed.
 */
export function parseRangerAccessTime(text: string): Date | undefined {
  const m = ACCESS_TIME.exec(text.trim());
  if (!m) return undefined;
  const wall = wallClockOf(m, 7);
  if (!isValidWallClock(wall)) return undefined;
  const offsetMinutes = m[8] === undefined ? 0 : (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10]));
  return new Date(wallClockToEpochMsUtc(wall) - offsetMinutes * 60000);
}

const SCHEDULE_TIME = /^\s*(\d{1,4})\/(\d{1,2})\/(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})\s*$/;

/** Parses a schedule bound `yyyy/MM/dd HH:mm:ss` strictly (Java's non-lenient SimpleDateFormat). */
export function parseScheduleWallClock(text: string): WallClock | undefined {
  const m = SCHEDULE_TIME.exec(text);
  if (!m) return undefined;
  const wall = wallClockOf(m, 6);
  return isValidWallClock(wall) ? wall : undefined;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function isValidWallClock(w: WallClock): boolean {
  return (
    w.month >= 1 &&
    w.month <= 12 &&
    w.day >= 1 &&
    w.day <= daysInMonth(w.year, w.month) &&
    w.hour <= 23 &&
    w.minute <= 59 &&
    w.second <= 59
  );
}

/**
 * Tag attribute dates, as `ctx.isAccessedBefore/After` read them: the Atlas form
 * `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`, then Ranger's `yyyy/MM/dd` (longest format first). Like Java's
 * `SimpleDateFormat.parse(String)` only a prefix has to match (`2015/08/10T15:05:15.000Z` reads as
 * 2015/08/10). The wall clock is taken as UTC (Ranger converts the local parse back to UTC).
 */
export function parseTagAttributeDate(text: string | undefined): Date | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const atlas = /^(\d+)-(\d+)-(\d+)T(\d+):(\d+):(\d+)\.(\d+)Z/.exec(text);
  if (atlas) {
    const wall = wallClockOf(atlas, 7);
    if (isValidWallClock(wall) && wall.millisecond <= 999) return new Date(wallClockToEpochMsUtc(wall));
  }
  const ranger = /^(\d+)\/(\d+)\/(\d+)/.exec(text);
  if (ranger) {
    const wall = wallClockOf(ranger, 3);
    if (isValidWallClock(wall)) return new Date(wallClockToEpochMsUtc(wall));
  }
  return undefined;
}
