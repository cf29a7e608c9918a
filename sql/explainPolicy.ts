/**
 * EXPLAIN (POLICY): which statement's policies are shown. The report itself
 * is the data gate's (policy/rewrite/report.ts); this only reads the tree.
 */
import { notSupported } from './errors.js';
import type { ParsedStatement } from './parse.js';
import type { Fields } from './walk.js';

/**
 * `EXPLAIN (POLICY) <query>` (PostgreSQL's grammar has no bare `EXPLAIN POLICY`):
 * the inner query as a statement of its own, or null for any other statement.
 */
export function policyExplainTarget(stmt: ParsedStatement): ParsedStatement | null {
  if (stmt.kind !== 'ExplainStmt') return null;
  const explain = stmt.node['ExplainStmt']!;
  const options = (explain['options'] ?? []) as Fields[];
  const policy = options.find((o) => String(o['DefElem']?.defname).toLowerCase() === 'policy');
  if (!policy) return null;
  const arg = policy['DefElem'].arg;
  const on = arg === undefined || arg?.Boolean?.boolval === true || ['true', 'on'].includes(String(arg?.String?.sval).toLowerCase());
  if (!on || options.length > 1) throw notSupported('EXPLAIN (POLICY) with other options', policy['DefElem'].location);
  const query = explain['query'] as Fields;
  return { ...stmt, node: query, kind: Object.keys(query)[0]! };
}
