/**
 * The policy side of one write statement (sql/write/context.ts WritePolicy)
 * over the statement's data gate: Ranger's hive access checks
 * (writeAccess.ts), the stored-view rule for a DML target, the gate's rewrite
 * of what the write reads, and lineage tags (lineage.ts). Every check it
 * decides is kept for the audit trail.
 */
import { SqlError } from '../../sql/errors.js';
import type { CatalogTable } from '../../sql/catalogView.js';
import type { WriteCheck, WritePolicy } from '../../sql/write/context.js';
import type { OutputColumn } from '../../sql/write/sources.js';
import type { Subject } from './decide.js';
import type { StatementGate } from './dataGate.js';
import { lineageTags } from './lineage.js';
import { decideWrite, storedView, type WriteDecision } from './writeAccess.js';

export class StatementWritePolicy implements WritePolicy {
  /** Every check decided, in order (the last one refused when the write was). */
  readonly decisions: WriteDecision[] = [];

  constructor(
    readonly gate: StatementGate,
    private readonly subject: Subject,
  ) {}

  require(checks: readonly WriteCheck[]): void {
    for (const c of checks) {
      const d = decideWrite(this.gate.engine, this.subject, { access: c.access, resource: c.resource });
      this.decisions.push(d);
      if (!d.allowed) throw c.denial;
    }
  }

  requireStored(table: CatalogTable): void {
    const decision = this.gate.decisionFor(table);
    const why = decision ? storedView(decision) : 'the data policies of the table could not be decided';
    if (why === null) return;
    throw new SqlError('42501', `permission denied for table ${table.name}`, undefined, {
      detail: `the row filter or column masks that apply to you would not apply to the rows this statement changes (${why})`,
    });
  }

  rewriteTables: WritePolicy['rewriteTables'] = (tables, ctx, tree) => this.gate.rewrite(tables, ctx, tree);

  tagsOf(outputs: readonly OutputColumn[]): Record<string, string[]> {
    return lineageTags(outputs, (t) => this.gate.tagsOf(t));
  }

  tableTags(table: CatalogTable): Readonly<Record<string, readonly string[]>> {
    const tags = this.gate.tagsOf(table);
    if (tags === null) {
      throw new SqlError('42501', `permission denied: the column tags of relation "${table.schema}.${table.name}" cannot be read`);
    }
    return tags ?? {};
  }
}
