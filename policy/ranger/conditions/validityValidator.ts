/**
 * Schedule validation as Ranger Admin does it (RangerValidityScheduleValidator, re-derived), so
 * that lakegate refuses exactly what Ranger refuses and reports the same number of failures.
 *
 * Order and short-circuits matter for the count:
 *  - all of startTime, endTime, recurrences empty → one failure, nothing else checked;
 *  - an unparseable bound → one failure each, and nothing further;
 *  - startTime ≥ endTime → one failure; a refused time zone → one failure;
 *  - per recurrence: missing schedule/interval → one failure; else a bad interval and "both
 *    dayOfMonth and dayOfWeek blank" → one failure each; the six fields are only checked while
 *    nothing above has failed (for this or an earlier recurrence).
 * An empty startTime counts as "now", an empty endTime as the end of time.
 */
import { parseScheduleWallClock } from './rangerDates.js';
import { hostTimeZone, isValidatorAcceptedZoneId, resolveTimeZone, wallClockAt, wallClockToEpochMsUtc } from './timeZones.js';
import type { WallClock } from './timeZones.js';
import {
  fieldText,
  SCHEDULE_FIELD_BOUNDS,
  type ScheduleFieldName,
  type ValidityRecurrence,
  type ValiditySchedule,
} from './validity.js';

export interface ScheduleValidation {
  isValid: boolean;
  failures: string[];
}

export interface ValidateOptions {
  /** "Now", for an empty startTime. Default: the current time. */
  now?: Date;
  /** Zone "now" is read in (Ranger: the JVM default zone). Default: the host's zone. */
  localTimeZone?: string;
}

const FIELD_ORDER: readonly ScheduleFieldName[] = ['minute', 'hour', 'dayOfMonth', 'dayOfWeek', 'month', 'year'];

/** Minutes allow only digits and commas; the other fields also `*` and `-`. */
const PERMITTED_SPECIALS: Readonly<Record<ScheduleFieldName, string>> = {
  minute: ',',
  hour: '*,-',
  dayOfMonth: '*,-',
  dayOfWeek: '*,-',
  month: '*,-',
  year: '*,-',
};

const END_OF_TIME_YEAR = 292278994; // the year of Java's Date(Long.MAX_VALUE)

export function validateSchedule(schedule: ValiditySchedule, options: ValidateOptions = {}): ScheduleValidation {
  const failures: string[] = [];
  const recurrences = schedule.recurrences ?? [];
  const startText = schedule.startTime ?? '';
  const endText = schedule.endTime ?? '';

  if (startText === '' && endText === '' && recurrences.length === 0) {
    failures.push('startTime,endTime,recurrences: empty values');
    return { isValid: false, failures };
  }

  let start: WallClock | undefined;
  if (startText !== '') {
    start = parseScheduleWallClock(startText);
    if (!start) failures.push('startTime: invalid value');
  } else {
    const zone = resolveTimeZone(options.localTimeZone ?? hostTimeZone());
    start = wallClockAt(zone, (options.now ?? new Date()).getTime());
  }
  let end: WallClock | undefined;
  let endYear = END_OF_TIME_YEAR;
  if (endText !== '') {
    end = parseScheduleWallClock(endText);
    if (!end) failures.push('endTime: invalid value');
    else endYear = end.year;
  }
  if (!start || (endText !== '' && !end)) return { isValid: false, failures };

  let ok = true;
  if (end && wallClockToEpochMsUtc(start) >= wallClockToEpochMsUtc(end)) {
    failures.push('startTime: endTime is not later than startTime');
    ok = false;
  }
  const zone = schedule.timeZone ?? '';
  if (zone.trim() !== '' && !isValidatorAcceptedZoneId(zone)) {
    failures.push('timeZone: invalid timeZone');
    ok = false;
  }

  for (const recurrence of recurrences) {
    ok = checkIntervalAndDays(recurrence, failures) && ok;
    if (ok) {
      for (const field of FIELD_ORDER) ok = checkField(recurrence, field, start.year, endYear, failures) && ok;
    }
  }
  return { isValid: ok, failures };
}

