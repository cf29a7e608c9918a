import { canonicalZoneName, loadTzif, parsePosixTz, tzOffsetAt } from './tzif.js';

/** ICU's answer, an independent tz implementation, for instants where both databases agree (modern rules). */
const formats = new Map<string, Intl.DateTimeFormat>();
function icuOffset(zone: string, utcSeconds: number): number {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formats.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(utcSeconds * 1000)).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) / 1000 - utcSeconds;
}

describe('system tzdata reader', () => {
  const zones = ['Europe/Berlin', 'America/Sao_Paulo', 'America/New_York', 'Australia/Sydney', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham'];

  it.each(zones)('%s agrees with ICU from 2000 to 2090, inside and beyond the transition table', (zone) => {
    const tz = loadTzif(zone);
    expect(tz).not.toBeNull();
    for (let t = 946_684_800; t < 3_786_912_000; t += 86_400 * 5 + 3_599) {
      const [ours, icu] = [tzOffsetAt(tz!, t), icuOffset(zone, t)];
      if (ours !== icu) expect({ t, ours }).toEqual({ t, ours: icu });
    }
  });

  it('matches zone names case-insensitively, as PostgreSQL does', () => {
    expect(canonicalZoneName('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalZoneName('AMERICA/SAO_PAULO')).toBe('America/Sao_Paulo');
  });

  it('refuses names that are not plain zone paths', () => {
    expect(loadTzif('../../etc/passwd')).toBeNull();
    expect(loadTzif('/etc/passwd')).toBeNull();
    expect(loadTzif('No/Such_Zone')).toBeNull();
  });

  it('parses POSIX footers', () => {
    expect(parsePosixTz('CET-1CEST,M3.5.0,M10.5.0/3')).toEqual({
      std: 3600, dst: 7200, start: { month: 3, week: 5, weekday: 0, time: 7200 }, end: { month: 10, week: 5, weekday: 0, time: 10800 },
    });
    expect(parsePosixTz('<-03>3')).toEqual({ std: -10800, dst: null, start: null, end: null });
    expect(parsePosixTz('<+1030>-10:30<+11>-11,M10.1.0,M4.1.0')?.dst).toBe(39600);
  });
});

describe('zone names', () => {
  it('knows tzdata names and POSIX strings, and refuses the rest with PostgreSQL\'s error', async () => {
    const { isKnownZone, zoneOffsets } = await import('./timezone.js');
    expect(isKnownZone('Europe/Berlin')).toBe(true);
    expect(isKnownZone('UTC+3')).toBe(true);
    expect(zoneOffsets('UTC+3').offsetAt(0)).toBe(-10800);
    expect(isKnownZone('Mars/Olympus_Mons')).toBe(false);
    expect(() => zoneOffsets('Mars/Olympus_Mons')).toThrow('invalid value for parameter "TimeZone": "Mars/Olympus_Mons"');
  });
});
