import { createPolicyResourceMatcher } from './policyResourceMatcher.js';
import { createPolicyResourcesMatcher } from './policyResourcesMatcher.js';
import { hierarchies } from './hierarchy.js';
import type { ServiceDefLike } from './types.js';

const hive: ServiceDefLike = {
  resources: [
    { name: 'database', level: 1 },
    { name: 'table', level: 2, parent: 'database' },
    { name: 'udf', level: 2, parent: 'database' },
    { name: 'column', level: 3, parent: 'table' },
    { name: 'url', level: 1 },
  ],
  dataMaskDef: {
    resources: [
      { name: 'database', matcherOptions: { wildCard: 'false' } },
      { name: 'table', parent: 'database', matcherOptions: { wildCard: 'false' } },
      { name: 'column', parent: 'table', matcherOptions: { wildCard: 'false' } },
    ],
  },
};

const v = (...values: string[]) => ({ values });

describe('hierarchies', () => {
  test('root → leaf chains from parent links', () => {
    expect(hierarchies(hive).map((h) => h.map((d) => d.name).join('/'))).toEqual([
      'database/table/column',
      'database/udf',
      'url',
    ]);
    expect(hierarchies(hive, 1).map((h) => h.map((d) => d.name).join('/'))).toEqual(['database/table/column']);
  });
});

describe('createPolicyResourceMatcher', () => {
  test('match types along database/table/column', () => {
    const m = createPolicyResourceMatcher(hive, { database: v('sales'), table: v('*') });
    expect(m.getMatchType({ database: 'sales', table: 'orders' })).toBe('SELF');
    expect(m.getMatchType({ database: 'sales' })).toBe('SELF_AND_ALL_DESCENDANTS');
    expect(m.getMatchType({ database: 'sales', table: 'orders', column: 'id' })).toBe('ANCESTOR');
    expect(m.getMatchType({ database: 'hr', table: 'orders' })).toBe('NONE');
    expect(m.getMatchType({ database: 'sales', column: 'id' })).toBe('NONE'); // skips table
    expect(m.getMatchType({})).toBe('DESCENDANT'); // only an all-* policy covers everything
    const narrow = createPolicyResourceMatcher(hive, { database: v('sales'), table: v('orders') });
    expect(narrow.getMatchType({ database: 'sales' })).toBe('DESCENDANT');
    expect(narrow.isMatch({ database: 'sales' }, 'SELF')).toBe(false);
    expect(narrow.isMatch({ database: 'sales' }, 'SELF_OR_DESCENDANT')).toBe(true);
  });

  test('a database-only policy is an ancestor of its udfs and tables', () => {
    const m = createPolicyResourceMatcher(hive, { database: v('sales') });
    expect(m.getMatchType({ database: 'sales', udf: 'f' })).toBe('ANCESTOR');
    expect(m.getMatchType({ database: 'sales', table: 't' })).toBe('ANCESTOR');
    expect(m.getMatchType({ database: 'sales', bogus: 'x' })).toBe('NONE');
  });

  test('an empty policy matches only the empty request; a gapped policy matches nothing', () => {
    expect(createPolicyResourceMatcher(hive, {}).getMatchType({})).toBe('SELF');
    expect(createPolicyResourceMatcher(hive, {}).getMatchType({ database: 'a' })).toBe('NONE');
    expect(createPolicyResourceMatcher(hive, { database: v('a'), column: v('c') }).getMatchType({ database: 'a' })).toBe('NONE');
  });

  test('mask policies use the mask resource defs: * is literal there', () => {
    const m = createPolicyResourceMatcher(hive, { database: v('*'), table: v('t'), column: v('c') }, { policyType: 1 });
    expect(m.getMatchType({ database: 'sales', table: 't', column: 'c' })).toBe('NONE');
    expect(m.getMatchType({ database: '*', table: 't', column: 'c' })).toBe('NONE'); // "*" requests all values
    const access = createPolicyResourceMatcher(hive, { database: v('*'), table: v('t'), column: v('c') });
    expect(access.getMatchType({ database: 'sales', table: 't', column: 'c' })).toBe('SELF');
  });

  test('isCompleteMatch: same keys, each naming exactly the request value', () => {
    const m = createPolicyResourceMatcher(hive, { database: v('Sales'), table: v('orders') });
    expect(m.isCompleteMatch({ database: 'sales', table: 'ORDERS' })).toBe(true);
    expect(m.isCompleteMatch({ database: 'sales' })).toBe(false);
    expect(createPolicyResourceMatcher(hive, { database: v('s*') }).isCompleteMatch({ database: 'sales' })).toBe(false);
  });

  test('element scopes pass through to the level matchers', () => {
    const m = createPolicyResourceMatcher(hive, { database: v('sales_eu') });
    expect(m.getMatchType({ database: 'sales' })).toBe('NONE');
    expect(m.getMatchType({ database: 'sales' }, {}, { database: 'SELF_OR_PREFIX' })).toBe('SELF');
  });

  test('isDynamic and resourceNames', () => {
    const m = createPolicyResourceMatcher(hive, { database: v('u_{USER}'), table: v('*') });
    expect(m.isDynamic).toBe(true);
    expect(m.resourceNames).toEqual(['database', 'table']);
    expect(m.getMatchType({ database: 'u_ann', table: 't' }, { tokens: { USER: 'ann' } })).toBe('SELF');
  });
});

describe('createPolicyResourcesMatcher (additionalResources)', () => {
  test('the best match type over all maps; scopes are met by any map', () => {
    const m = createPolicyResourcesMatcher(hive, [{ database: v('a'), table: v('t1') }, { database: v('a'), table: v('*') }]);
    expect(m.getMatchType({ database: 'a' })).toBe('SELF_AND_ALL_DESCENDANTS');
    expect(m.isMatch({ database: 'a' }, 'DESCENDANT')).toBe(true);
    expect(m.getMatchType({ database: 'b' })).toBe('NONE');
    expect(m.isDynamic).toBe(false);
  });
});
