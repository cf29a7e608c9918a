import type { ConditionContext, ConditionDef } from './context.js';
import { createConditionEvaluator, UnsupportedConditionError } from './evaluators.js';
import { effectiveClientIp } from './ipMatcher.js';

const PKG = 'org.apache.ranger.plugin.conditionevaluator.';

function context(over: Partial<ConditionContext> = {}): ConditionContext {
  return {
    user: 'u',
    userGroups: new Set(),
    userRoles: new Set(),
    accessTime: new Date('2024-05-01T12:00:00Z'),
    accessType: 'select',
    resource: { elements: {} },
    context: {},
    ...over,
  };
}

const build = (evaluator: string, values: string[], evaluatorOptions?: Record<string, string>, options = {}) =>
  createConditionEvaluator({ name: 'c', evaluator: PKG + evaluator, evaluatorOptions }, { type: 'c', values }, options);

describe('ip-range', () => {
  const ip = (clientIPAddress: string | undefined) => context({ clientIPAddress });

  test('trailing wildcards are a prefix; inner wildcards are literal (as in Ranger)', () => {
    const t = build('RangerIpMatcher', ['10.1.*', '1.*.1.*']);
    expect(t(ip('10.1.200.3'))).toBe(true);
    expect(t(ip('10.10.0.1'))).toBe(false);
    expect(t(ip('1.2.1.5'))).toBe(false);
    expect(t(ip('1.*.1.5'))).toBe(true);
  });

  test('exact, IPv6 case, all-wildcards, missing address', () => {
    expect(build('RangerIpMatcher', ['192.168.0.1'])(ip('192.168.0.1'))).toBe(true);
    expect(build('RangerIpMatcher', ['192.168.0.1'])(ip('192.168.0.10'))).toBe(false);
    expect(build('RangerIpMatcher', ['FE80:*'])(ip('fe80::1'))).toBe(true);
    expect(build('RangerIpMatcher', ['*.*.*'])(ip('8.8.8.8'))).toBe(true);
    expect(build('RangerIpMatcher', [])(ip('8.8.8.8'))).toBe(true);
    expect(build('RangerIpMatcher', ['10.*'])(ip(undefined))).toBe(true);
  });

  test('CIDR blocks (lakegate extension)', () => {
    const t = build('RangerIpMatcher', ['10.0.0.0/8', '2001:db8::/32']);
    expect(t(ip('10.255.1.1'))).toBe(true);
    expect(t(ip('11.0.0.1'))).toBe(false);
    expect(t(ip('2001:db8:ffff::1'))).toBe(true);
    expect(t(ip('2001:db9::1'))).toBe(false);
  });

  test('forwarded address used only behind a trusted proxy', () => {
    const req = context({ remoteIPAddress: '128.101.101.101', forwardedAddresses: ['10.10.10.10', '127.0.0.1'] });
    const trusted = { forwardedAddressesTrusted: true, trustedProxies: ['255.255.255.255', ' 128.101.101.101'] };
    expect(effectiveClientIp(req, trusted)).toBe('10.10.10.10');
    expect(effectiveClientIp({ ...req, remoteIPAddress: '1.1.1.1' }, trusted)).toBe('1.1.1.1');
    expect(effectiveClientIp(req, { forwardedAddressesTrusted: false, trustedProxies: [] })).toBe('128.101.101.101');
    expect(effectiveClientIp(req, { forwardedAddressesTrusted: true, trustedProxies: [] })).toBe('10.10.10.10');
    expect(build('RangerIpMatcher', ['10.*'], undefined, trusted)(req)).toBe(true);
  });
});