function checkIntervalAndDays(recurrence: ValidityRecurrence, failures: string[]): boolean {
  const { schedule, interval } = recurrence;
  if (!schedule || !interval) {
    failures.push('recurrence: empty schedule/interval in recurrence spec');
    return false;
  }
  let ok = true;
  const days = interval.days ?? 0;
  const hours = interval.hours ?? 0;
  const minutes = interval.minutes ?? 0;
  if (days < 0 || hours < 0 || hours > 23 || minutes < 0 || minutes > 59 || (days === 0 && hours === 0 && minutes === 0)) {
    failures.push('interval: invalid interval');
    ok = false;
  }
  if (fieldText(schedule.dayOfMonth).trim() === '' && fieldText(schedule.dayOfWeek).trim() === '') {
    failures.push('validitySchedule: empty dayOfMonth and dayOfWeek');
    ok = false;
  }
  return ok;
}

function checkField(
  recurrence: ValidityRecurrence,
  field: ScheduleFieldName,
  startYear: number,
  endYear: number,
  failures: string[],
): boolean {
  const text = fieldText(recurrence.schedule?.[field]);
  if (text.trim() === '' && field !== 'dayOfMonth' && field !== 'dayOfWeek') failures.push(`${field}: No value provided`);
  if (!hasOnlyPermittedCharacters(text, PERMITTED_SPECIALS[field])) {
    failures.push(`${field}: invalid character(s)`);
    return false;
  }
  const { min, max } = SCHEDULE_FIELD_BOUNDS[field];
  if (!checkRanges(text, field, min, max, failures)) return false;
  // A second pass: for years the schedule's own start and end years are the bounds.
  return field === 'year' ? checkRanges(text, field, startYear, endYear, failures) : checkRanges(text, field, min, max, failures);
}

function hasOnlyPermittedCharacters(text: string, specials: string): boolean {
  for (const c of text) if (!/[\p{Nd}\s]/u.test(c) && !specials.includes(c)) return false;
  return true;
}

function checkRanges(text: string, field: ScheduleFieldName, min: number, max: number, failures: string[]): boolean {
  let ok = true;
  const ranges: Array<{ lower: number; upper: number }> = [];
  for (const spec of text.replace(/\s+/g, '').split(',')) {
    if (spec === '') continue;
    if (spec.startsWith('-') || spec.endsWith('-')) {
      failures.push(`${field}: incorrect range spec: ${spec}`);
      ok = false;
      continue;
    }
    const bounds = spec.split('-').filter((b) => b !== '');
    if (bounds.length > 2) {
      failures.push(`${field}: incorrect range spec: ${spec}`);
      ok = false;
    } else if (bounds.length === 2) {
      const lower = bounds[0] === '*' ? min : Number(bounds[0]);
      const upper = bounds[1] === '*' ? max : Number(bounds[1]);
      if (Number.isNaN(lower) || Number.isNaN(upper)) {
        failures.push(`${field}: incorrect range spec: ${spec}`);
        ok = false;
        continue;
      }
      if (field === 'year') {
        // One year bound may lie outside the schedule's years, not both.
        if (lower < min && upper > max) {
          failures.push(`${field}: incorrect range: (${lower}, ${upper})`);
          ok = false;
        }
      } else {
        if (lower < min || lower > max) {
          failures.push(`${field}: incorrect lower range: ${lower}`);
          ok = false;
        }
        if (upper < min || upper > max) {
          failures.push(`${field}: incorrect upper range: ${upper}`);
          ok = false;
        }
      }
      // Ranger checks order and duplicates only while the field has no failure yet.
      if (ok) {
        if (lower >= upper) {
          failures.push(`${field}: incorrect range: min=${lower}, max=${upper}`);
          ok = false;
        } else if (ranges.some((r) => r.lower === lower || r.upper === upper)) {
          failures.push(`${field}: duplicate range`);
          ok = false;
        } else {
          ranges.push({ lower, upper });
        }
      }
    } else if (bounds.length === 1 && bounds[0] !== '*') {
      const value = Number(bounds[0]);
      if (Number.isNaN(value) || value < min || value > max) {
        failures.push(`${field}: incorrect value: ${bounds[0]}`);
        ok = false;
      }
    }
  }
  ranges.sort((a, b) => a.lower - b.lower || a.upper - b.upper);
  for (let i = 0; i < ranges.length; i++) {
    for (let j = i + 1; j < ranges.length; j++) {
      if (ranges[i]!.upper > ranges[j]!.lower) {
        failures.push(`${field}: overlapping range value`);
        ok = false;
      }
    }
  }
  return ok;
}
