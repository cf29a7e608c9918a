/**
 * Script conditions (RangerScriptConditionEvaluator) and script-template conditions
 * (RangerScriptTemplateConditionEvaluator), re-derived:
 *  - the script is the condition's first value, trimmed; a blank script passes (Ranger logs and
 *    lets it through);
 *  - the outcome is the script's completion value when that is a boolean, else `ctx.result`
 *    (false unless the script set it): `TAG.level == 'top'` and `if (…) ctx.result = true;`
 *    both work;
 *  - a template condition runs the def's `evaluatorOptions.scriptTemplate`; a first value of
 *    `false`/`no` (any case) inverts the outcome; a blank value leaves no script (passes).
 * lakegate differs in one place on purpose: a script that fails while running (reading a member
 * of null …) throws ScriptRuntimeError, where Ranger would fall back to whatever ctx.result
 * held; the policy evaluator fails such a condition closed (no grant on an allow item, a deny
 * on a deny item).
 */
import type { ConditionContext, ConditionTest } from './context.js';
import { scriptScope, SCRIPT_GLOBALS } from './scriptBindings.js';
import { compileScript } from './scriptInterpreter.js';

/** Compiles a condition script; throws UnsupportedScriptError for anything outside the subset. */
export function compileConditionScript(script: string): ConditionTest {
  const compiled = compileScript(script, SCRIPT_GLOBALS);
  return (context: ConditionContext) => {
    const { ctx, resolve } = scriptScope(context);
    const value = compiled.run(resolve);
    return typeof value === 'boolean' ? value : ctx.result;
  };
}

export function scriptConditionTest(values: readonly string[] | null | undefined): ConditionTest {
  const script = values?.[0]?.trim() ?? '';
  if (script === '') return () => true;
  return compileConditionScript(script);
}

export function scriptTemplateConditionTest(
  values: readonly string[] | null | undefined,
  evaluatorOptions: Readonly<Record<string, string>> | null | undefined,
): ConditionTest {
  const expected = values?.[0]?.trim() ?? '';
  if (expected === '') return () => true;
  const reverse = expected.toLowerCase() === 'false' || expected.toLowerCase() === 'no';
  const template = evaluatorOptions?.scriptTemplate?.trim() ?? '';
  const test = template === '' ? () => true : compileConditionScript(template);
  return reverse ? (ctx) => !test(ctx) : test;
}
