/**
 * The data gate's decision for an Iceberg metadata table (`orders$files`):
 * it is decided as its base table (dataGate.ts), and what that decision hides of
 * the base table is hidden in the metadata too — a column's statistics and
 * partition values when the user sees the column masked or restricted, and
 * every record count, statistic and partition value when the user reads the
 * table through a row filter (they describe rows the user may not see). The
 * catalog builds the rows with that hiding (catalog/iceberg/metadataTables.ts);
 * no row filter or mask applies to the metadata rows themselves.
 */
import type { CatalogTable, MetadataHiding } from '../../sql/catalogView.js';
import type { CompiledTable } from './apply.js';
import type { TableDecision } from './decide.js';

type Visible = Extract<TableDecision, { visible: true }>;

/** What the user may not see of the base table, as the metadata rows hide it. */
export function metadataHiding(d: Visible): MetadataHiding {
  const visibleColumns = new Set<string>();
  for (const c of d.columns) {
    if (c.policyName === null || !c.readable) continue;
    if (c.mask && c.mask.type !== 'MASK_NONE') continue;
    visibleColumns.add(c.policyName);
  }
  return { visibleColumns, rowFiltered: d.rowFilters.length > 0 || d.noRows !== null };
}

export function compileMetadataTable(table: CatalogTable, metadataOf: NonNullable<CatalogTable['metadataOf']>, d: Visible): CompiledTable {
  return {
    subquery: metadataOf.rows(metadataHiding(d)),
    unfenced: null,
    columns: table.columns.map((c) => ({ name: c.name, state: 'raw' as const })),
    filterErrors: [],
    hasPolicyExpressions: false,
  };
}
