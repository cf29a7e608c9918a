/**
 * Matching of a policy's whole resource map against a request resource — Ranger's
 * RangerDefaultPolicyResourceMatcher: which hierarchy applies, then a top-down walk that yields
 * SELF / SELF_AND_ALL_DESCENDANTS / DESCENDANT / ANCESTOR / NONE (reference §3).
 */
import type {
  ElementScope,
  MatchContext,
  MatchScope,
  MatchType,
  PolicyResourcesLike,
  PolicyType,
  RequestResource,
  ResourceDefLike,
  ServiceDefLike,
} from './types.js';
import { createResourceMatcher, type ResourceMatcher } from './resourceMatcher.js';
import { hierarchies, hierarchyHasAll, isGapFree, resourceDefsFor, shortestHierarchyWith } from './hierarchy.js';

export interface PolicyResourceMatcherOptions {
  policyType?: PolicyType;
}

export interface PolicyResourceMatcher {
  /** Resource-def names the policy's resources cover. */
  readonly resourceNames: readonly string[];
  /** Some value holds tokens or request expressions. */
  readonly isDynamic: boolean;
  getMatchType(request: RequestResource, ctx?: MatchContext, elementScopes?: Record<string, ElementScope>): MatchType;
  isMatch(request: RequestResource, scope: MatchScope, ctx?: MatchContext, elementScopes?: Record<string, ElementScope>): boolean;
  /** The policy names exactly the request's resource, value for value (grant/revoke merging). */
  isCompleteMatch(request: RequestResource, ctx?: MatchContext): boolean;
  /**
   * Does another policy's resource map fall within this one at `scope`? Each of its levels
   * must have some value that matches (Ranger's isMatch(RangerPolicy, scope, ...)).
   */
  isMatchForPolicy(resources: PolicyResourcesLike, scope: MatchScope, ctx?: MatchContext, policyType?: PolicyType): boolean;
}

/**
 * Which match types a scope accepts. Ranger's switch has no branch for
 * SELF_AND_ALL_DESCENDANTS, so that scope accepts any match, like ANY.
 */
export function scopeAccepts(scope: MatchScope, t: MatchType): boolean {
  switch (scope) {
    case 'SELF':
      return t === 'SELF' || t === 'SELF_AND_ALL_DESCENDANTS';
    case 'ANCESTOR':
      return t === 'ANCESTOR';
    case 'DESCENDANT':
      return t === 'DESCENDANT';
    case 'SELF_OR_ANCESTOR':
      return t === 'SELF' || t === 'SELF_AND_ALL_DESCENDANTS' || t === 'ANCESTOR';
    case 'SELF_OR_DESCENDANT':
      return t === 'SELF' || t === 'SELF_AND_ALL_DESCENDANTS' || t === 'DESCENDANT';
    case 'ANY':
    case 'SELF_AND_ALL_DESCENDANTS':
      return t !== 'NONE';
  }
}

/** A request key counts only with a value; Ranger drops null elements from the resource. */
function presentKeys(request: RequestResource): string[] {
  return Object.keys(request).filter((k) => request[k] !== null && request[k] !== undefined);
}

