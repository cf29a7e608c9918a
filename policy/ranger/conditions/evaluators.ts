/**
 * Builds the test for one policy condition from its serviceDef declaration, dispatching on the
 * declared evaluator class (the part after the last `.`, so short and fully qualified names
 * both work). An evaluator class lakegate does not implement, or a script outside the supported
 * subset, is refused here with UnsupportedConditionError / UnsupportedScriptError — the policy
 * evaluator then fails the policy closed. Whether the condition type is declared at all is the
 * caller's concern (undeclared types are ignored, as in Ranger).
 */
import { accessedTogetherTest } from './accessedTogether.js';
import { attributeValueInTest, clusterTest, simpleMatcherTest } from './contextConditions.js';
import type { ConditionDef, ConditionTest, PolicyCondition } from './context.js';
import { ipRangeConditionTest, type IpOptions } from './ipMatcher.js';
import { scriptConditionTest, scriptTemplateConditionTest } from './scriptCondition.js';
import { tagPresenceTest } from './tagPresence.js';
import { compileValiditySchedules, type ScheduleOptions, type ValiditySchedule } from './validity.js';

export class UnsupportedConditionError extends Error {
  constructor(
    readonly conditionName: string,
    readonly evaluatorClass: string,
  ) {
    super(`condition '${conditionName}': evaluator '${evaluatorClass}' is not supported`);
    this.name = 'UnsupportedConditionError';
  }
}

export interface ConditionOptions extends Partial<IpOptions>, ScheduleOptions {}

type Builder = (def: ConditionDef, values: readonly string[], options: ConditionOptions) => ConditionTest;

const BUILDERS: Readonly<Record<string, Builder>> = {
  RangerIpMatcher: (_d, v, o) =>
    ipRangeConditionTest(v, { forwardedAddressesTrusted: o.forwardedAddressesTrusted ?? false, trustedProxies: o.trustedProxies ?? [] }),
  RangerSimpleMatcher: (d, v) => simpleMatcherTest(v, d.evaluatorOptions),
  RangerContextAttributeValueInCondition: (d, v) => attributeValueInTest(v, d.evaluatorOptions, false),
  RangerContextAttributeValueNotInCondition: (d, v) => attributeValueInTest(v, d.evaluatorOptions, true),
  RangerAccessedFromClusterCondition: (_d, v) => clusterTest(v, (c) => c.clusterName, false),
  RangerAccessedNotFromClusterCondition: (_d, v) => clusterTest(v, (c) => c.clusterName, true),
  RangerAccessedFromClusterTypeCondition: (_d, v) => clusterTest(v, (c) => c.clusterType, false),
  RangerAccessedNotFromClusterTypeCondition: (_d, v) => clusterTest(v, (c) => c.clusterType, true),
  RangerHiveResourcesAccessedTogetherCondition: (_d, v) => accessedTogetherTest(v, true),
  RangerHiveResourcesNotAccessedTogetherCondition: (_d, v) => accessedTogetherTest(v, false),
  RangerTagsAllPresentConditionEvaluator: (_d, v) => tagPresenceTest(v, 'all'),
  RangerAnyOfExpectedTagsPresentConditionEvaluator: (_d, v) => tagPresenceTest(v, 'any'),
  RangerNoneOfExpectedTagsPresentConditionEvaluator: (_d, v) => tagPresenceTest(v, 'none'),
  RangerValidityScheduleConditionEvaluator: (_d, v, o) => validityScheduleConditionTest(v, o),
  RangerScriptConditionEvaluator: (_d, v) => scriptConditionTest(v),
  RangerScriptTemplateConditionEvaluator: (d, v) => scriptTemplateConditionTest(v, d.evaluatorOptions),
};

/** Each value is a schedule as JSON; applicable if any is (no values → passes). */
function validityScheduleConditionTest(values: readonly string[], options: ScheduleOptions): ConditionTest {
  if (values.length === 0) return () => true;
  const schedules = values.map((v) => JSON.parse(v) as ValiditySchedule);
  const test = compileValiditySchedules(schedules, options);
  return (ctx) => test(ctx.accessTime);
}

export function supportedEvaluatorClasses(): string[] {
  return Object.keys(BUILDERS);
}

export function createConditionEvaluator(
  conditionDef: ConditionDef,
  condition: PolicyCondition,
  options: ConditionOptions = {},
): ConditionTest {
  const className = conditionDef.evaluator.trim().split('.').pop() ?? '';
  // a class name from policy JSON: only a builder listed here, never an Object.prototype member
  const build = Object.hasOwn(BUILDERS, className) ? BUILDERS[className] : undefined;
  if (!build) throw new UnsupportedConditionError(conditionDef.name, conditionDef.evaluator);
  return build(conditionDef, condition.values ?? [], options);
}
