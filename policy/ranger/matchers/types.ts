/**
 * The shapes the resource-matching layer works on. They are deliberately minimal and
 * structural so the zod model in ../model.ts (written separately) can be passed in as is.
 */

export type MatcherOptionValue = string | boolean;

/** One entry of `serviceDef.resources` (or of dataMaskDef/rowFilterDef.resources). */
export interface ResourceDefLike {
  name: string;
  level?: number;
  parent?: string;
  matcher?: string;
  matcherOptions?: Record<string, MatcherOptionValue>;
  recursiveSupported?: boolean;
  excludesSupported?: boolean;
  isValidLeaf?: boolean;
}

/** One entry of `policy.resources`. */
export interface PolicyResourceLike {
  values?: string[];
  isExcludes?: boolean;
  isRecursive?: boolean;
}

export type PolicyResourcesLike = Record<string, PolicyResourceLike>;

/** The part of a service definition the matchers need. */
export interface ServiceDefLike {
  name?: string;
  resources?: ResourceDefLike[];
  dataMaskDef?: { resources?: ResourceDefLike[] } | null;
  rowFilterDef?: { resources?: ResourceDefLike[] } | null;
}

/** 0 access, 1 data-mask, 2 row-filter. */
export type PolicyType = 0 | 1 | 2;

/**
 * What a policy value may be expanded with at match time.
 * `tokens` keys are token names without Ranger's "token:" prefix (USER, OWNER, ...).
 * `resolveExpression` evaluates the `expr` of a `${{expr}}`; without it (or when it returns
 * undefined) a value holding an expression stays unresolved and matches nothing.
 */
export interface MatchContext {
  tokens?: Record<string, string>;
  resolveExpression?: (expr: string) => string | undefined;
}

/** A requested value for one resource: one value, several (any may match), or "all values". */
export type RequestValue = string | readonly string[] | null | undefined;

export type RequestResource = Record<string, RequestValue>;

/** How one resource element of a request is compared (Ranger's ResourceElementMatchingScope). */
export type ElementScope = 'SELF' | 'SELF_OR_PREFIX' | 'SELF_OR_CHILD';

/** The outcome for one resource element (Ranger's ResourceElementMatchType). */
export type ElementMatch = 'SELF' | 'PREFIX' | 'CHILD' | 'NONE';

/** How a whole policy resource relates to a request resource. */
export type MatchType = 'SELF' | 'SELF_AND_ALL_DESCENDANTS' | 'DESCENDANT' | 'ANCESTOR' | 'NONE';

/** Which match types a caller accepts (Ranger's RangerPolicyResourceMatcher.MatchScope). */
export type MatchScope =
  | 'SELF'
  | 'SELF_OR_DESCENDANT'
  | 'SELF_OR_ANCESTOR'
  | 'DESCENDANT'
  | 'ANCESTOR'
  | 'ANY'
  | 'SELF_AND_ALL_DESCENDANTS';
