/**
 * DELETE FROM … [USING …] [WHERE …]: the USING list and every subquery go
 * through the read pipeline (gated as a query's); the target is read by the
 * engine as stored, so the user must see it so (dmlTarget).
 */
import type { ParsedStatement } from '../parse.js';
import { cloneTree, type Fields } from '../walk.js';
import type { WriteContext } from './context.js';
import { dmlTarget } from './dmlTarget.js';
import { engineRangeVar, planWriteTree, shortenTargetReferences } from './pipeline.js';
import type { EngineWrite } from './plan.js';
import { refuseReturning } from './refusals.js';

export function planDelete(stmt: ParsedStatement, ctx: WriteContext): EngineWrite {
  const tree = cloneTree(stmt.node);
  const d = tree['DeleteStmt']!;
  refuseReturning(d);
  const relation = d['relation'] as Fields;
  delete d['relation'];
  const t = dmlTarget(relation, 'DELETE', ctx);
  const alias = (relation['alias'] as Fields | undefined) ?? { aliasname: t.target.name };
  if (!relation['alias'] && t.table) shortenTargetReferences(tree, { database: ctx.database, schema: t.table.schema, name: t.table.name }, t.target.name);
  const { sql } = planWriteTree(tree, ctx, {
    attachTarget: (root) => {
      root['DeleteStmt']!['relation'] = engineRangeVar(t.target, ctx.writeAlias, alias);
    },
  });
  return { kind: 'engine', tag: 'DELETE', sql, counts: true, target: t.target, ddl: false };
}
