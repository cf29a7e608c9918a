/**
 * TRUNCATE [TABLE] t: every row of one table deleted (RESTART IDENTITY and
 * CASCADE change nothing: an Iceberg table has no sequence and no foreign
 * key). The engine deletes the rows as stored, so the user must see the table
 * so (dmlTarget).
 */
import { notSupported } from '../errors.js';
import type { ParsedStatement } from '../parse.js';
import type { Fields } from '../walk.js';
import type { WriteContext } from './context.js';
import { dmlTarget } from './dmlTarget.js';
import type { EngineWrite } from './plan.js';

export function planTruncate(stmt: ParsedStatement, ctx: WriteContext): EngineWrite {
  const relations = (stmt.node['TruncateStmt']!['relations'] ?? []) as Fields[];
  if (relations.length !== 1) {
    throw notSupported('TRUNCATE of several tables in one statement', relations[1]?.['RangeVar']?.['location']);
  }
  const t = dmlTarget(relations[0]!['RangeVar'] as Fields, 'TRUNCATE', ctx);
  return { kind: 'engine', tag: 'TRUNCATE TABLE', sql: `TRUNCATE TABLE ${t.target.engineName}`, counts: false, target: t.target, ddl: false };
}