export function createPolicyResourceMatcher(
  serviceDef: ServiceDefLike,
  resources: PolicyResourcesLike,
  opts: PolicyResourceMatcherOptions = {},
): PolicyResourceMatcher {
  const policyType = opts.policyType ?? 0;
  const all = hierarchies(serviceDef, policyType);
  const policyKeys = Object.keys(resources);
  const inPolicy = (name: string) => resources[name] !== undefined;

  const fitting = all.filter((h) => hierarchyHasAll(h, policyKeys));
  const valid = fitting.filter((h) => isGapFree(h, inPolicy));
  // A policy whose keys fit no hierarchy without gaps matches nothing (Ranger's init fails).
  const usable = policyKeys.length > 0 && valid.length > 0;
  // With exactly one valid hierarchy (database+table → database/table/column) it is used for
  // every request; with several (database alone) the request's keys pick one.
  const onlyHierarchy = valid.length === 1 ? valid[0]! : null;

  const matchers = new Map<string, ResourceMatcher>();
  if (usable)
    for (const h of fitting)
      for (const def of h)
        if (!matchers.has(def.name) && resources[def.name]) matchers.set(def.name, createResourceMatcher(def, resources[def.name]));
  const isDynamic = [...matchers.values()].some((m) => m.isDynamic);

  const hierarchyFor = (request: RequestResource, requestKeys: string[]): ResourceDefLike[] | null => {
    if (requestKeys.length === 0) return onlyHierarchy ?? shortestHierarchyWith(all, policyKeys);
    let h: ResourceDefLike[] | null = null;
    if (onlyHierarchy) h = hierarchyHasAll(onlyHierarchy, requestKeys) ? onlyHierarchy : null;
    else if (requestKeys.every(inPolicy)) h = shortestHierarchyWith(all, policyKeys);
    else if (policyKeys.every((k) => requestKeys.includes(k))) h = shortestHierarchyWith(all, requestKeys);
    // The request must not skip a level (database + column without table).
    return h && isGapFree(h, (n) => request[n] !== null && request[n] !== undefined) ? h : null;
  };

  const onlyNames = onlyHierarchy ? new Set(onlyHierarchy.map((d) => d.name)) : null;

  /** Per hierarchy: its levels with this policy's matchers, and the last non-match-any level. */
  interface Steps {
    names: string[];
    matchers: (ResourceMatcher | undefined)[];
    lastNonAny: number;
  }
  const stepsCache = new Map<ResourceDefLike[], Steps>();
  const stepsFor = (hierarchy: ResourceDefLike[]): Steps => {
    let steps = stepsCache.get(hierarchy);
    if (!steps) {
      // Position of the deepest policy level that is not match-any: a shallower request is
      // SELF_AND_ALL_DESCENDANTS only when every level below it is match-any.
      let lastNonAny = -1;
      let covered = 0;
      for (const def of hierarchy) {
        const m = matchers.get(def.name);
        if (!m) break;
        if (!m.isMatchAny) lastNonAny = covered;
        covered++;
      }
      steps = { names: hierarchy.map((d) => d.name), matchers: hierarchy.map((d) => matchers.get(d.name)), lastNonAny };
      stepsCache.set(hierarchy, steps);
    }
    return steps;
  };

  const getMatchType = (request: RequestResource, ctx?: MatchContext, elementScopes?: Record<string, ElementScope>): MatchType => {
    let nKeys = 0;
    let allInOnly = true;
    for (const k in request) {
      const v = request[k];
      if (v === null || v === undefined) continue;
      nKeys++;
      if (onlyNames !== null && !onlyNames.has(k)) allInOnly = false;
    }
    if (policyKeys.length === 0 && nKeys === 0) return 'SELF';
    if (!usable) return 'NONE';
    let hierarchy: ResourceDefLike[] | null;
    if (onlyHierarchy !== null && nKeys > 0) {
      // The common case without allocation: the one hierarchy, which must hold every
      // request key, and the request must not skip a level.
      if (!allInOnly) return 'NONE';
      let skipped = false;
      for (const d of onlyHierarchy) {
        const v = request[d.name];
        if (v === null || v === undefined) skipped = true;
        else if (skipped) return 'NONE';
      }
      hierarchy = onlyHierarchy;
    } else hierarchy = hierarchyFor(request, presentKeys(request));
    if (!hierarchy) return 'NONE';

    const steps = stepsFor(hierarchy);
    let ret: MatchType = nKeys === 0 ? 'SELF' : 'NONE';
    for (let i = 0; i < steps.names.length; i++) {
      const name = steps.names[i]!;
      const m = steps.matchers[i];
      const value = request[name] ?? null;
      if (m) {
        if (value !== null || m.isMatchAny) {
          if (!m.isMatch(value, elementScopes?.[name] ?? 'SELF', ctx)) return 'NONE';
          ret = 'SELF';
        }
      } else {
        if (value !== null) ret = 'ANCESTOR'; // the request goes deeper than the policy
        break;
      }
    }
    if (ret === 'SELF' && nKeys < policyKeys.length) ret = nKeys > steps.lastNonAny ? 'SELF_AND_ALL_DESCENDANTS' : 'DESCENDANT';
    return ret;
  };

  const defs = resourceDefsFor(serviceDef, policyType);

  return {
    resourceNames: policyKeys,
    isDynamic,
    getMatchType,
    isMatch: (request, scope, ctx, elementScopes) => scopeAccepts(scope, getMatchType(request, ctx, elementScopes)),
    isCompleteMatch(request, ctx) {
      const requestKeys = Object.keys(request);
      if (requestKeys.length !== policyKeys.length || !requestKeys.every(inPolicy)) return false;
      for (const def of defs) {
        const value = request[def.name];
        const m = matchers.get(def.name);
        if (value === null || value === undefined || value === '') {
          if (m && !m.isCompleteMatch(value, ctx)) return false;
        } else if (typeof value !== 'string' || !m || !m.isCompleteMatch(value, ctx)) {
          return false;
        }
      }
      return true;
    },
    isMatchForPolicy(other, scope, ctx, otherType = 0) {
      const otherKeys = Object.keys(other);
      if (otherType !== policyType || otherKeys.length === 0 || !usable) return false;
      const hierarchy = shortestHierarchyWith(all, otherKeys);
      if (!hierarchy) return false;
      // Build a request level by level from the other policy's values; each level needs one
      // value that matches somehow, and the last level's match type is the answer.
      const request: Record<string, string> = {};
      let matched = false;
      let type: MatchType = 'NONE';
      let skipped = false;
      for (const def of hierarchy) {
        const values = other[def.name]?.values ?? [];
        if (values.length > 0) {
          matched = false;
          type = 'NONE';
          if (skipped) break;
          for (const v of values) {
            request[def.name] = v;
            type = getMatchType(request, ctx);
            if (type !== 'NONE') {
              matched = true;
              break;
            }
          }
        } else {
          skipped = true;
        }
        if (!matched) break;
      }
      return matched && scopeAccepts(scope, type);
    },
  };
}
