/**
 * The decisions the rest of lakegate asks for, answered from whatever engine the
 * policy cache holds right now — and failing closed when it holds none (never
 * loaded, or stale past the allowed staleness): no access, every column
 * restricted, every row filtered out.
 */
import type { PolicyEngine } from './engine.js';
import type { AccessRequest, AccessResult, DataMaskResult, RowFilterResult } from './request.js';

/** Where the current engine comes from; null means "do not trust any policy now". */
export interface EngineProvider {
  current(): PolicyEngine | null;
}

/** A row filter that keeps no row: what a table gets when no policy set is usable. */
export const NO_ROWS_FILTER = 'false';
/** The mask type that replaces a column by NULL. */
export const MASK_NULL = 'MASK_NULL';

export class RangerAuthorizer {
  constructor(private readonly engines: EngineProvider) {}

  /** Is a usable policy set loaded at all? */
  get ready(): boolean {
    return this.engines.current() !== null;
  }

  checkAccess(req: AccessRequest): AccessResult {
    const engine = this.engines.current();
    if (engine) return engine.isAccessAllowed(req);
    return {
      isAllowed: false,
      isAccessDetermined: true,
      isAudited: true,
      isAuditedDetermined: true,
      policyId: -1,
      policyPriority: 0,
      policyVersion: null,
      zoneName: null,
      reason: 'no usable policy set (never loaded, or stale past the allowed staleness)',
    };
  }

  dataMask(req: AccessRequest): DataMaskResult {
    const engine = this.engines.current();
    if (engine) return engine.evalDataMask(req);
    return { maskType: MASK_NULL, maskCondition: null, maskedValue: null, transformer: null, policyId: -1, policyPriority: 0, isAudited: true };
  }

  rowFilter(req: AccessRequest): RowFilterResult {
    const engine = this.engines.current();
    if (engine) return engine.evalRowFilter(req);
    return { filterExpr: NO_ROWS_FILTER, policyId: -1, policyPriority: 0, isAudited: true };
  }
}
