import { AuditFilters, lenientJson, resourceFilterMatch } from './auditFilters.js';
import { prepareRequest } from './evalRequest.js';
import { parseServiceDef } from './model.js';
import type { AccessResult } from './request.js';

const def = parseServiceDef({ name: 'hdfs', resources: [{ name: 'path', matcher: 'org.apache.ranger.plugin.resourcematcher.RangerPathResourceMatcher', recursiveSupported: true }], accessTypes: [{ name: 'read' }] }, 't');

const result = (isAllowed: boolean, determined = true): AccessResult => ({
  isAllowed, isAccessDetermined: determined, isAudited: true, isAuditedDetermined: true, policyId: 1, policyPriority: 0, policyVersion: null, zoneName: null, reason: null,
});

function decide(filters: AuditFilters, path: string, opts: { user?: string; groups?: string[]; accessType?: string; action?: string; allowed?: boolean } = {}) {
  const ev = prepareRequest({ resource: { path }, accessType: opts.accessType ?? 'read', user: opts.user ?? 'u', userGroups: new Set(opts.groups ?? []) }, new Set(), opts.accessType ?? 'read', [], null);
  return filters.decide(result(opts.allowed ?? true), ev, opts.accessType ?? 'read', opts.action, resourceFilterMatch(ev, false));
}

test("Ranger's single-quoted JSON reads as JSON; quotes inside strings survive", () => {
  expect(lenientJson(`[{'a': 'it"s', "b": ['x']}]`)).toEqual([{ a: 'it"s', b: ['x'] }]);
});

test('first matching filter decides; none matching leaves the decision alone', () => {
  const f = new AuditFilters(def, `[ {'accessResult': 'DENIED', 'isAudited': true}, {'users': ['quiet'], 'isAudited': false},
    {'resources': {'path': {'values': ['/noisy'], 'isRecursive': true}}, 'isAudited': false} ]`);
  expect(decide(f, '/noisy/a', { allowed: false, user: 'quiet' })).toBe(true); // denials always audited (first filter)
  expect(decide(f, '/other', { user: 'quiet' })).toBe(false);
  expect(decide(f, '/noisy/a/b')).toBe(false);
  expect(decide(f, '/other')).toBeUndefined();
});

test('access types and actions are alternatives', () => {
  const f = new AuditFilters(def, `[{'actions': ['listStatus'], 'accessTypes': ['execute'], 'isAudited': false}]`);
  expect(decide(f, '/a', { action: 'listStatus' })).toBe(false);
  expect(decide(f, '/a', { accessType: 'execute' })).toBe(false);
  expect(decide(f, '/a', { action: 'open' })).toBeUndefined();
});

test('a filter list that does not parse is refused, not ignored', () => {
  expect(() => new AuditFilters(def, `[{'isAudited': 'maybe'}]`)).toThrow(/audit.filters/);
  expect(() => new AuditFilters(def, `[{`)).toThrow();
});
