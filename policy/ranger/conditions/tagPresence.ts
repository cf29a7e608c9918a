/**
 * Conditions on the set of tag types attached to the request (values are tag types, trimmed):
 *  - RangerTagsAllPresentConditionEvaluator: every listed type is attached (no values → passes);
 *  - RangerAnyOfExpectedTagsPresentConditionEvaluator: at least one listed type is attached;
 *  - RangerNoneOfExpectedTagsPresentConditionEvaluator: none is (no tags at all → passes).
 */
import type { ConditionContext, ConditionTest } from './context.js';

export type TagPresenceMode = 'all' | 'any' | 'none';

function attachedTypes(ctx: ConditionContext): Set<string> | undefined {
  const tags = ctx.tags ?? [];
  return tags.length === 0 ? undefined : new Set(tags.map((t) => t.type));
}

export function tagPresenceTest(values: readonly string[] | null | undefined, mode: TagPresenceMode): ConditionTest {
  const expected = [...new Set((values ?? []).map((v) => v.trim()))];
  switch (mode) {
    case 'all':
      if (expected.length === 0) return () => true;
      return (ctx) => {
        const types = attachedTypes(ctx);
        return types !== undefined && expected.every((t) => types.has(t));
      };
    case 'any':
      return (ctx) => {
        const types = attachedTypes(ctx);
        return types !== undefined && expected.some((t) => types.has(t));
      };
    case 'none':
      return (ctx) => {
        const types = attachedTypes(ctx);
        return types === undefined || !expected.some((t) => types.has(t));
      };
  }
}
