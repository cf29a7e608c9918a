/**
 * PostgreSQL's text form of an array (`'{a,b}'`) written as a value of an
 * array column. PostgreSQL reads an untyped literal as the column's type, and
 * clients that interpolate parameters send lists so (psycopg2's empty list,
 * psycopg 3's ClientCursor, pgJDBC's simple mode). DuckDB reads no such text
 * as a list: the literal becomes ARRAY[…] of its elements, which the engine
 * casts to the column's element type as it casts any value it writes.
 * Any other text is not an array to PostgreSQL: 22P02, as it answers.
 */
import { parseArrayLiteral } from '../arrayLiteral.js';
import { arrayOf } from '../dialect/session.js';
import { SqlError, pos } from '../errors.js';
import { names, type Fields, type PgNode } from '../walk.js';

/** The value to write into a column of `duckType`: an array literal's text as an ARRAY node, anything else as it is. */
export function arrayTextAsArray(value: unknown, duckType: string | undefined): unknown {
  if (!duckType?.endsWith('[]')) return value;
  const c = (value as Fields | undefined)?.['A_Const'];
  if (!c?.sval) return value;
  const text = String(c.sval.sval ?? '');
  const elements = parseArrayLiteral(text, pos(c.location));
  // PostgreSQL reads nothing else as an array (DuckDB's '[1, 2]' neither)
  if (!elements) throw new SqlError('22P02', `malformed array literal: "${text}"`, pos(c.location));
  return arrayOf(elements);
}

/** A column written to: its engine type and, for json / jsonb kept as a string, its PostgreSQL type. */
export interface WrittenColumn {
  duckType: string;
  pgType?: 'json' | 'jsonb';
}

/**
 * The value to write into a column. Into a json / jsonb column (an Iceberg
 * string) it is cast to that type as PostgreSQL reads an untyped value for
 * it: JSON is checked (22P02) and a jsonb is written in jsonb's text, which
 * reads back as PostgreSQL prints it. NULL and DEFAULT stay as they are.
 */
export function valueForColumn(value: unknown, column: WrittenColumn | undefined): unknown {
  if (!column) return value;
  if (!column.pgType) return arrayTextAsArray(value, column.duckType);
  const v = value as Fields | undefined;
  if (!v || v['SetToDefault'] || v['A_Const']?.isnull) return value;
  const cast = v['TypeCast'] as Fields | undefined;
  if (cast && !cast['typeName']?.['arrayBounds'] && names(cast['typeName']?.['names']).pop() === column.pgType) return value;
  return { TypeCast: { arg: value as PgNode, typeName: { names: [{ String: { sval: column.pgType } }], typemod: -1 } } };
}

/** Every value of a VALUES list, by the column it is written into. */
export function valuesForColumns(valuesLists: readonly Fields[], columns: readonly (WrittenColumn | undefined)[]): void {
  for (const list of valuesLists) {
    const items = list['List']?.['items'] as unknown[] | undefined;
    if (!items) continue;
    items.forEach((v, i) => (items[i] = valueForColumn(v, columns[i])));
  }
}
