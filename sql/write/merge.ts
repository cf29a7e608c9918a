/**
 * MERGE INTO … USING … ON … WHEN [NOT] MATCHED …: the source, the join
 * condition and every action's expressions go through the read pipeline (the
 * source gated as a query's); the target is read by the engine as stored, so
 * the user must see it so (dmlTarget). Each column an action sets or inserts
 * takes on the tags of the columns its value is computed from.
 */
import { SqlError, notSupported, pos } from '../errors.js';
import type { ParsedStatement } from '../parse.js';
import { cloneTree, type Fields } from '../walk.js';
import { checkAssignments } from './assignments.js';
import { valueForColumn } from './arrayText.js';
import type { WriteContext } from './context.js';
import { dmlTarget, targetColumn, targetLineageItem, type DmlTarget } from './dmlTarget.js';
import { engineRangeVar, planWriteTree, shortenTargetReferences } from './pipeline.js';
import type { EngineWrite } from './plan.js';
import { refuseReturning } from './refusals.js';
import { ColumnSources, type OutputColumn } from './sources.js';

/** A WHEN … THEN INSERT (cols) VALUES (…): the columns, checked, and the values by column. */
function insertAction(clause: Fields, t: DmlTarget): { column: string; value: unknown }[] {
  const cols = (clause['targetList'] ?? []) as Fields[];
  const values = (clause['values'] ?? []) as unknown[];
  const seen = new Set<string>();
  const names = cols.length > 0 ? cols.map((c) => {
    const rt = c['ResTarget'] as Fields;
    if (rt['indirection']) throw notSupported('assigning to an element or a field of a column', rt['location']);
    const name = targetColumn(t, String(rt['name']), rt['location']);
    if (seen.has(name)) throw new SqlError('42701', `column "${name}" specified more than once`, pos(rt['location']));
    seen.add(name);
    return name;
  }) : t.columns.map((c) => c.name);
  if (values.length > names.length) throw new SqlError('42601', 'INSERT has more expressions than target columns');
  if (cols.length > 0 && values.length < names.length && clause['values']) throw new SqlError('42601', 'INSERT has more target columns than expressions');
  const written = values.map((value, i) => valueForColumn(value, t.columns.find((c) => c.name === names[i])));
  if (clause['values']) clause['values'] = written;
  return written.map((value, i) => ({ column: names[i]!, value }));
}

export function planMerge(stmt: ParsedStatement, ctx: WriteContext): EngineWrite {
  const tree = cloneTree(stmt.node);
  const m = tree['MergeStmt']!;
  refuseReturning(m);
  const relation = m['relation'] as Fields;
  delete m['relation'];
  const t = dmlTarget(relation, 'MERGE', ctx);
  const clauses = ((m['mergeWhenClauses'] ?? []) as Fields[]).map((c) => c['MergeWhenClause'] as Fields);
  const assigned: { column: string; value: unknown }[] = [];
  for (const c of clauses) {
    if (c['override'] && c['override'] !== 'OVERRIDING_NOT_SET') throw notSupported('OVERRIDING … VALUE (an Iceberg table has no identity column)');
    if (c['commandType'] === 'CMD_UPDATE') {
      checkAssignments((c['targetList'] ?? []) as Fields[], t);
      for (const rt of (c['targetList'] ?? []) as Fields[]) assigned.push({ column: String(rt['ResTarget']['name']), value: rt['ResTarget']['val'] });
    } else if (c['commandType'] === 'CMD_INSERT') {
      assigned.push(...insertAction(c, t));
    }
  }
  const alias = (relation['alias'] as Fields | undefined) ?? { aliasname: t.target.name };
  if (!relation['alias'] && t.table) shortenTargetReferences(tree, { database: ctx.database, schema: t.table.schema, name: t.table.name }, t.target.name);
  let outputs: OutputColumn[] = [];
  const { sql } = planWriteTree(tree, ctx, {
    afterResolve: (tables) => {
      // the values written, read against the target's own columns and the source
      const target = targetLineageItem(t, String(alias['aliasname']));
      const targetList = assigned.map((a) => ({ ResTarget: { name: a.column, val: a.value } }));
      const values = { targetList, fromClause: [target.node, m['sourceRelation']] };
      outputs = new ColumnSources([...tables, ...target.tables]).withClause(m['withClause']).outputs(values);
    },
    attachTarget: (root) => {
      root['MergeStmt']!['relation'] = engineRangeVar(t.target, ctx.writeAlias, alias);
    },
  });
  const columnTags = ctx.policy.tagsOf(outputs);
  return { kind: 'engine', tag: 'MERGE', sql, counts: true, target: t.target, ddl: false, ...(Object.keys(columnTags).length > 0 ? { columnTags } : {}) };
}
