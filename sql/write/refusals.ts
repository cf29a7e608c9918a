/**
 * What a write statement may carry that lakegate does not do, refused before
 * anything else is looked at (0A000, saying what to do instead).
 */
import { SqlError, pos } from '../errors.js';
import type { Fields } from '../walk.js';

/** RETURNING: the session answers a write with its command tag only. */
export function refuseReturning(stmt: Fields): void {
  const returning = (stmt['returningList'] ?? stmt['returningClause']) as Fields | Fields[] | undefined;
  if (!returning) return;
  const first = (Array.isArray(returning) ? returning : ((returning['exprs'] ?? []) as Fields[]))[0];
  throw new SqlError('0A000', 'RETURNING is not supported', pos(first?.['ResTarget']?.['location']), { hint: 'Read the rows back with a SELECT after the statement.' });
}
