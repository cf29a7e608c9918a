import { parseRangerAccessTime, parseScheduleWallClock, parseTagAttributeDate } from './rangerDates.js';
import { resolveTimeZone, wallClockAt, wallClockToEpochMs } from './timeZones.js';
import { InvalidScheduleError, isScheduleApplicable, type ValiditySchedule } from './validity.js';
import { validateSchedule } from './validityValidator.js';

const at = (iso: string): Date => new Date(iso);

describe('time zones', () => {
  test('Java short ids map to regions with DST; EST stays fixed', () => {
    // 2018-07-01T12:00Z: Los Angeles is on PDT (UTC-7), Java's EST is always UTC-5.
    const summer = Date.UTC(2018, 6, 1, 12, 0, 0);
    expect(wallClockAt(resolveTimeZone('PST'), summer).hour).toBe(5);
    expect(wallClockAt(resolveTimeZone('EST'), summer).hour).toBe(7);
    expect(wallClockAt(resolveTimeZone('GMT+8'), summer).hour).toBe(20);
    expect(wallClockAt(resolveTimeZone('GMT-05:30'), summer)).toMatchObject({ hour: 6, minute: 30 });
  });

  test('wall clock to instant, including a DST gap (lands after it)', () => {
    const la = resolveTimeZone('America/Los_Angeles');
    // 2018-01-12 14:32 PST = 22:32 UTC
    expect(wallClockToEpochMs(la, { year: 2018, month: 1, day: 12, hour: 14, minute: 32, second: 0, millisecond: 0 })).toBe(
      Date.UTC(2018, 0, 12, 22, 32),
    );
    // 2018-03-11 02:30 does not exist in LA; read with the standard offset it is 10:30 UTC (03:30 PDT).
    expect(wallClockToEpochMs(la, { year: 2018, month: 3, day: 11, hour: 2, minute: 30, second: 0, millisecond: 0 })).toBe(
      Date.UTC(2018, 2, 11, 10, 30),
    );
  });

  test('unknown zone is refused', () => {
    expect(() => resolveTimeZone('Mars/Olympus')).toThrow();
  });
});

describe('Ranger date formats', () => {
  test('fixture access time with offset', () => {
    expect(parseRangerAccessTime('20180127-10:06:00.000-0800')?.toISOString()).toBe('2018-01-27T18:06:00.000Z');
    expect(parseRangerAccessTime('20190730-17:47:46.221--0700')?.toISOString()).toBe('2019-07-31T00:47:46.221Z');
    expect(parseRangerAccessTime('2018-01-27')).toBeUndefined();
  });

  test('schedule bound is strict', () => {
    expect(parseScheduleWallClock('2018/02/29 00:00:00')).toBeUndefined();
    expect(parseScheduleWallClock('2020/02/29 23:59:59')).toMatchObject({ year: 2020, month: 2, day: 29, hour: 23 });
  });

  test('tag attribute dates: Atlas form, Ranger form, prefix reading', () => {
    expect(parseTagAttributeDate('2099-12-31T15:05:15.000Z')?.toISOString()).toBe('2099-12-31T15:05:15.000Z');
    expect(parseTagAttributeDate('2015/08/10')?.toISOString()).toBe('2015-08-10T00:00:00.000Z');
    expect(parseTagAttributeDate('2015/08/10T15:05:15.000Z')?.toISOString()).toBe('2015-08-10T00:00:00.000Z');
    expect(parseTagAttributeDate('yesterday')).toBeUndefined();
  });
});

