import { createResourceMatcher } from './resourceMatcher.js';
import { replaceTokens } from './dynamicValue.js';

const PATH = 'org.apache.ranger.plugin.resourcematcher.RangerPathResourceMatcher';
const URL = 'org.apache.ranger.plugin.resourcematcher.RangerURLResourceMatcher';

describe('createResourceMatcher (default)', () => {
  test('equals / startsWith / endsWith / wildcard, case-insensitive by default', () => {
    const m = createResourceMatcher({ name: 'table' }, { values: ['Sales', 'tmp_*', '*_log', 'f?o*bar'] });
    expect(m.isMatch('SALES')).toBe(true);
    expect(m.isMatch('TMP_x')).toBe(true);
    expect(m.isMatch('app_LOG')).toBe(true);
    expect(m.isMatch('fxo--bar')).toBe(true);
    expect(m.isMatch('other')).toBe(false);
    expect(m.isMatch(['other', 'sales'])).toBe(true);
  });

  test('wildCard=false makes * and ? literal; ignoreCase=false compares exactly', () => {
    const m = createResourceMatcher({ name: 't', matcherOptions: { wildCard: 'false', ignoreCase: 'false' } }, { values: ['a*'] });
    expect(m.isMatch('a*')).toBe(true);
    expect(m.isMatch('ab')).toBe(false);
    expect(m.isMatch('A*')).toBe(false);
    expect(m.isMatchAny).toBe(false);
  });

  test('match-any: no values, or a value of only *', () => {
    expect(createResourceMatcher({ name: 't' }, { values: [] }).isMatchAny).toBe(true);
    expect(createResourceMatcher({ name: 't' }, { values: ['x', '**'] }).isMatchAny).toBe(true);
    expect(createResourceMatcher({ name: 't' }, undefined).isMatch(null)).toBe(true);
  });

  test('all values requested (null, "", "*") match only a match-any resource', () => {
    const some = createResourceMatcher({ name: 't' }, { values: ['a'] });
    for (const v of [null, undefined, '', '*']) expect(some.isMatch(v)).toBe(false);
    const any = createResourceMatcher({ name: 't' }, { values: ['*'] });
    for (const v of [null, '', '*']) expect(any.isMatch(v)).toBe(true);
  });

  test('isExcludes inverts, except for all values of a policy naming only some', () => {
    const ex = createResourceMatcher({ name: 't' }, { values: ['secret'], isExcludes: true });
    expect(ex.isMatch('secret')).toBe(false);
    expect(ex.isMatch('public')).toBe(true);
    expect(ex.isMatch(null)).toBe(false);
    const exAll = createResourceMatcher({ name: 't' }, { values: ['*'], isExcludes: true });
    expect(exAll.isMatch('x')).toBe(false);
    expect(exAll.isMatch(null)).toBe(false);
  });

  test('quotedCaseSensitive: a quoted request value compares case-sensitively', () => {
    const m = createResourceMatcher(
      { name: 't', matcherOptions: { quotedCaseSensitive: true, quoteChars: '"' } },
      { values: ['"Tbl'] },
    );
    expect(m.isMatch('"Tbl')).toBe(true);
    expect(m.isMatch('"tbl')).toBe(false);
    const unquoted = createResourceMatcher({ name: 't', matcherOptions: { quotedCaseSensitive: true } }, { values: ['Tbl'] });
    expect(unquoted.isMatch('TBL')).toBe(true); // unquoted requests stay case-insensitive
  });

  test('SELF_OR_PREFIX: the request may be the beginning of a policy value', () => {
    const m = createResourceMatcher({ name: 't' }, { values: ['sales_2024', 'x*y'] });
    expect(m.isMatch('sal', 'SELF_OR_PREFIX')).toBe(true);
    expect(m.isMatch('sal')).toBe(false);
    expect(m.isMatch('xab', 'SELF_OR_PREFIX')).toBe(true);
    expect(m.isMatch('', 'SELF_OR_PREFIX')).toBe(true);
    expect(m.isMatch('q', 'SELF_OR_PREFIX')).toBe(false);
  });

  test('isCompleteMatch: exactly one value naming exactly the request', () => {
    expect(createResourceMatcher({ name: 't' }, { values: ['A'] }).isCompleteMatch('a')).toBe(true);
    expect(createResourceMatcher({ name: 't' }, { values: ['a', 'b'] }).isCompleteMatch('a')).toBe(false);
    expect(createResourceMatcher({ name: 't' }, { values: ['*'] }).isCompleteMatch('*')).toBe(true);
    expect(createResourceMatcher({ name: 't' }, { values: ['a*'] }).isCompleteMatch('ab')).toBe(false);
  });
});

