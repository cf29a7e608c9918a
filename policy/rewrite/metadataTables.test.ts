/**
 * What a metadata table hides, from the decision on its base table: a column
 * is shown as stored only when readable and unmasked (MASK_NONE is no mask);
 * any row filter, or no row at all, hides counts and statistics.
 */
import type { ColumnDecision, MaskDecision, TableDecision } from './decide.js';
import { metadataHiding } from './metadataTables.js';

type Visible = Extract<TableDecision, { visible: true }>;
const policy = { id: 1, name: 'p' };
const mask = (type: string): MaskDecision => ({ type, transformer: null, valueExpr: null, policy, audited: false });
const column = (name: string, over: Partial<ColumnDecision> = {}): ColumnDecision => ({ name, policyName: name, duckType: 'VARCHAR', readable: true, denyPolicy: null, mask: null, ...over });
const decision = (columns: ColumnDecision[], over: Partial<Visible> = {}): Visible => ({
  visible: true,
  resource: { database: 'sales', table: 'orders' },
  accessPolicy: policy,
  access: { policyId: 1, policyVersion: null, audited: false, zoneName: null },
  rowFilters: [],
  noRows: null,
  columns,
  admin: false,
  ...over,
});

describe('metadataHiding', () => {
  it('shows only readable, unmasked columns, by their current names', () => {
    const h = metadataHiding(
      decision([
        column('id'),
        column('ssn', { mask: mask('MASK_SHOW_LAST_4') }),
        column('note', { mask: mask('MASK_NONE') }),
        column('salary', { readable: false }),
        column('old_name', { policyName: 'new_name' }),
        column('dropped', { policyName: null }),
      ]),
    );
    expect([...h.visibleColumns].sort()).toEqual(['id', 'new_name', 'note']);
    expect(h.rowFiltered).toBe(false);
  });

  it('a row filter, or no row at all, is a filtered table', () => {
    expect(metadataHiding(decision([column('id')], { rowFilters: [{ expr: "region = 'EU'", policy, audited: false }] })).rowFiltered).toBe(true);
    expect(metadataHiding(decision([column('id')], { noRows: 'tag state unknown' })).rowFiltered).toBe(true);
  });
});
