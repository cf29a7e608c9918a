import { DecisionCache, requestKey } from './decisionCache.js';
import { PolicyEngine } from './engine.js';
import { parseServicePolicies } from './model.js';
import type { AccessRequest } from './request.js';

const def = {
  name: 'hive',
  resources: [
    { name: 'database', level: 1 },
    { name: 'table', level: 2, parent: 'database' },
  ],
  accessTypes: [{ name: 'select' }],
  policyConditions: [{ name: 'ip-range', evaluator: 'org.apache.ranger.plugin.conditionevaluator.RangerIpMatcher' }],
};
const policy = (id: number, table: string, user: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `p${id}`,
  resources: { database: { values: ['db'] }, table: { values: [table] } },
  policyItems: [{ accesses: [{ type: 'select' }], users: [user], ...extra }],
});
const req = (user: string, table: string, over: Partial<AccessRequest> = {}): AccessRequest => ({
  resource: { database: 'db', table },
  accessType: 'select',
  user,
  userGroups: new Set(),
  ...over,
});

test('keys: different users, tables, groups or roles never share a key; context-bearing requests have none', () => {
  const keys = [
    requestKey(req('alice', 't1')),
    requestKey(req('bob', 't1')),
    requestKey(req('alice', 't2')),
    requestKey(req('alice', 't1', { userGroups: new Set(['g']) })),
    requestKey(req('alice', 't1', { userRoles: new Set(['r']) })),
    requestKey(req('alice', 't1', { accessType: 'update' })),
    requestKey(req('alice', 't1', { resource: { database: 'db', table: 't1', column: 'c' } })),
  ];
  expect(new Set(keys).size).toBe(keys.length);
  expect(requestKey(req('alice', 't1', { context: { country: 'US' } }))).toBeNull();
  expect(requestKey(req('alice', 't1', { remoteIPAddress: '10.0.0.1' }))).toBeNull();
  expect(requestKey(req('alice', 't1', { tags: [] }))).toBeNull();
  expect(requestKey(req('alice', 't1', { accessTime: new Date() }))).toBeNull();
});

test('LRU: bounded, and a hit keeps an entry alive', () => {
  const c = new DecisionCache<number>(2);
  c.set('a', 1);
  c.set('b', 2);
  expect(c.get('a')).toBe(1);
  c.set('c', 3);
  expect(c.get('b')).toBeUndefined();
  expect(c.get('a')).toBe(1);
  expect(c.size).toBe(2);
});

test('cached answers equal uncached ones, and a caller changing its copy changes nothing', () => {
  const bundle = parseServicePolicies({ serviceDef: def, policies: [policy(1, 't1', 'alice'), policy(2, 't2', 'bob')] }, 't');
  const cached = new PolicyEngine(bundle);
  const plain = new PolicyEngine(bundle, { decisionCacheSize: 0 });
  for (const r of [req('alice', 't1'), req('bob', 't1'), req('bob', 't2'), req('alice', 't2')]) {
    const first = cached.isAccessAllowed(r);
    expect(first).toEqual(plain.isAccessAllowed(r));
    first.isAllowed = !first.isAllowed;
    expect(cached.isAccessAllowed(r)).toEqual(plain.isAccessAllowed(r));
  }
});

test('an engine with conditions never caches: the same request can get two answers', () => {
  const bundle = parseServicePolicies(
    { serviceDef: def, policies: [policy(1, 't1', 'alice', { conditions: [{ type: 'ip-range', values: ['10.0.0.*'] }] })] },
    't',
  );
  const e = new PolicyEngine(bundle);
  expect(e.isAccessAllowed(req('alice', 't1', { remoteIPAddress: '10.0.0.5' })).isAllowed).toBe(true);
  expect(e.isAccessAllowed(req('alice', 't1', { remoteIPAddress: '192.168.0.5' })).isAllowed).toBe(false);
  expect((e as unknown as { caches: unknown }).caches).toBeNull();
});
