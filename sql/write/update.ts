/**
 * UPDATE … SET … [FROM …] [WHERE …]: the SET, FROM and WHERE expressions go
 * through the read pipeline (every table they read gated as a query's); the
 * target is read by the engine as stored, so the user must see it so
 * (dmlTarget); each column set takes on the tags of the columns its new value
 * is computed from.
 */
import type { ParsedStatement } from '../parse.js';
import { cloneTree, type Fields, type PgNode } from '../walk.js';
import { checkAssignments } from './assignments.js';
import type { WriteContext } from './context.js';
import { dmlTarget, targetLineageItem } from './dmlTarget.js';
import { engineRangeVar, planWriteTree, shortenTargetReferences } from './pipeline.js';
import type { EngineWrite } from './plan.js';
import { refuseReturning } from './refusals.js';
import { ColumnSources, type OutputColumn } from './sources.js';

export function planUpdate(stmt: ParsedStatement, ctx: WriteContext): EngineWrite {
  const tree = cloneTree(stmt.node);
  const u = tree['UpdateStmt']!;
  refuseReturning(u);
  const relation = u['relation'] as Fields;
  delete u['relation'];
  const t = dmlTarget(relation, 'UPDATE', ctx);
  checkAssignments((u['targetList'] ?? []) as Fields[], t);
  const alias = (relation['alias'] as Fields | undefined) ?? { aliasname: t.target.name };
  if (!relation['alias'] && t.table) shortenTargetReferences(tree, { database: ctx.database, schema: t.table.schema, name: t.table.name }, t.target.name);
  let outputs: OutputColumn[] = [];
  const { sql } = planWriteTree(tree, ctx, {
    afterResolve: (tables) => {
      // the new values, read against the target's own columns and the FROM list
      const target = targetLineageItem(t, String(alias['aliasname']));
      const values = { targetList: u['targetList'], fromClause: [target.node, ...((u['fromClause'] ?? []) as PgNode[])] };
      outputs = new ColumnSources([...tables, ...target.tables]).withClause(u['withClause']).outputs(values);
    },
    attachTarget: (root) => {
      root['UpdateStmt']!['relation'] = engineRangeVar(t.target, ctx.writeAlias, alias);
    },
  });
  const columnTags = ctx.policy.tagsOf(outputs);
  return { kind: 'engine', tag: 'UPDATE', sql, counts: true, target: t.target, ddl: false, ...(Object.keys(columnTags).length > 0 ? { columnTags } : {}) };
}
