/**
 * The SET list of an UPDATE (and of a MERGE's WHEN MATCHED THEN UPDATE):
 * each column of the target at most once, `(a, b) = (x, y)` written out as
 * `a = x, b = y`; a row from a subquery or an element or field of a column
 * is refused.
 */
import { SqlError, notSupported, pos } from '../errors.js';
import type { Fields } from '../walk.js';
import { valueForColumn } from './arrayText.js';
import { targetColumn, type DmlTarget } from './dmlTarget.js';

/** Checks the assignments and writes multiple assignments out; returns the columns set, in order. */
export function checkAssignments(targets: Fields[], t: DmlTarget): string[] {
  const seen = new Set<string>();
  const out: Fields[] = [];
  for (const item of targets) {
    const rt = item['ResTarget'] as Fields;
    if (rt['indirection']) throw notSupported('assigning to an element or a field of a column', rt['location']);
    const multi = rt['val']?.['MultiAssignRef'] as Fields | undefined;
    let val = rt['val'];
    if (multi) {
      const row = multi['source']?.['RowExpr'] as Fields | undefined;
      if (!row) throw notSupported('assigning a subquery to several columns', rt['location']);
      val = ((row['args'] ?? []) as unknown[])[Number(multi['colno']) - 1];
      if (val === undefined) throw new SqlError('42601', 'number of columns does not match number of values', pos(rt['location']));
    }
    const name = targetColumn(t, String(rt['name']), rt['location']);
    if (seen.has(name)) throw new SqlError('42601', `multiple assignments to same column "${name}"`, pos(rt['location']));
    seen.add(name);
    out.push({ ResTarget: { ...rt, val: valueForColumn(val, t.columns.find((c) => c.name === name)) } });
  }
  targets.splice(0, targets.length, ...out);
  return [...seen];
}
