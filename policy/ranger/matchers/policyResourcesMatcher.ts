/**
 * A policy with `additionalResources` applies where its main resource map or any additional
 * map matches. This combines one matcher per map behind the same interface.
 */
import type { MatchType, PolicyResourcesLike, ServiceDefLike } from './types.js';
import {
  createPolicyResourceMatcher,
  type PolicyResourceMatcher,
  type PolicyResourceMatcherOptions,
} from './policyResourceMatcher.js';

/** Ranger's MatchTypeComparator order: the best match first. */
const RANK: Record<MatchType, number> = { SELF: 0, SELF_AND_ALL_DESCENDANTS: 1, ANCESTOR: 2, DESCENDANT: 3, NONE: 4 };

export function betterMatchType(a: MatchType, b: MatchType): MatchType {
  return RANK[b] < RANK[a] ? b : a;
}

export function createPolicyResourcesMatcher(
  serviceDef: ServiceDefLike,
  maps: readonly PolicyResourcesLike[],
  opts: PolicyResourceMatcherOptions = {},
): PolicyResourceMatcher {
  const parts = maps.map((m) => createPolicyResourceMatcher(serviceDef, m, opts));
  if (parts.length === 1) return parts[0]!;
  return {
    resourceNames: [...new Set(parts.flatMap((p) => p.resourceNames))],
    isDynamic: parts.some((p) => p.isDynamic),
    getMatchType(request, ctx, elementScopes) {
      let best: MatchType = 'NONE';
      for (const p of parts) {
        best = betterMatchType(best, p.getMatchType(request, ctx, elementScopes));
        if (best === 'SELF') break;
      }
      return best;
    },
    // Per map, not on the best type: a DESCENDANT scope is met by a map that matches as a
    // descendant even when another map matches the request itself.
    isMatch: (request, scope, ctx, elementScopes) => parts.some((p) => p.isMatch(request, scope, ctx, elementScopes)),
    isCompleteMatch: (request, ctx) => parts.some((p) => p.isCompleteMatch(request, ctx)),
    isMatchForPolicy: (other, scope, ctx, type) => parts.some((p) => p.isMatchForPolicy(other, scope, ctx, type)),
  };
}
