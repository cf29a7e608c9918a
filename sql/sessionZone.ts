/**
 * The session's TimeZone where PostgreSQL applies it to a timestamptz.
 *
 * The engine computes in UTC (server/engine.ts locks its configuration), so a
 * timestamptz's calendar fields there are UTC's. PostgreSQL reads them in the
 * session's TimeZone: `ts::date`, `ts::timestamp`, `extract(hour from ts)`,
 * `date_trunc('day', ts)`, `to_char(ts, …)`, `ts::text` and a timestamptz
 * written without an offset (`'2024-01-01'::timestamptz`, `ts >= '2024-01-01'`). Which
 * argument is a timestamptz DuckDB tells while binding, from a probe
 * (sql/dialect/builtinMacros.ts lg_wall, lg_zoned, lg_zone_lit); under UTC
 * nothing is written.
 */
import { emulatedCall } from './emulation.js';
import { strConst, type PgNode } from './walk.js';

/** The session's zone, and how the planner probes an operand's type (sql/dialect/numeric.ts, passed in: no import cycle). */
export interface SessionZone {
  name: string;
  /** x's probe: x itself when DuckDB can type it alone, an aggregate's probe, or undefined (a subquery, a parameter) */
  probe(x: unknown): PgNode | undefined;
}

const UTC_NAMES = /^(?:etc\/)?(?:utc|uct|gmt|gmt[+-]?0|universal|zulu|greenwich)$/i;

/** Whether the session's zone is UTC itself (then the engine's answers are already the session's). */
export const isUtc = (zone: SessionZone): boolean => UTC_NAMES.test(zone.name.trim()) || zone.name.trim() === 'Z';

/**
 * x's wall clock in the zone (a timestamp) when x is a timestamptz, else x
 * itself. Under UTC, or for an operand without a probe (a subquery, a
 * parameter), x as it is.
 */
export function wallClock(x: PgNode, zone: SessionZone): PgNode {
  const p = isUtc(zone) ? undefined : zone.probe(x);
  return p ? emulatedCall('lg_wall', [x, strConst(zone.name), p]) : x;
}

/** The zone's UTC offset in seconds at x when x is a timestamptz, else 0 (to_char's OF, TZH, TZM). */
export function zoneOffset(x: PgNode, zone: SessionZone): PgNode | undefined {
  if (isUtc(zone)) return { A_Const: { ival: {} } };
  const p = zone.probe(x);
  return p ? emulatedCall('lg_zone_offset', [x, strConst(zone.name), p]) : undefined;
}

/** x as the text PostgreSQL's ::text gives when x is a timestamptz (its wall clock and offset in the zone), else x. */
export function zonedText(x: PgNode, zone: SessionZone): PgNode {
  const p = isUtc(zone) ? undefined : zone.probe(x);
  return p ? emulatedCall('lg_zoned_text', [x, strConst(zone.name), p]) : x;
}

/** x::timestamptz where x is a date or timestamp: its wall clock read in the zone. */
export function zoned(x: PgNode, zone: SessionZone): PgNode | undefined {
  const p = isUtc(zone) ? undefined : zone.probe(x);
  return p ? emulatedCall('lg_zoned', [x, strConst(zone.name), p]) : undefined;
}

/**
 * A date and time written without an offset or zone (`2024-01-01`,
 * `2024-01-01 10:00:00.5`), which PostgreSQL reads in the session's zone;
 * special words (now, today, epoch, infinity) and anything else are left.
 */
export function withoutOffset(text: string): boolean {
  return /^\s*\d{4}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?\s*$/.test(text);
}

/** A timestamptz literal written without an offset, read in the zone; undefined under UTC or with an offset. */
export function zonedLiteral(text: string, zone: SessionZone): PgNode | undefined {
  if (isUtc(zone) || !withoutOffset(text)) return undefined;
  return emulatedCall('lg_zone_read', [strConst(text.trim()), strConst(zone.name)]);
}

/**
 * An unknown literal compared with x (`ts >= '2024-01-01'`): PostgreSQL reads
 * it as x's type, so as a timestamptz in the zone when x is one. undefined
 * when nothing changes.
 */
export function comparedLiteral(text: string, x: unknown, zone: SessionZone): PgNode | undefined {
  if (isUtc(zone) || !withoutOffset(text)) return undefined;
  const p = zone.probe(x);
  return p ? emulatedCall('lg_zone_lit', [p, strConst(text), strConst(zone.name)]) : undefined;
}
