/**
 * The compiled policies of one service (or one security zone, or the tag
 * service), split by policy type and kept in Ranger's evaluation order.
 */
import type { EvalRequest } from './evalRequest.js';
import { PolicyResourceIndex } from './matchers/resourceIndex.js';
import type { PolicyResourcesLike, RequestResource } from './matchers/types.js';
import type { Policy } from './model.js';
import { matcherDef } from './resourceMatching.js';
import { compareForAccess, type EvaluatorOptions, PolicyEvaluator } from './policyEvaluator.js';

/** Below this many policies a scan is as fast as the index. */
const SMALL = 8;

export class Repository {
  private readonly byType: readonly [PolicyEvaluator[], PolicyEvaluator[], PolicyEvaluator[]];
  /** Per policy type: narrows thousands of policies to the few a request can match. */
  private readonly indexes: readonly [PolicyResourceIndex<PolicyEvaluator>, PolicyResourceIndex<PolicyEvaluator>, PolicyResourceIndex<PolicyEvaluator>];
  private readonly tagCache = new Map<string, PolicyEvaluator[]>();

  constructor(policies: readonly Policy[], opts: EvaluatorOptions) {
    const byType: [PolicyEvaluator[], PolicyEvaluator[], PolicyEvaluator[]] = [[], [], []];
    for (const p of policies) {
      if (!p.isEnabled) continue;
      byType[p.policyType].push(new PolicyEvaluator(p, opts));
    }
    for (const list of byType) list.sort(compareForAccess);
    this.byType = byType;
    const def = matcherDef(opts.serviceDef);
    const index = (policyType: 0 | 1 | 2) => {
      // Added in evaluation order: the index answers in insertion order, so candidates come
      // out already ranked.
      const idx = new PolicyResourceIndex<PolicyEvaluator>(def, { policyType });
      for (const evaluator of byType[policyType])
        idx.add([evaluator.policy.resources, ...evaluator.policy.additionalResources] as PolicyResourcesLike[], evaluator);
      return idx;
    };
    this.indexes = [index(0), index(1), index(2)];
  }

  /** Some policy has conditions or validity schedules. */
  get isContextDependent(): boolean {
    return this.byType.some((list) => list.some((p) => p.isContextDependent));
  }

  get size(): number {
    return this.byType[0].length + this.byType[1].length + this.byType[2].length;
  }

  /** Policies that may apply to the request, in evaluation order. */
  candidates(req: EvalRequest, policyType: 0 | 1 | 2): readonly PolicyEvaluator[] {
    const all = this.byType[policyType];
    if (all.length <= SMALL) return all;
    return this.indexes[policyType].candidates(req.resource as RequestResource, undefined, req.elementScopes as Record<string, never> | undefined);
  }

  /** Tag policies whose `tag` resource names this tag type. */
  forTag(tagType: string, policyType: 0 | 1 | 2): readonly PolicyEvaluator[] {
    const key = `${policyType}\u0000${tagType}`;
    let hit = this.tagCache.get(key);
    if (!hit) {
      hit = this.byType[policyType].filter((p) => p.matcher.matchesTag(tagType));
      this.tagCache.set(key, hit);
    }
    return hit;
  }
}