describe('context attribute conditions', () => {
  test('simple matcher: wildcard, case-sensitive; an absent or blank attribute fails (Ranger: "DENY … no country")', () => {
    const t = build('RangerSimpleMatcher', ['US', 'C?'], { CONTEXT_NAME: 'country' });
    expect(t(context({ context: { country: 'US' } }))).toBe(true);
    expect(t(context({ context: { country: 'CA' } }))).toBe(true);
    expect(t(context({ context: { country: 'us' } }))).toBe(false);
    expect(t(context({ context: { country: 'UK' } }))).toBe(false);
    expect(t(context())).toBe(false);
    expect(t(context({ context: { country: '  ' } }))).toBe(false);
  });

  test('value in / not in', () => {
    const inList = build('RangerContextAttributeValueInCondition', ['a', 'b'], { attributeName: 'k' });
    const notIn = build('RangerContextAttributeValueNotInCondition', ['a', 'b'], { attributeName: 'k' });
    expect([inList(context({ context: { k: 'a' } })), inList(context({ context: { k: 'z' } })), inList(context())]).toEqual([true, false, true]);
    expect([notIn(context({ context: { k: 'a' } })), notIn(context({ context: { k: 'z' } })), notIn(context())]).toEqual([false, true, true]);
  });

  test('cluster name', () => {
    const t = build('RangerAccessedFromClusterCondition', ['prod']);
    expect([t(context({ clusterName: 'prod' })), t(context({ clusterName: 'dev' })), t(context())]).toEqual([true, false, false]);
  });
});

describe('hive accessed-together', () => {
  const rr = (...cols: string[]) =>
    JSON.stringify({ requestedResources: cols.map((column) => ({ elements: { database: 'default', table: 'testTable', column } })) });

  test('two requested resources matching the listed ones', () => {
    const together = build('RangerHiveResourcesAccessedTogetherCondition', ['default.testTable.col1', 'default.testTable.name']);
    expect(together(context({ context: { REQUESTED_RESOURCES: rr('col1', 'name') } }))).toBe(true);
    expect(together(context({ context: { REQUESTED_RESOURCES: rr('col1', 'col2') } }))).toBe(false);
    expect(together(context({ context: { REQUESTED_RESOURCES: rr('col1') } }))).toBe(false);
    expect(together(context())).toBe(false);
  });

  test('a wildcard value matched by two resources; not-accessed-together is the complement', () => {
    const together = build('RangerHiveResourcesAccessedTogetherCondition', ['default.testtable.col*']);
    const apart = build('RangerHiveResourcesNotAccessedTogetherCondition', ['default.testTable.col*']);
    const both = context({ context: { REQUESTED_RESOURCES: [{ database: 'default', table: 'testTable', column: 'col1' }, { database: 'default', table: 'testTable', column: 'col2' }] } });
    expect(together(both)).toBe(true);
    expect(apart(both)).toBe(false);
    expect(apart(context())).toBe(true);
  });
});

describe('tag presence', () => {
  const tags = (...types: string[]) => context({ tags: types.map((type) => ({ type, attributes: {} })) });

  test('all / any / none', () => {
    const all = build('RangerTagsAllPresentConditionEvaluator', ['PCI', ' HIPPA']);
    const any = build('RangerAnyOfExpectedTagsPresentConditionEvaluator', ['PCI', 'HIPPA']);
    const none = build('RangerNoneOfExpectedTagsPresentConditionEvaluator', ['PCI', 'HIPPA']);
    expect([all(tags('PCI', 'HIPPA', 'PII')), all(tags('PCI')), all(tags())]).toEqual([true, false, false]);
    expect([any(tags('PII', 'HIPPA')), any(tags('PII')), any(tags())]).toEqual([true, false, false]);
    expect([none(tags('PII')), none(tags('PCI')), none(tags())]).toEqual([true, false, true]);
  });
});

describe('validity-schedule condition', () => {
  test('values are schedules as JSON', () => {
    const t = build('RangerValidityScheduleConditionEvaluator', [JSON.stringify({ startTime: '2024/01/01 00:00:00', endTime: '2024/12/31 23:59:59' })]);
    expect(t(context({ accessTime: new Date('2024-06-01T00:00:00Z') }))).toBe(true);
    expect(t(context({ accessTime: new Date('2025-01-01T00:00:00Z') }))).toBe(false);
  });
});

describe('dispatch', () => {
  test('unknown evaluator class is refused at build time', () => {
    const def: ConditionDef = { name: 'x', evaluator: 'com.example.MyCondition' };
    expect(() => createConditionEvaluator(def, { type: 'x', values: ['a'] })).toThrow(UnsupportedConditionError);
  });
});