describe('isScheduleApplicable', () => {
  const window: ValiditySchedule = { startTime: '2024/03/01 09:00:00', endTime: '2024/03/01 17:00:00', timeZone: 'Asia/Kolkata' };

  test('bounds are wall clock in the schedule zone, inclusive', () => {
    // 09:00 IST = 03:30 UTC; 17:00 IST = 11:30 UTC
    expect(isScheduleApplicable([window], at('2024-03-01T03:29:59.999Z'))).toBe(false);
    expect(isScheduleApplicable([window], at('2024-03-01T03:30:00.000Z'))).toBe(true);
    expect(isScheduleApplicable([window], at('2024-03-01T11:30:00.000Z'))).toBe(true);
    expect(isScheduleApplicable([window], at('2024-03-01T11:30:00.001Z'))).toBe(false);
  });

  test('blank time zone means GMT; no schedules means always', () => {
    const gmt: ValiditySchedule = { startTime: '2024/03/01 09:00:00', endTime: '' };
    expect(isScheduleApplicable([gmt], at('2024-03-01T08:59:59Z'))).toBe(false);
    expect(isScheduleApplicable([gmt], at('2024-03-01T09:00:00Z'))).toBe(true);
    expect(isScheduleApplicable([], at('1999-01-01T00:00:00Z'))).toBe(true);
  });

  test('any of several schedules', () => {
    const early: ValiditySchedule = { startTime: '2020/01/01 00:00:00', endTime: '2020/12/31 00:00:00' };
    expect(isScheduleApplicable([early, window], at('2024-03-01T04:00:00Z'))).toBe(true);
    expect(isScheduleApplicable([early, window], at('2022-03-01T04:00:00Z'))).toBe(false);
  });

  test('recurrence: weekdays 09:00 for 8 hours, read in the local zone', () => {
    const office: ValiditySchedule = {
      recurrences: [
        { schedule: { minute: '0', hour: '9', dayOfMonth: '', dayOfWeek: '2-6', month: '*', year: '*' }, interval: { hours: 8 } },
      ],
    };
    const opts = { localTimeZone: 'Europe/Paris' };
    // 2024-03-04 is a Monday; Paris is UTC+1 in March before the 31st.
    expect(isScheduleApplicable([office], at('2024-03-04T08:00:00Z'), opts)).toBe(true); // 09:00 Paris
    expect(isScheduleApplicable([office], at('2024-03-04T16:00:00Z'), opts)).toBe(true); // 17:00 exactly
    expect(isScheduleApplicable([office], at('2024-03-04T16:00:01Z'), opts)).toBe(false);
    expect(isScheduleApplicable([office], at('2024-03-04T07:59:00Z'), opts)).toBe(false); // 08:59
    expect(isScheduleApplicable([office], at('2024-03-03T10:00:00Z'), opts)).toBe(false); // Sunday
  });

  test('recurrence: the latest matching start is found even across a month end', () => {
    // Every 31st at 22:00 for 2 days: 2024-01-31 22:00 → 2024-02-02 22:00 (GMT).
    const monthEnd: ValiditySchedule = {
      recurrences: [{ schedule: { minute: '0', hour: '22', dayOfMonth: '31', dayOfWeek: '', month: '*', year: '*' }, interval: { days: 2 } }],
    };
    const opts = { localTimeZone: 'GMT' };
    expect(isScheduleApplicable([monthEnd], at('2024-02-02T21:59:00Z'), opts)).toBe(true);
    expect(isScheduleApplicable([monthEnd], at('2024-02-02T22:01:00Z'), opts)).toBe(false);
    expect(isScheduleApplicable([monthEnd], at('2024-01-31T21:59:00Z'), opts)).toBe(false);
  });

  test('unreadable schedule throws a typed error instead of opening the bound', () => {
    expect(() => isScheduleApplicable([{ startTime: 'tomorrow', endTime: '' }], new Date())).toThrow(InvalidScheduleError);
    expect(() => isScheduleApplicable([{ startTime: '2020/01/01 00:00:00', timeZone: 'Nowhere/Land' }], new Date())).toThrow(
      InvalidScheduleError,
    );
  });
});

describe('validateSchedule', () => {
  const base = { startTime: '2024/01/01 00:00:00', endTime: '2026/01/01 00:00:00' };

  test('a well-formed recurring schedule is valid', () => {
    const v = validateSchedule({
      ...base,
      timeZone: 'Europe/Paris',
      recurrences: [{ schedule: { minute: '0,30', hour: '9-17', dayOfMonth: '*', dayOfWeek: '', month: '*', year: '2024-2025' }, interval: { minutes: 15 } }],
    });
    expect(v).toEqual({ isValid: true, failures: [] });
  });

  test('each problem is one failure', () => {
    expect(validateSchedule({}).failures).toHaveLength(1);
    expect(validateSchedule({ ...base, timeZone: 'PST' }).failures).toEqual(['timeZone: invalid timeZone']);
    expect(validateSchedule({ startTime: base.endTime, endTime: base.startTime }).failures).toHaveLength(1);
    const minuteStar = validateSchedule({
      ...base,
      recurrences: [{ schedule: { minute: '*', hour: '1', dayOfMonth: '1', dayOfWeek: '', month: '1', year: '2024' }, interval: { minutes: 5 } }],
    });
    expect(minuteStar.failures).toEqual(['minute: invalid character(s)']);
    const yearOutside = validateSchedule({
      ...base,
      recurrences: [{ schedule: { minute: '0', hour: '1', dayOfMonth: '1', dayOfWeek: '', month: '1', year: '2023' }, interval: { minutes: 5 } }],
    });
    expect(yearOutside.isValid).toBe(false);
    expect(yearOutside.failures).toHaveLength(1);
  });
});
