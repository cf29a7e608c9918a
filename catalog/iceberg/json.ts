/**
 * Iceberg JSON without losing 64-bit ids. `JSON.parse` turns snapshot ids
 * such as 3051729675574597004 into the nearest double (…597000): a time
 * travel to that id would then name another snapshot, or none. Integers
 * beyond 2^53 are kept as bigint here; every other number stays a number.
 */
import { parse, stringify } from 'lossless-json';

const INTEGER = /^-?\d+$/;

function parseNumber(text: string): number | bigint {
  if (INTEGER.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : BigInt(text);
  }
  return Number(text);
}

export function parseIcebergJson(text: string): unknown {
  return parse(text, null, parseNumber);
}

/** The inverse, for metadata lakegate writes itself (bigint ids printed exactly). */
export function stringifyIcebergJson(value: unknown): string {
  // lossless-json prints bigint as a plain JSON integer.
  const out = stringify(value, null, 2);
  if (out === undefined) throw new Error('value has no JSON form');
  return out;
}

/** The same on one line (HTTP bodies). */
export function stringifyIcebergJsonCompact(value: unknown): string {
  const out = stringify(value);
  if (out === undefined) throw new Error('value has no JSON form');
  return out;
}
