/**
 * The boolean script conditions data shares and shared resources may carry
 * (Ranger's RangerCustomConditionEvaluator.getExpressionEvaluator). A blank
 * expression means no condition. A script lakegate cannot compile, or one that
 * throws, does not match: a condition we cannot evaluate must not widen sharing.
 */
import { compileConditionScript } from '../conditions/scriptCondition.js';
import type { EvalRequest } from '../evalRequest.js';

export type ExpressionTest = (req: EvalRequest) => boolean;

export function compileExpression(expr: string | null | undefined): ExpressionTest | null {
  const script = expr?.trim() ?? '';
  if (script === '') return null;
  let test: ReturnType<typeof compileConditionScript>;
  try {
    test = compileConditionScript(script);
  } catch {
    return () => false;
  }
  return (req) => {
    try {
      return test(req.condition) === true;
    } catch {
      return false;
    }
  };
}
