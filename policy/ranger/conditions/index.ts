/** Ranger policy conditions, scripts, request expressions and validity schedules. */
export type { AttachedTag, ConditionContext, ConditionDef, ConditionTest, PolicyCondition } from './context.js';
export { createConditionEvaluator, supportedEvaluatorClasses, UnsupportedConditionError, type ConditionOptions } from './evaluators.js';
export { effectiveClientIp, type IpOptions } from './ipMatcher.js';
export { readRequestedResources } from './accessedTogether.js';
export { compileConditionScript } from './scriptCondition.js';
export { UnsupportedScriptError } from './scriptInterpreter.js';
export { ScriptRuntimeError } from './scriptValues.js';
export { ScriptSyntaxError } from './scriptParser.js';
export { compileRequestExpression, evaluateRequestExpression, expandRequestExpressions, hasRequestExpressions } from './requestExpression.js';
export {
  compileValiditySchedule,
  compileValiditySchedules,
  InvalidScheduleError,
  isScheduleApplicable,
  type ScheduleOptions,
  type ScheduleTest,
  type ValiditySchedule,
} from './validity.js';
export { validateSchedule, type ScheduleValidation } from './validityValidator.js';
export { parseRangerAccessTime, parseTagAttributeDate } from './rangerDates.js';
export { isTagValidAt, toAttachedTag, type RawTag } from './tagValidity.js';
export { resolveTimeZone, UnknownTimeZoneError } from './timeZones.js';
