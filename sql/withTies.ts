/**
 * FETCH FIRST n ROWS WITH TIES: the first n rows (after OFFSET) and every row
 * that ties with the last under the ORDER BY. DuckDB has none; the statement
 * becomes
 *
 *   SELECT c1, …, ck FROM (SELECT lg_q.c1, …, lg_q.ck,
 *       rank() OVER (ORDER BY keys) AS lg_rank, row_number() OVER (ORDER BY keys) AS lg_row
 *     FROM (<the query without ORDER BY, OFFSET and FETCH>) AS lg_q) AS lg_r
 *   WHERE lg_rank <= offset + n AND lg_row > offset ORDER BY keys
 *
 * with the ORDER BY keys named by the output columns they are (an output
 * column's name, its position, or the same expression as one): the query moves
 * whole into the derived table (nothing is copied, no subquery), its columns
 * come out as they were. Anything else is refused (0A000): a key that is not an
 * output column, a star, two columns of one name, a set operation, a count or
 * offset with a subquery. Runs on the resolved tree before the dialect pass.
 */
import { SqlError } from './errors.js';
import { containsSubquery, expressionKey as shape, names, nodeKind, strNode, type Fields, type PgNode } from './walk.js';

const refuse = (why: string): SqlError => new SqlError('0A000', `FETCH … WITH TIES is not supported ${why}`);
const col = (...parts: string[]): PgNode => ({ ColumnRef: { fields: parts.map((p) => strNode(p)) } });
const rankCall = (fn: string, keys: PgNode[]): PgNode => ({
  FuncCall: { funcname: [strNode(fn)], over: { orderClause: keys, frameOptions: 1058 }, funcformat: 'COERCE_EXPLICIT_CALL' },
});
const op = (o: string, l: PgNode, r: PgNode): PgNode => ({ A_Expr: { kind: 'AEXPR_OP', name: [strNode(o)], lexpr: l, rexpr: r } });
const select = (fields: Fields): PgNode => ({ SelectStmt: { limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE', ...fields } });

export function rewriteWithTies(tree: PgNode): void {
  const sel = tree['SelectStmt'] as Fields | undefined;
  if (!sel || sel['limitOption'] !== 'LIMIT_OPTION_WITH_TIES') return;
  if (sel['op'] !== 'SETOP_NONE' || sel['valuesLists']) throw refuse('over a set operation or VALUES');
  if (sel['lockingClause'] || sel['intoClause']) throw refuse('with a locking clause');
  const sort = (sel['sortClause'] ?? []) as Fields[];
  if (sort.length === 0) throw new SqlError('42601', 'WITH TIES cannot be specified without ORDER BY clause');
  const count = sel['limitCount'] as PgNode | undefined;
  const offset = sel['limitOffset'] as PgNode | undefined;
  if (!count || containsSubquery(count) || (offset && containsSubquery(offset))) throw refuse('with a subquery in its count or offset');
  const targets = (sel['targetList'] ?? []) as Fields[];
  if (targets.length === 0) throw refuse('without output columns');
  const outNames: string[] = [];
  for (const t of targets) {
    const rt = t['ResTarget'] as Fields | undefined;
    const val = rt?.['val'];
    if (!rt || nodeKind(val) === 'A_Star') throw refuse('with a star');
    const ref = (val as Fields)['ColumnRef'] as Fields | undefined;
    if (ref && ((ref['fields'] ?? []) as Fields[]).some((f) => f['A_Star'])) throw refuse('with a star');
    const name = rt['name'] !== undefined ? String(rt['name']) : ref ? names(ref['fields']).pop() : undefined;
    if (name === undefined || outNames.includes(name) || name === 'lg_rank' || name === 'lg_row') throw refuse('with two output columns of one name');
    outNames.push(name);
  }
  const keyName = (node: unknown): string => {
    const c = (node as Fields)['A_Const'] as Fields | undefined;
    if (c?.['ival'] !== undefined) {
      const k = Number(c['ival']['ival'] ?? 0);
      if (k >= 1 && k <= outNames.length) return outNames[k - 1]!;
      throw new SqlError('42P10', `ORDER BY position ${k} is not in select list`);
    }
    const ref = (node as Fields)['ColumnRef'] as Fields | undefined;
    const parts = ref ? names(ref['fields']) : [];
    if (parts.length === 1 && outNames.includes(parts[0]!)) return parts[0]!;
    const same = targets.findIndex((t) => shape(t['ResTarget']?.['val']) === shape(node));
    if (same >= 0) return outNames[same]!;
    throw refuse('with an ORDER BY key that is not an output column');
  };
  const keys = (): PgNode[] => sort.map((s) => {
    const by = s['SortBy'] as Fields;
    return { SortBy: { ...by, node: col(keyName(by['node'])) } };
  });
  keys(); // every key named before anything moves
  const inner: Fields = { ...sel };
  delete inner['sortClause'];
  delete inner['limitCount'];
  delete inner['limitOffset'];
  inner['limitOption'] = 'LIMIT_OPTION_DEFAULT';
  const mid = select({
    targetList: [
      ...outNames.map((n) => ({ ResTarget: { val: col('lg_q', n) } })),
      { ResTarget: { name: 'lg_rank', val: rankCall('rank', keys()) } },
      { ResTarget: { name: 'lg_row', val: rankCall('row_number', keys()) } },
    ],
    fromClause: [{ RangeSubselect: { subquery: { SelectStmt: inner }, alias: { aliasname: 'lg_q' } } }],
  });
  const bound = offset ? op('+', offset, count) : count;
  const rankOk = op('<=', col('lg_r', 'lg_rank'), bound);
  const where = offset
    ? { BoolExpr: { boolop: 'AND_EXPR', args: [rankOk, op('>', col('lg_r', 'lg_row'), structuredClone(offset))] } }
    : rankOk;
  const outer: Fields = (select({
    targetList: outNames.map((n) => ({ ResTarget: { name: n, val: col('lg_r', n) } })),
    fromClause: [{ RangeSubselect: { subquery: mid, alias: { aliasname: 'lg_r' } } }],
    whereClause: where,
    sortClause: sort.map((s) => ({ SortBy: { ...(s['SortBy'] as Fields), node: col('lg_r', keyName((s['SortBy'] as Fields)['node'])) } })),
  }) as Fields)['SelectStmt'] as Fields;
  for (const k of Object.keys(sel)) delete sel[k];
  Object.assign(sel, outer);
}
