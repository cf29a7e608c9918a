import { civilFromDays, daysFromCivil, PG_EPOCH_DAYS, textOf, writeDate, writeOffset, writeTime } from './datetime.js';

describe('calendar arithmetic', () => {
  it('civilFromDays agrees with the JS Date (proleptic Gregorian, year 0 = 1 BC) and daysFromCivil inverts it', () => {
    for (let days = -2_500_000; days <= 2_500_000; days += 997) {
      const d = new Date(days * 86_400_000);
      const [y, m, dd] = civilFromDays(days);
      expect([y, m, dd]).toEqual([d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]);
      expect(daysFromCivil(y!, m!, dd!)).toBe(days);
    }
  });

  it('2000-01-01 is PostgreSQL day 0', () => {
    expect(textOf((b, p) => writeDate(b, p, PG_EPOCH_DAYS))).toBe('2000-01-01');
    expect(textOf((b, p) => writeDate(b, p, 0))).toBe('1970-01-01');
  });

  it('prints BC for year 0 and before', () => {
    expect(textOf((b, p) => writeDate(b, p, daysFromCivil(0, 12, 31)))).toBe('0001-12-31 BC');
    expect(textOf((b, p) => writeDate(b, p, daysFromCivil(1, 1, 1)))).toBe('0001-01-01');
  });

  it('trims fraction zeros and keeps 24:00:00', () => {
    expect(textOf((b, p) => writeTime(b, p, 86_400_000_000))).toBe('24:00:00');
    expect(textOf((b, p) => writeTime(b, p, 1_500_000))).toBe('00:00:01.5');
    expect(textOf((b, p) => writeTime(b, p, 1))).toBe('00:00:00.000001');
  });

  it('prints offsets as +HH, +HH:MM or +HH:MM:SS', () => {
    expect(textOf((b, p) => writeOffset(b, p, 0))).toBe('+00');
    expect(textOf((b, p) => writeOffset(b, p, 19800))).toBe('+05:30');
    expect(textOf((b, p) => writeOffset(b, p, -10800))).toBe('-03');
    expect(textOf((b, p) => writeOffset(b, p, 3208))).toBe('+00:53:28');
    expect(textOf((b, p) => writeOffset(b, p, 3600, true))).toBe('+01:00');
  });
});
