/**
 * interval_out with IntervalStyle 'postgres' (datetime.c EncodeInterval,
 * AddPostgresIntPart, AppendSeconds): '1 year 2 mons 3 days 04:05:06.789',
 * '-1 days +02:00:00', '00:00:00'. Intervals are rare in results, so this
 * returns a string instead of writing bytes.
 */
export function intervalText(months: number, days: number, micros: bigint): string {
  const parts: string[] = [];
  let isBefore = false;
  const add = (value: number, unit: string): void => {
    if (value === 0) return;
    parts.push(`${isBefore && value > 0 ? '+' : ''}${value} ${unit}${value !== 1 ? 's' : ''}`);
    // As in PostgreSQL: each nonzero field sets is_before for (only) the next one.
    isBefore = value < 0;
  };
  add(Math.trunc(months / 12), 'year');
  add(months % 12, 'mon');
  add(days, 'day');
  const isZero = parts.length === 0;
  if (isZero || micros !== 0n) {
    const minus = micros < 0n;
    const abs = minus ? -micros : micros;
    const hours = abs / 3_600_000_000n;
    const rem = Number(abs % 3_600_000_000n);
    const min = Math.floor(rem / 60_000_000);
    const secMicros = rem - min * 60_000_000;
    const sec = Math.floor(secMicros / 1_000_000);
    const frac = secMicros - sec * 1_000_000;
    let text = `${minus ? '-' : isBefore ? '+' : ''}${hours.toString().padStart(2, '0')}:${String(min).padStart(2, '0')}:${String(sec).padStart(2, '0')}`;
    if (frac !== 0) text += '.' + String(frac).padStart(6, '0').replace(/0+$/, '');
    parts.push(text);
  }
  return parts.join(' ');
}
