/**
 * INSERT … VALUES | SELECT | DEFAULT VALUES, with a column list or without,
 * under a WITH list: the rows go through the read pipeline (a SELECT's tables
 * gated as any query's: a filtered writer copies only the rows it sees, a
 * masked one writes masked values), and the target's columns take on the
 * tags of what they are filled from (lineage).
 */
import { SqlError, notSupported, pos } from '../errors.js';
import type { ParsedStatement } from '../parse.js';
import { cloneTree, type Fields } from '../walk.js';
import type { WriteContext } from './context.js';
import { dmlTarget, targetColumn, type DmlTarget } from './dmlTarget.js';
import { engineRangeVar, planWriteTree } from './pipeline.js';
import type { EngineWrite } from './plan.js';
import { valuesForColumns } from './arrayText.js';
import { refuseReturning } from './refusals.js';
import { ColumnSources, type OutputColumn } from './sources.js';

/** The columns written, in the order values are given: the list written, or every column of the target. */
function insertColumns(ins: Fields, t: DmlTarget): { names: string[]; listed: boolean } {
  const cols = (ins['cols'] ?? []) as Fields[];
  if (cols.length === 0) return { names: t.columns.map((c) => c.name), listed: false };
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of cols) {
    const rt = c['ResTarget'] as Fields;
    if (rt['indirection']) throw notSupported('assigning to an element or a field of a column', rt['location']);
    const name = targetColumn(t, String(rt['name']), rt['location']);
    if (seen.has(name)) throw new SqlError('42701', `column "${name}" specified more than once`, pos(rt['location']));
    seen.add(name);
    out.push(name);
  }
  return { names: out, listed: true };
}

/** The location of a node (for the position of a count mismatch). */
const locationOf = (n: unknown): unknown => {
  const f = n && typeof n === 'object' ? Object.values(n as Fields)[0] : undefined;
  return (f as Fields | undefined)?.['location'];
};

/** PostgreSQL's checks of a row's width against the columns written. */
function checkWidth(values: unknown[], columns: { names: string[]; listed: boolean }, cols: Fields[]): void {
  if (values.length > columns.names.length) {
    throw new SqlError('42601', 'INSERT has more expressions than target columns', pos(locationOf(values[columns.names.length])));
  }
  if (columns.listed && values.length < columns.names.length) {
    throw new SqlError('42601', 'INSERT has more target columns than expressions', pos(cols[values.length]?.['ResTarget']?.['location']));
  }
}

/** The width of a SELECT's output once its stars are written out (its first arm's, for a set operation). */
function selectWidth(select: Fields): unknown[] {
  if (select['op'] && select['op'] !== 'SETOP_NONE') return selectWidth(select['larg'] as Fields);
  return ((select['targetList'] ?? []) as Fields[]).map((t) => t['ResTarget']?.['val']);
}

function onConflict(ins: Fields): void {
  const clause = ins['onConflictClause'] as Fields | undefined;
  if (!clause) return;
  // An Iceberg table has no unique or exclusion constraint: with no conflict target nothing can conflict, so
  // DO NOTHING inserts every row, as PostgreSQL does for such a table; any conflict target matches no constraint.
  if (clause['action'] === 'ONCONFLICT_NOTHING' && !clause['infer']) {
    delete ins['onConflictClause'];
    return;
  }
  throw new SqlError('42P10', 'there is no unique or exclusion constraint matching the ON CONFLICT specification', pos(clause['location']));
}

export function planInsert(stmt: ParsedStatement, ctx: WriteContext): EngineWrite {
  const tree = cloneTree(stmt.node);
  const ins = tree['InsertStmt']!;
  refuseReturning(ins);
  if (ins['override'] && ins['override'] !== 'OVERRIDING_NOT_SET') throw notSupported('OVERRIDING … VALUE (an Iceberg table has no identity column)');
  const relation = ins['relation'] as Fields;
  delete ins['relation'];
  const t = dmlTarget(relation, 'INSERT', ctx);
  onConflict(ins);
  const columns = insertColumns(ins, t);
  const cols = (ins['cols'] ?? []) as Fields[];
  const rows = ins['selectStmt']?.['SelectStmt'] as Fields | undefined;
  if (rows?.['valuesLists']) valuesForColumns(rows['valuesLists'] as Fields[], columns.names.map((n) => t.columns.find((c) => c.name === n)));
  let outputs: OutputColumn[] = [];
  const { sql } = planWriteTree(tree, ctx, {
    afterResolve: (tables) => {
      if (!rows) return;
      const sources = new ColumnSources(tables).withClause(ins['withClause']);
      if (!rows['valuesLists']) sources.expandStars(rows);
      if (rows['valuesLists'] && !rows['targetList']) {
        for (const list of rows['valuesLists'] as Fields[]) checkWidth((list['List']?.['items'] ?? []) as unknown[], columns, cols);
      } else {
        checkWidth(selectWidth(rows), columns, cols);
      }
      outputs = sources.outputs(rows);
    },
    attachTarget: (root) => {
      root['InsertStmt']!['relation'] = engineRangeVar(t.target, ctx.writeAlias, relation['alias']);
    },
  });
  // Each written column takes on the tags of the values given for it (by position).
  const byColumn = outputs.map((o, i) => ({ name: columns.names[i] ?? o.name, sources: o.sources }));
  const columnTags = ctx.policy.tagsOf(byColumn.filter((c) => columns.names.includes(c.name)));
  return { kind: 'engine', tag: 'INSERT', sql, counts: true, target: t.target, ddl: false, columns: columns.names, ...(Object.keys(columnTags).length > 0 ? { columnTags } : {}) };
}

