/**
 * EXPLAIN (POLICY) <query>: which policies applied to which table and column
 * of the query, for the user who runs it — a result set, not a plan:
 *
 *   relation | column_name | decision | policy_id | policy_name | detail
 *
 * Filter and CUSTOM mask text is shown only to a user with delegated admin on
 * the table (or a super user); the mask key is never shown to anyone (it is
 * not part of any decision, only of the engine's macro).
 */
import { strConst, intConst, strNode, type PgNode } from '../../sql/walk.js';
import type { AppliedTable } from './dataGate.js';
import type { PolicyRef } from './decide.js';

export const REPORT_COLUMNS = ['relation', 'column_name', 'decision', 'policy_id', 'policy_name', 'detail'] as const;

export type ReportRow = [relation: string, column: string | null, decision: string, policyId: number | null, policyName: string | null, detail: string | null];

function policyCells(p: PolicyRef | null): [number | null, string | null] {
  return p && p.id >= 0 ? [p.id, p.name] : [null, null];
}

const join = (parts: (string | null | undefined)[]): string | null => {
  const kept = parts.filter((p): p is string => typeof p === 'string' && p !== '');
  return kept.length > 0 ? kept.join('; ') : null;
};

export function reportRows(applied: readonly AppliedTable[]): ReportRow[] {
  const rows: ReportRow[] = [];
  const seen = new Set<AppliedTable['table']>();
  for (const { table, decision: d, compiled } of applied) {
    if (seen.has(table)) continue;
    seen.add(table);
    const rel = `${table.schema}.${table.name}`;
    rows.push([rel, null, 'select allowed', ...policyCells(d.accessPolicy), `policy resource ${d.resource.database}.${d.resource.table}`]);
    for (const f of d.rowFilters) {
      rows.push([rel, null, 'row filter applied', ...policyCells(f.policy), join([f.policy.tag ? `tag ${f.policy.tag}` : null, d.admin ? `filter: ${f.expr}` : null])]);
    }
    if (d.noRows !== null) rows.push([rel, null, 'no rows', ...policyCells(d.noRowsPolicy?.policy ?? null), d.noRows]);
    if (compiled.filterErrors.length > 0) rows.push([rel, null, 'no rows', null, null, 'a row filter cannot be applied']);
    d.columns.forEach((c, i) => {
      const outcome = compiled.columns[i]!;
      // An older snapshot's column is decided as today's column of its field id.
      const as = c.policyName !== null && c.policyName !== c.name ? `decided as column ${c.policyName}` : null;
      if (!c.readable) {
        rows.push([rel, c.name, 'restricted', ...policyCells(c.denyPolicy), join([as, c.restriction ?? 'select on the column is not allowed'])]);
        return;
      }
      if (c.mask) {
        const tag = c.mask.policy.tag ? `tag ${c.mask.policy.tag}` : null;
        if (outcome.state === 'restricted') {
          rows.push([rel, c.name, 'restricted', ...policyCells(c.mask.policy), join([as, tag, `mask ${c.mask.type} cannot be applied`])]);
          return;
        }
        const custom = c.mask.type === 'CUSTOM' && d.admin ? `expression: ${c.mask.valueExpr ?? 'NULL'}` : null;
        rows.push([rel, c.name, `mask ${c.mask.type}`, ...policyCells(c.mask.policy), join([as, tag, custom])]);
        return;
      }
      rows.push([rel, c.name, outcome.state === 'restricted' ? 'restricted' : 'readable', null, null, join([as, outcome.state === 'restricted' ? outcome.reason : null])]);
    });
  }
  return rows;
}

const TYPES: Record<(typeof REPORT_COLUMNS)[number], string> = {
  relation: 'varchar',
  column_name: 'varchar',
  decision: 'varchar',
  policy_id: 'int4',
  policy_name: 'varchar',
  detail: 'varchar',
};

const cell = (v: string | number | null): PgNode => (v === null ? { A_Const: { isnull: true } } : typeof v === 'number' ? intConst(v) : strConst(v));

/** The report as a query over VALUES (typed, also when empty). */
export function reportQuery(rows: readonly ReportRow[]): PgNode {
  const values = rows.length > 0 ? rows : [REPORT_COLUMNS.map(() => null) as unknown as ReportRow];
  return {
    SelectStmt: {
      targetList: REPORT_COLUMNS.map((name) => ({
        ResTarget: {
          name,
          val: {
            TypeCast: {
              arg: { ColumnRef: { fields: [strNode(name)] } },
              typeName: { names: [strNode('pg_catalog'), strNode(TYPES[name])], typemod: -1 },
            },
          },
        },
      })),
      fromClause: [
        {
          RangeSubselect: {
            subquery: {
              SelectStmt: {
                valuesLists: values.map((r) => ({ List: { items: r.map(cell) } })),
                limitOption: 'LIMIT_OPTION_DEFAULT',
                op: 'SETOP_NONE',
              },
            },
            alias: { aliasname: 'policy', colnames: REPORT_COLUMNS.map((c) => strNode(c)) },
          },
        },
      ],
      ...(rows.length === 0 ? { whereClause: { A_Const: { boolval: {} } } } : {}),
      limitOption: 'LIMIT_OPTION_DEFAULT',
      op: 'SETOP_NONE',
    },
  };
}
