/**
 * Policy and item conditions compiled against the service def. A condition type
 * the def does not declare is ignored, as Ranger ignores it. A declared condition
 * that cannot be built (unknown evaluator, unreadable script) fails closed: it
 * never lets an allow item grant, and it never stops a deny item from denying.
 */
import type { EvalRequest } from './evalRequest.js';
import { createConditionEvaluator } from './conditions/evaluators.js';
import type { Condition, ServiceDef } from './model.js';

export interface CompiledCondition {
  readonly type: string;
  isMatch(req: EvalRequest): boolean;
}

export interface ConditionOptions {
  trustedProxies: string[];
  useForwardedFor: boolean;
}

/** What a broken condition answers: false on allow items, true on deny items. */
export type FailClosed = 'no-match' | 'match';

export function compileConditions(
  conditions: readonly Condition[],
  def: ServiceDef,
  opts: ConditionOptions,
  onError: FailClosed = 'no-match',
): CompiledCondition[] {
  const out: CompiledCondition[] = [];
  for (const c of conditions) {
    const cdef = def.policyConditions.find((d) => d.name === c.type);
    if (!cdef) continue;
    try {
      const test = createConditionEvaluator(
        { name: cdef.name, evaluator: cdef.evaluator ?? '', evaluatorOptions: cdef.evaluatorOptions },
        { type: c.type, values: c.values },
        { forwardedAddressesTrusted: opts.useForwardedFor, trustedProxies: opts.trustedProxies },
      );
      out.push({
        type: c.type,
        isMatch: (req) => {
          try {
            return test(req.condition);
          } catch {
            return onError === 'match';
          }
        },
      });
    } catch {
      const answer = onError === 'match';
      out.push({ type: c.type, isMatch: () => answer });
    }
  }
  return out;
}
