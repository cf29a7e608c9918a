/**
 * The bridge between the model and the resource matchers: a policy's (or a
 * tagged resource's, or a zone's) resource maps compiled against a service def,
 * asked with a prepared request.
 */
import type { EvalRequest } from './evalRequest.js';
import { createPolicyResourcesMatcher } from './matchers/policyResourcesMatcher.js';
import type { PolicyResourceMatcher } from './matchers/policyResourceMatcher.js';
import type { MatchType, PolicyResourcesLike, RequestResource, ResourceDefLike, ServiceDefLike } from './matchers/types.js';
import type { Policy, ResourceMap, ServiceDef } from './model.js';

export interface PolicyMatcher {
  readonly isDynamic: boolean;
  getMatchType(req: Pick<EvalRequest, 'resource' | 'match' | 'elementScopes'>): MatchType;
  /** For tag policies: does the `tag` resource name this tag type? */
  matchesTag(tagType: string): boolean;
  readonly raw: PolicyResourceMatcher;
}

const matcherDefs = new WeakMap<ServiceDef, ServiceDefLike>();

/** The model keeps Ranger's nulls; the matchers take plain optional fields. */
export function matcherDef(def: ServiceDef): ServiceDefLike {
  let out = matcherDefs.get(def);
  if (!out) {
    const res = (r: { name: string; level?: number | null; parent?: string | null; matcher?: string | null; matcherOptions?: Record<string, string> | null; recursiveSupported?: boolean | null; excludesSupported?: boolean | null; isValidLeaf?: boolean | null }): ResourceDefLike => ({
      name: r.name,
      ...(r.level != null ? { level: r.level } : {}),
      ...(r.parent != null ? { parent: r.parent } : {}),
      ...(r.matcher != null ? { matcher: r.matcher } : {}),
      ...(r.matcherOptions != null ? { matcherOptions: r.matcherOptions } : {}),
      ...(r.recursiveSupported != null ? { recursiveSupported: r.recursiveSupported } : {}),
      ...(r.excludesSupported != null ? { excludesSupported: r.excludesSupported } : {}),
      ...(r.isValidLeaf != null ? { isValidLeaf: r.isValidLeaf } : {}),
    });
    out = {
      name: def.name,
      resources: def.resources.map(res),
      dataMaskDef: def.dataMaskDef ? { resources: def.dataMaskDef.resources.map(res) } : null,
      rowFilterDef: def.rowFilterDef ? { resources: def.rowFilterDef.resources.map(res) } : null,
    };
    matcherDefs.set(def, out);
  }
  return out;
}

export function resourcesMatcher(def: ServiceDef, maps: readonly ResourceMap[], policyType: 0 | 1 | 2): PolicyMatcher {
  const raw = createPolicyResourcesMatcher(matcherDef(def), maps as readonly PolicyResourcesLike[], { policyType });
  return {
    raw,
    isDynamic: raw.isDynamic,
    getMatchType: (req) => raw.getMatchType(req.resource as RequestResource, req.match, req.elementScopes as Record<string, never> | undefined),
    matchesTag: (tagType) => {
      const t = raw.getMatchType({ tag: tagType });
      return t === 'SELF' || t === 'SELF_AND_ALL_DESCENDANTS';
    },
  };
}

export function policyMatcher(def: ServiceDef, policy: Policy): PolicyMatcher {
  return resourcesMatcher(def, [policy.resources, ...policy.additionalResources], policy.policyType);
}
