/**
 * An access request and the three kinds of answer, in Ranger's terms
 * (RangerAccessRequest, RangerAccessResult, data-mask and row-filter results).
 */

export type ResourceValue = string | string[];

/** How far below the requested level a policy may sit and still apply. */
export type ResourceMatchingScope = 'SELF' | 'SELF_OR_DESCENDANTS';
export type ElementMatchingScope = 'SELF' | 'SELF_OR_CHILD' | 'SELF_OR_PREFIX';

export interface TagForEval {
  type: string;
  attributes: Record<string, string>;
  /** How the tagged resource relates to the requested one. */
  matchType: 'SELF' | 'SELF_AND_ALL_DESCENDANTS' | 'ANCESTOR' | 'DESCENDANT';
  /** Tag validity (Ranger's `validityPeriods`); none = always valid. */
  validityPeriods?: unknown[];
}

export interface AccessRequest {
  resource: Readonly<Record<string, ResourceValue>>;
  ownerUser?: string;
  /** `''` and `_any` both mean any access; `_admin` asks for delegated admin. */
  accessType: string;
  user: string;
  userGroups: ReadonlySet<string>;
  /** When given and non-empty, used as-is instead of the role store's answer. */
  userRoles?: ReadonlySet<string>;
  accessTime?: Date;
  action?: string;
  requestData?: string;
  clientIPAddress?: string;
  remoteIPAddress?: string;
  forwardedAddresses?: string[];
  clusterName?: string;
  clusterType?: string;
  resourceMatchingScope?: ResourceMatchingScope;
  resourceElementMatchingScopes?: Readonly<Record<string, ElementMatchingScope>>;
  /** A DESCENDANT match may allow but not deny while this holds (Ranger's default: true). */
  isDescendantDenyIgnored?: boolean;
  /** Tags attached to the resource; when absent the engine's tag store is asked. */
  tags?: readonly TagForEval[];
  /** Further request attributes for conditions (`country`, REQUESTED_RESOURCES …). */
  context?: Readonly<Record<string, unknown>>;
  /** Several access types asked at once (Ranger's ALLACCESSTYPES / ALLACCESSTYPEGROUPS). */
  allAccessTypes?: readonly string[];
  allAccessTypeGroups?: readonly (readonly string[])[];
}

export interface AccessResult {
  isAllowed: boolean;
  isAccessDetermined: boolean;
  isAudited: boolean;
  isAuditedDetermined: boolean;
  /** The deciding policy; -1 when none decided (or a super user). */
  policyId: number;
  policyPriority: number;
  policyVersion: number | null;
  zoneName: string | null;
  reason: string | null;
}

export interface DataMaskResult {
  /** null when no mask policy applies; `MASK_NONE` is a decision not to mask. */
  maskType: string | null;
  maskCondition: string | null;
  maskedValue: string | null;
  /** The mask type's transformer from the service def, e.g. `mask_hash({col})`. */
  transformer: string | null;
  policyId: number;
  policyPriority: number;
  isAudited: boolean;
}

export interface RowFilterResult {
  filterExpr: string | null;
  policyId: number;
  policyPriority: number;
  isAudited: boolean;
}
