/**
 * `${{…}}` request expressions (RangerRequestExprResolver): `${{USER.dept}}` in resource values,
 * mask value expressions and row filters, evaluated with the same globals as script conditions.
 */
import type { ConditionContext } from './context.js';
import { scriptScope, SCRIPT_GLOBALS } from './scriptBindings.js';
import { compileScript, type CompiledScript, UnsupportedScriptError } from './scriptInterpreter.js';
import { toScriptString } from './scriptValues.js';

const EXPRESSION = /\$\{\{(.*?)\}\}/g;

const compiledExpressions = new Map<string, CompiledScript | UnsupportedScriptError>();

/** Compiles one expression (the text between `${{` and `}}`); throws UnsupportedScriptError. */
export function compileRequestExpression(expr: string): CompiledScript {
  let compiled = compiledExpressions.get(expr);
  if (compiled === undefined) {
    try {
      compiled = compileScript(expr, SCRIPT_GLOBALS);
    } catch (e) {
      if (!(e instanceof UnsupportedScriptError)) throw e;
      compiled = e;
    }
    if (compiledExpressions.size > 10000) compiledExpressions.clear();
    compiledExpressions.set(expr, compiled);
  }
  if (compiled instanceof UnsupportedScriptError) throw compiled;
  return compiled;
}

/**
 * The value of one expression as a string; undefined when it is null/undefined, fails while
 * running, or is not supported (a value that cannot be computed must not match anything).
 */
export function evaluateRequestExpression(expr: string, ctx: ConditionContext): string | undefined {
  let compiled: CompiledScript;
  try {
    compiled = compileRequestExpression(expr);
  } catch {
    return undefined;
  }
  try {
    const value = compiled.run(scriptScope(ctx).resolve);
    return value === undefined || value === null ? undefined : toScriptString(value);
  } catch {
    return undefined;
  }
}

export function hasRequestExpressions(text: string): boolean {
  return new RegExp(EXPRESSION.source).test(text);
}

/** Replaces every `${{…}}` in `text`; an expression without a value becomes `null`, as in Ranger. */
export function expandRequestExpressions(text: string, ctx: ConditionContext): string {
  if (!text.includes('${{')) return text;
  return text.replace(EXPRESSION, (_m, expr: string) => evaluateRequestExpression(expr, ctx) ?? 'null');
}
