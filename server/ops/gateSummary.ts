/**
 * What the gates decided for one statement, in names only (tables and
 * columns, never a value), from the record the planner hands the audit trail.
 */
import type { StatementAudit, WriteAudit } from '../audit/auditor.js';
import type { GateSummary } from './metrics.js';

export interface GateDetail {
  /** tables read (`schema.table` as the policies name them) */
  tables: string[];
  /** tables read through a row filter */
  filtered: string[];
  /** columns read masked (`table.column`), MASK_NONE not counted */
  masked: string[];
  /** columns shown as NULL: denied, or a mask that cannot be applied */
  restricted: string[];
  /** names the statement could not read: hidden by the data gate or not loaded by the catalog gate (42P01 alike) */
  denied: string[];
  /** what a write was allowed to change (`access on db.table` or `access on db`), and what it was refused */
  written: string[];
  refused: string[];
}

export const emptyDetail = (): GateDetail => ({ tables: [], filtered: [], masked: [], restricted: [], denied: [], written: [], refused: [] });

/** A write's checks as names: each access type on its resource, allowed or refused. */
export function writeDetail(w: WriteAudit): GateDetail {
  const out = emptyDetail();
  for (const c of w.checks) {
    const on = `${c.access} on ${c.resource.table === undefined ? c.resource.database : `${c.resource.database}.${c.resource.table}`}`;
    (c.allowed ? out.written : out.refused).push(on);
  }
  return out;
}

export function gateDetail(a: StatementAudit): GateDetail {
  const out = emptyDetail();
  const seen = new Set<unknown>();
  for (const { table, decision: d, compiled } of a.applied) {
    if (seen.has(table)) continue;
    seen.add(table);
    const name = `${d.resource.database}.${d.resource.table}`;
    out.tables.push(name);
    if (d.rowFilters.length > 0) out.filtered.push(name);
    d.columns.forEach((c, i) => {
      const column = `${name}.${c.policyName ?? c.name}`;
      if (!c.readable || compiled.columns[i]?.state === 'restricted') out.restricted.push(column);
      else if (c.mask && c.mask.type !== 'MASK_NONE') out.masked.push(column);
    });
  }
  for (const h of a.hidden) out.denied.push(h.resource ? `${h.resource.database}.${h.resource.table}` : `${h.name.schema}.${h.name.name}`);
  for (const u of a.unloaded) out.denied.push(`${u.schema}.${u.name}`);
  return out;
}

/** Several audit records of one statement (a write reads and writes; a cursor binds again) as one. */
export function mergeDetail(into: GateDetail, more: GateDetail): void {
  for (const k of Object.keys(into) as (keyof GateDetail)[]) for (const v of more[k]) if (!into[k].includes(v)) into[k].push(v);
}

export const countsOf = (d: GateDetail): GateSummary => ({
  tables: d.tables.length,
  rowFilters: d.filtered.length,
  masks: d.masked.length,
  restricted: d.restricted.length,
  denied: d.denied.length,
});
