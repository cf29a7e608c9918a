/**
 * PostgreSQL's text form of a one-dimensional array (`{a,"b c",NULL}`), as
 * clients write it in `x = ANY('{…}')` or `'{…}'::text[]`. DuckDB has no such
 * input syntax, so the planner turns these literals into ARRAY[…] nodes.
 */
import { SqlError } from './errors.js';

export function parseArrayLiteral(text: string, position?: number): (string | null)[] | undefined {
  const t = text.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return undefined;
  const body = t.slice(1, -1);
  const out: (string | null)[] = [];
  if (body.trim() === '') return out;
  let i = 0;
  while (i <= body.length) {
    while (body[i] === ' ') i++;
    let value = '';
    let quoted = false;
    if (body[i] === '"') {
      quoted = true;
      i++;
      while (i < body.length && body[i] !== '"') {
        if (body[i] === '\\') i++;
        value += body[i] ?? '';
        i++;
      }
      if (body[i] !== '"') throw new SqlError('22P02', `malformed array literal: "${text}"`, position);
      i++;
    } else {
      while (i < body.length && body[i] !== ',') {
        if (body[i] === '{' || body[i] === '}' || body[i] === '"') {
          // nested arrays would need DuckDB nested lists of a known type: refuse rather than guess
          throw new SqlError('0A000', `multidimensional array literals are not supported: "${text}"`, position);
        }
        if (body[i] === '\\') i++;
        value += body[i] ?? '';
        i++;
      }
      value = value.trim();
    }
    out.push(!quoted && value.toUpperCase() === 'NULL' ? null : value);
    while (body[i] === ' ') i++;
    if (i >= body.length) break;
    if (body[i] !== ',') throw new SqlError('22P02', `malformed array literal: "${text}"`, position);
    i++;
  }
  return out;
}
