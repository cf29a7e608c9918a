import type { AttachedTag, ConditionContext } from './context.js';
import { createConditionEvaluator } from './evaluators.js';
import { evaluateRequestExpression, expandRequestExpressions } from './requestExpression.js';
import { compileConditionScript } from './scriptCondition.js';
import { UnsupportedScriptError } from './scriptInterpreter.js';
import { ScriptRuntimeError } from './scriptValues.js';

const PII: AttachedTag = { type: 'PII', attributes: { attr1: 'PII_value', expiry: '2099/12/31' }, matchType: 'SELF' };
const PCI: AttachedTag = { type: 'PCI', attributes: { attr1: 'PCI_value', score: '2' }, matchType: 'ANCESTOR' };

function context(over: Partial<ConditionContext> = {}): ConditionContext {
  const userAttrs: Record<string, Record<string, string>> = { 'test-user': { state: 'CA' } };
  const groupAttrs: Record<string, Record<string, string>> = {
    'test-group1': { dept: 'ENGG', site: '10' },
    'test-group2': { dept: 'PROD', site: '20' },
  };
  return {
    user: 'test-user',
    userGroups: new Set(['test-group2', 'test-group1']),
    userRoles: new Set(['test-role1', 'test-role2']),
    accessTime: new Date('2024-05-01T12:00:00Z'),
    accessType: 'select',
    action: 'query',
    resource: { elements: { database: 'db1', table: 'tbl1', column: 'col1' }, ownerUser: 'testUser' },
    context: { country: 'US' },
    tags: [PII, PCI],
    currentTag: PII,
    userAttributes: (u) => userAttrs[u],
    groupAttributes: (g) => groupAttrs[g],
    ...over,
  };
}

const run = (script: string, ctx: ConditionContext = context()): boolean => compileConditionScript(script)(ctx);

describe('script conditions: the forms Ranger fixtures use', () => {
  test('a bare boolean expression decides', () => {
    expect(run("TAG.attr1 == 'PII_value'")).toBe(true);
    expect(run("TAG.attr1 == 'PCI_value'")).toBe(false);
  });

  test('if (…) ctx.result = true; — false when the branch is not taken', () => {
    expect(run("if ( ctx.isAccessedBefore('expiry') ) ctx.result = true;")).toBe(true);
    expect(run("if ( ctx.isAccessedBefore('expiry') ) ctx.result = true;", context({ accessTime: new Date('2100-01-01T00:00:00Z') }))).toBe(false);
  });

  test('tag dates: before/after the attribute day, missing attribute counts as expired', () => {
    const tag: AttachedTag = { type: 'EXPIRES_ON', attributes: { expiry_date: '2024/05/01' } };
    const ctxAt = (iso: string): ConditionContext => context({ tags: [tag], currentTag: tag, accessTime: new Date(iso) });
    // 2024/05/01 reads as 2024-05-01T00:00:00Z; the boundary instant is both "after" and "before".
    expect(run("ctx.isAccessedAfter('expiry_date')", ctxAt('2024-04-30T23:59:59Z'))).toBe(false);
    expect(run("ctx.isAccessedAfter('expiry_date')", ctxAt('2024-05-01T00:00:00Z'))).toBe(true);
    expect(run("ctx.isAccessedBefore('expiry_date')", ctxAt('2024-05-01T00:00:00Z'))).toBe(true);
    expect(run("ctx.isAccessedBefore('expiry_date')", ctxAt('2024-05-01T00:00:01Z'))).toBe(false);
    expect(run("ctx.isAccessedAfter('no_such_attr')", ctxAt('2024-04-30T00:00:00Z'))).toBe(true);
    expect(run("ctx.isAccessedAfter('EXPIRES_ON', 'expiry_date')", ctxAt('2024-06-01T00:00:00Z'))).toBe(true);
  });

  test('tagAttr.get compares a string attribute numerically against a number', () => {
    const ctx = context({ currentTag: PCI });
    expect(run("if ( tagAttr.get('score') < 2 ) ctx.result = true;", ctx)).toBe(false); // '2' < 2
    expect(run("if ( tagAttr.get('score') < 3 ) ctx.result = true;", ctx)).toBe(true);
    expect(run('tag.score > 1.5', ctx)).toBe(true);
    expect(run("tagAttr.score == '2'", ctx)).toBe(true);
  });

  test('roles, groups and the macros', () => {
    expect(run("IS_IN_ROLE('test-role1') && IS_IN_ROLE('test-role2') ")).toBe(true);
    expect(run("IS_IN_ROLE('test-role1') && IS_IN_ROLE('hr-admin')")).toBe(false);
    expect(run("IS_IN_GROUP('test-group1') && !IS_IN_GROUP('other')")).toBe(true);
    expect(run('IS_NOT_IN_ANY_ROLE', context({ userRoles: new Set() }))).toBe(true);
    expect(run("HAS_TAG('PCI') && HAS_ANY_TAG")).toBe(true);
  });

  test('var, !!, != null and getRequestContextAttribute (the geo scripts)', () => {
    const script =
      "var a = ctx.getRequestContextAttribute('A'); var b = ctx.getRequestContextAttribute('B');ctx.result = (a != null && b != null && (a == b));";
    expect(run(script, context({ context: { A: 'US', B: 'US' } }))).toBe(true);
    expect(run(script, context({ context: { A: 'US', B: 'CA' } }))).toBe(false);
    expect(run(script, context({ context: { A: 'US' } }))).toBe(false);
    expect(run("var c = ctx.getRequestContextAttribute('country'); ctx.result = !!c;")).toBe(true);
    expect(run("var c = ctx.getRequestContextAttribute('nope'); ctx.result = !!c;")).toBe(false);
  });

  test('user and group attributes', () => {
    expect(run("USER.state == 'CA' && USER._name == 'test-user'")).toBe(true);
    expect(run("UG['test-group1'].dept == 'ENGG' && UGA.mVal.dept.indexOf('PROD') != -1")).toBe(true);
    expect(run('USER.level > 5', context({ userAttributes: () => ({ level: '7' }) }))).toBe(true);
    expect(run('USER.level > 5', context({ userAttributes: () => ({ level: '3' }) }))).toBe(false);
  });

  test('a non-boolean completion falls back to ctx.result', () => {
    expect(run("ctx.result = true; 'done'")).toBe(true);
    expect(run("'done'")).toBe(false);
  });

  test('unsupported syntax or names are refused at build time', () => {
    expect(() => compileConditionScript('while (true) {}')).toThrow(UnsupportedScriptError);
    expect(() => compileConditionScript('function f() { return true; }')).toThrow(UnsupportedScriptError);
    expect(() => compileConditionScript('test')).toThrow(UnsupportedScriptError);
    expect(() => compileConditionScript("process.exit(1)")).toThrow(UnsupportedScriptError);
    expect(() => compileConditionScript('USER.level = 9')).toThrow(UnsupportedScriptError);
    expect(() => compileConditionScript("ctx['constructor']")).not.toThrow();
    expect(run("ctx['constructor'] == null && USER['__proto__'] == null")).toBe(true);
  });

  test('a runtime failure throws a typed error (the caller fails it closed)', () => {
    expect(() => run('tag.score > 1', context({ currentTag: undefined }))).toThrow(ScriptRuntimeError);
  });
});