describe('tokens and expressions', () => {
  test('{USER} expands from the context; unknown tokens stay literal', () => {
    const m = createResourceMatcher({ name: 'db' }, { values: ['home_{USER}', '{OWNER}_*'] });
    expect(m.isDynamic).toBe(true);
    expect(m.isMatch('home_alice', 'SELF', { tokens: { USER: 'alice' } })).toBe(true);
    expect(m.isMatch('home_bob', 'SELF', { tokens: { USER: 'alice' } })).toBe(false);
    expect(m.isMatch('home_{user}', 'SELF', {})).toBe(true);
    expect(m.isMatch('carol_tmp', 'SELF', { tokens: { OWNER: 'carol' } })).toBe(true);
  });

  test('escape before a delimiter or itself yields the char; before others it is kept', () => {
    const syntax = { start: '{', end: '}', escape: '\\', prefix: '' };
    expect(replaceTokens('a\\{USER}', syntax, { USER: 'x' })).toBe('a{USER}');
    expect(replaceTokens('a\\\\{USER}', syntax, { USER: 'x' })).toBe('a\\x');
    expect(replaceTokens('a\\w{USER}', syntax, { USER: 'x' })).toBe('a\\wx');
    expect(replaceTokens('{USER', syntax, { USER: 'x' })).toBe('{USER');
    expect(replaceTokens('{p:USER}{USER}', { ...syntax, prefix: 'p:' }, { USER: 'x' })).toBe('x{USER}');
  });

  test('${{expr}} resolves through the context; unresolved it matches nothing', () => {
    const m = createResourceMatcher({ name: 'db' }, { values: ['dept_${{USER.dept}}'] });
    expect(m.isDynamic).toBe(true);
    expect(m.isMatch('dept_eng', 'SELF', { resolveExpression: (e) => (e === 'USER.dept' ? 'eng' : undefined) })).toBe(true);
    expect(m.isMatch('dept_${{USER.dept}}', 'SELF', {})).toBe(false);
    expect(m.isMatch('dept_', 'SELF', { resolveExpression: () => undefined })).toBe(false);
  });

  test('replaceTokens=false leaves values static', () => {
    const m = createResourceMatcher({ name: 'db', matcherOptions: { replaceTokens: 'false' } }, { values: ['{USER}'] });
    expect(m.isDynamic).toBe(false);
    expect(m.isMatch('{user}', 'SELF', { tokens: { USER: 'x' } })).toBe(true);
  });
});

describe('path and URL matchers', () => {
  const path = (values: string[], isRecursive: boolean, opts = {}) =>
    createResourceMatcher({ name: 'path', matcher: PATH, matcherOptions: opts }, { values, isRecursive });

  test('recursive: the path itself (trailing separator ignored) or anything below', () => {
    const m = path(['/data/sales'], true);
    expect(m.isMatch('/data/sales')).toBe(true);
    expect(m.isMatch('/data/sales/2024/q1')).toBe(true);
    expect(m.isMatch('/data/salesX')).toBe(false);
    expect(path(['/home/'], true).isMatch('/home/')).toBe(true);
    expect(path(['/home/'], true).isMatch('/home')).toBe(false);
  });

  test('recursive with wildcards grows the path element by element', () => {
    const m = path(['/a/*/c'], true);
    expect(m.isMatch('/a/b/c')).toBe(true);
    expect(m.isMatch('/a/b/c/d')).toBe(true);
    expect(m.isMatch('/x/b/c')).toBe(false);
  });

  test('SELF_OR_CHILD: the request is the parent directory of a policy path', () => {
    const m = path(['/a/b/c'], false);
    expect(m.isMatch('/a/b', 'SELF_OR_CHILD')).toBe(true);
    expect(m.isMatch('/a/b/', 'SELF_OR_CHILD')).toBe(true);
    expect(m.isMatch('/a', 'SELF_OR_CHILD')).toBe(false);
    expect(createResourceMatcher({ name: 't' }, { values: ['a/b'] }).isMatch('a', 'SELF_OR_CHILD')).toBe(false);
  });

  test('pathSeparatorChar changes the level separator', () => {
    const m = path(['root.default'], true, { pathSeparatorChar: '.' });
    expect(m.isMatch('root.default.team')).toBe(true);
    expect(m.isMatch('root.defaultx')).toBe(false);
  });

  test('URL recursive wildcard splits off scheme://', () => {
    const m = createResourceMatcher({ name: 'url', matcher: URL }, { values: ['s3a://bucket/dir/*'], isRecursive: true });
    expect(m.isMatch('s3a://bucket/dir/x/y')).toBe(true);
    expect(m.isMatch('s3a://other/dir/x')).toBe(false);
    expect(m.isMatch('/bucket/dir/x')).toBe(false);
  });
});
