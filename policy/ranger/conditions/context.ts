/**
 * What a condition, a script or a `${{…}}` expression can see of one access request.
 * The policy evaluator fills it once per request (and per tag while tag policies run).
 */
import type { ValiditySchedule } from './validity.js';

/** A tag attached to the request (Ranger's RangerTagForEval). */
export interface AttachedTag {
  type: string;
  attributes: Readonly<Record<string, string>>;
  /** How the tagged resource relates to the requested one: SELF, ANCESTOR, … */
  matchType?: string;
  /** The tag's own validity; an expired tag should not have been attached (see tagValidity.ts). */
  validityPeriods?: readonly ValiditySchedule[];
}

export interface ConditionContext {
  user: string;
  userGroups: ReadonlySet<string>;
  userRoles: ReadonlySet<string>;
  accessTime: Date;
  accessType: string;
  action?: string;
  requestData?: string;
  /**
   * The client address conditions test. When absent, the IP condition derives it from
   * remoteIPAddress / forwardedAddresses as Ranger does (see ipMatcher.ts).
   */
  clientIPAddress?: string;
  remoteIPAddress?: string;
  forwardedAddresses?: readonly string[];
  clientType?: string;
  clusterName?: string;
  clusterType?: string;
  resource: { elements: Readonly<Record<string, string | readonly string[]>>; ownerUser?: string };
  /**
   * Request context attributes (`country`, `REQUESTED_RESOURCES` …). REQUESTED_RESOURCES may be
   * an array of element maps, an array of `{elements}`, `{requestedResources: [...]}`, or that
   * JSON as a string (fixtures).
   */
  context: Readonly<Record<string, unknown>>;
  /** All tags attached to the request. */
  tags?: readonly AttachedTag[];
  /** The tag a tag policy is being evaluated through. */
  currentTag?: AttachedTag;
  /** User-store attributes (Ranger's userAttrMapping / groupAttrMapping). */
  userAttributes?: (user: string) => Readonly<Record<string, string>> | undefined;
  groupAttributes?: (group: string) => Readonly<Record<string, string>> | undefined;
}

/** A condition as declared in `serviceDef.policyConditions`. */
export interface ConditionDef {
  name: string;
  evaluator: string;
  evaluatorOptions?: Readonly<Record<string, string>> | null;
}

/** A condition as written in a policy or policy item. */
export interface PolicyCondition {
  type: string;
  values?: readonly string[] | null;
}

export type ConditionTest = (ctx: ConditionContext) => boolean;