describe('request expressions', () => {
  const ctx = context();
  test.each([
    ['USER._name', 'test-user'],
    ["USER['state']", 'CA'],
    ["UGNAMES.indexOf('test-group1') != -1", 'true'],
    ["UG['test-group2'].site", '20'],
    ['UGA.sVal.dept', 'ENGG'], // first group in sorted order
    ['J(UGA.mVal.dept)', '["ENGG","PROD"]'],
    ["URNAMES.indexOf('test-role3') == -1", 'true'],
    ['REQ.accessType', 'select'],
    ['RES._ownerUser', 'testUser'],
    ['RES.table', 'tbl1'],
    ['TAG._type', 'PII'],
    ['Object.keys(TAGS).length', '2'],
    ['TAGS.PCI.attr1', 'PCI_value'],
    ['TAGNAMES.length', '2'],
  ])('%s', (expr, expected) => {
    expect(evaluateRequestExpression(expr, ctx)).toBe(expected);
  });

  test('no value → undefined; expansion writes null as Ranger does', () => {
    expect(evaluateRequestExpression("UG['test-group3']", ctx)).toBeUndefined();
    expect(evaluateRequestExpression('no such thing', ctx)).toBeUndefined();
    expect(expandRequestExpressions("state == '${{USER.state}}' AND dept == '${{UGA.sVal.dept}}'", ctx)).toBe("state == 'CA' AND dept == 'ENGG'");
    expect(expandRequestExpressions('s3://b/${{USER._name}}/${{USER.zip}}/x', ctx)).toBe('s3://b/test-user/null/x');
  });
});

describe('script condition evaluators', () => {
  const scriptDef = { name: 'expression', evaluator: 'org.apache.ranger.plugin.conditionevaluator.RangerScriptConditionEvaluator' };
  const templateDef = {
    name: 'enforce-expiry',
    evaluator: 'org.apache.ranger.plugin.conditionevaluator.RangerScriptTemplateConditionEvaluator',
    evaluatorOptions: { scriptTemplate: "ctx.isAccessedAfter('expiry_date');" },
  };
  const expired: AttachedTag = { type: 'EXPIRES_ON', attributes: { expiry_date: '2015/08/10' } };
  const ctx = context({ tags: [expired], currentTag: expired });

  test('blank script passes; first value is the script', () => {
    expect(createConditionEvaluator(scriptDef, { type: 'expression', values: ['  '] })(ctx)).toBe(true);
    expect(createConditionEvaluator(scriptDef, { type: 'expression', values: ['false', 'true'] })(ctx)).toBe(false);
  });

  test('template: yes runs it, no inverts it', () => {
    expect(createConditionEvaluator(templateDef, { type: 'enforce-expiry', values: ['yes'] })(ctx)).toBe(true);
    expect(createConditionEvaluator(templateDef, { type: 'enforce-expiry', values: ['No'] })(ctx)).toBe(false);
    expect(createConditionEvaluator(templateDef, { type: 'enforce-expiry', values: [] })(ctx)).toBe(true);
  });
});
