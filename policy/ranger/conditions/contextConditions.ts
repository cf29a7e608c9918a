/**
 * Conditions on request context attributes and the cluster, re-derived from Ranger:
 *  - RangerSimpleMatcher: evaluatorOptions.CONTEXT_NAME names the attribute; its value must
 *    match one condition value with `*`/`?` wildcards (case-sensitive). No values or no
 *    CONTEXT_NAME → passes; an attribute the request lacks (or blank) → fails, as in Ranger
 *    (test_policyengine_conditions: "DENY … no country").
 *  - RangerContextAttributeValueInCondition / …NotInCondition: evaluatorOptions.attributeName;
 *    the attribute's value must (not) be one of the values; attribute absent → passes.
 *  - RangerAccessedFromClusterCondition / …ClusterTypeCondition: no values → passes; request
 *    without a cluster name/type → fails; else the name/type must be listed.
 *    The "NotFrom" variants: no values or no cluster → passes; else it must not be listed.
 */
import type { ConditionContext, ConditionTest } from './context.js';

/** Apache commons-io FilenameUtils.wildcardMatch, case-sensitive: `*` any run, `?` one char. */
export function wildcardMatch(text: string, pattern: string): boolean {
  const re = new RegExp(
    '^' +
      pattern
        .split('')
        .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('') +
      '$',
    's',
  );
  return re.test(text);
}

function attributeText(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : String(v);
}

export function simpleMatcherTest(
  values: readonly string[] | null | undefined,
  evaluatorOptions: Readonly<Record<string, string>> | null | undefined,
): ConditionTest {
  const name = evaluatorOptions?.CONTEXT_NAME;
  const list = values ?? [];
  if (!name || list.length === 0) return () => true;
  return (ctx) => {
    const v = attributeText(ctx.context[name]);
    return v !== undefined && v.trim() !== '' && list.some((p) => wildcardMatch(v, p));
  };
}

export function attributeValueInTest(
  values: readonly string[] | null | undefined,
  evaluatorOptions: Readonly<Record<string, string>> | null | undefined,
  negate: boolean,
): ConditionTest {
  const name = evaluatorOptions?.attributeName;
  const list = values ?? [];
  if (!name || list.length === 0) return () => true;
  return (ctx) => {
    const v = ctx.context[name];
    if (v === undefined || v === null) return true;
    const found = typeof v === 'string' && list.includes(v);
    return negate ? !found : found;
  };
}

export function clusterTest(
  values: readonly string[] | null | undefined,
  pick: (ctx: ConditionContext) => string | undefined,
  negate: boolean,
): ConditionTest {
  const list = values ?? [];
  if (list.length === 0) return () => true;
  return (ctx) => {
    const v = pick(ctx);
    if (v === undefined || v === null) return negate;
    return negate ? !list.includes(v) : list.includes(v);
  };
}
