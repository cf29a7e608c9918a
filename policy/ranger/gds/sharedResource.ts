/**
 * One shared resource of a data share (Ranger's GdsSharedResourceEvaluator): which
 * requests it lets through to the share's datasets, and the mask or row filter it
 * carries.
 *
 * The resource matches as an access policy over the service's resources, with the
 * sub-resource (e.g. columns) folded in; for row filters the sub-resource is left
 * out, since a filter applies to the whole table.
 */
import type { AccessTypes } from '../accessTypes.js';
import type { EvalRequest } from '../evalRequest.js';
import { createResourceMatcher, type ResourceMatcher } from '../matchers/resourceMatcher.js';
import { resourceDefsFor } from '../matchers/hierarchy.js';
import type { ResourceMap, ServiceDef } from '../model.js';
import { matcherDef, type PolicyMatcher, resourcesMatcher } from '../resourceMatching.js';
import { compileExpression, type ExpressionTest } from './expression.js';
import type { GdsMaskInfo, SharedResourceInfo } from './model.js';

export interface MaskInfo {
  dataMaskType: string | null;
  conditionExpr: string | null;
  valueExpr: string | null;
}

/** All names are resources of the mask (or filter) def: Ranger's isDataMaskSupported / isRowFilterSupported. */
function supports(defResources: readonly { name: string }[] | undefined, names: readonly string[]): boolean {
  if (!defResources || defResources.length === 0 || names.length === 0) return false;
  return names.every((n) => defResources.some((r) => r.name === n));
}

export class SharedResourceEvaluator {
  readonly id: number;
  readonly name: string | null;
  readonly dataShareId: number;
  readonly resourceSize: number;
  readonly allowedAccessTypes: ReadonlySet<string>;
  readonly rowFilter: string | null;
  /** Whether the resource takes part in mask / row-filter evaluation at all. */
  readonly supportsMask: boolean;
  readonly supportsRowFilter: boolean;
  private readonly condition: ExpressionTest | null;
  private readonly accessMatcher: PolicyMatcher;
  private readonly rowFilterMatcher: PolicyMatcher;
  private readonly masks: readonly { matcher: ResourceMatcher; info: MaskInfo }[];

  constructor(info: SharedResourceInfo, defaultAccessTypes: readonly string[], serviceDef: ServiceDef, accessTypes: AccessTypes) {
    this.id = info.id;
    this.name = info.name ?? null;
    this.dataShareId = info.dataShareId;
    this.resourceSize = Object.keys(info.resource).length;
    this.condition = compileExpression(info.conditionExpr);
    this.allowedAccessTypes = accessTypes.expand(info.accessTypes ?? defaultAccessTypes);
    this.rowFilter = info.rowFilter?.filterExpr?.trim() ? info.rowFilter.filterExpr : null;

    const withSub: ResourceMap = { ...info.resource };
    const sub = info.subResourceType?.trim() && info.subResource && info.subResource.values.length > 0 ? info.subResourceType : null;
    if (sub) withSub[sub] = info.subResource!;
    this.accessMatcher = resourcesMatcher(serviceDef, [withSub], 0);
    this.rowFilterMatcher = sub ? resourcesMatcher(serviceDef, [info.resource], 0) : this.accessMatcher;
    this.supportsMask = supports(serviceDef.dataMaskDef?.resources, Object.keys(withSub));
    this.supportsRowFilter = supports(serviceDef.rowFilterDef?.resources, Object.keys(info.resource));

    const maskDef = sub ? resourceDefsFor(matcherDef(serviceDef), 1).find((d) => d.name === sub) : undefined;
    this.masks =
      this.supportsMask && maskDef
        ? info.subResourceMasks.map((m: GdsMaskInfo) => ({
            matcher: createResourceMatcher(maskDef, { values: m.values, isExcludes: false, isRecursive: false }),
            info: {
              dataMaskType: m.maskInfo?.dataMaskType ?? null,
              conditionExpr: m.maskInfo?.conditionExpr ?? null,
              valueExpr: m.maskInfo?.valueExpr ?? null,
            },
          }))
        : [];
  }

  /**
   * Does this resource let the request through (GdsSharedResourceEvaluator.isAllowed)?
   * Condition, then access type, then resources: at the requested level or above
   * it, or anywhere below it for `_any` and descendant-scoped requests.
   */
  isAllowed(req: EvalRequest, accessType: string, isAny: boolean, descendants: boolean, policyType: 0 | 1 | 2): boolean {
    if (this.condition && !this.condition(req)) return false;
    if (isAny ? this.allowedAccessTypes.size === 0 : !this.allowedAccessTypes.has(accessType.toLowerCase())) return false;
    const t = (policyType === 2 ? this.rowFilterMatcher : this.accessMatcher).getMatchType(req);
    if (t === 'SELF' || t === 'SELF_AND_ALL_DESCENDANTS') return true;
    return (isAny || descendants) && t === 'DESCENDANT';
  }

  /** For ACLs: the resource covers the requested one itself (not just something below it). */
  coversRequest(req: EvalRequest): boolean {
    const t = this.accessMatcher.getMatchType(req);
    return t === 'SELF' || t === 'SELF_AND_ALL_DESCENDANTS';
  }

  get isConditional(): boolean {
    return this.condition !== null;
  }

  /** The mask for this sub-resource value (column), or null when the value is shared unmasked. */
  maskFor(value: string): MaskInfo | null {
    return this.masks.find((m) => m.matcher.isMatch(value, 'SELF'))?.info ?? null;
  }
}

/** GdsSharedResourceEvalOrderComparator: name (none first), then fewer resource elements, then id. */
export function compareSharedResources(a: SharedResourceEvaluator, b: SharedResourceEvaluator): number {
  if (a.name !== b.name) {
    if (a.name === null) return -1;
    if (b.name === null) return 1;
    return a.name < b.name ? -1 : 1;
  }
  return a.resourceSize - b.resourceSize || a.id - b.id;
}
