import { ACCESS_ALLOWED, ACCESS_CONDITIONAL, ACCESS_DENIED, getResourceACLs } from './acls.js';
import { PolicyEngine } from './engine.js';
import { parseServicePolicies } from './model.js';

const serviceDef = {
  name: 'hive',
  resources: [
    { name: 'database', level: 1 },
    { name: 'table', level: 2, parent: 'database' },
  ],
  accessTypes: [{ name: 'select' }, { name: 'update' }],
  policyConditions: [{ name: 'ip-range', evaluator: 'org.apache.ranger.plugin.conditionevaluator.RangerIpMatcher' }],
  rowFilterDef: { resources: [{ name: 'database' }, { name: 'table' }] },
};

const item = (over: Record<string, unknown>) => ({ accesses: [{ type: 'select', isAllowed: true }], users: [], groups: [], roles: [], ...over });

function engine(policies: unknown[]): PolicyEngine {
  return new PolicyEngine(parseServicePolicies({ serviceName: 'svc', serviceDef, policies }, 'test'));
}

const onTable = { database: { values: ['db'] }, table: { values: ['t'] } };
const req = { resource: { database: 'db', table: 't' }, accessType: '_any', user: '', userGroups: new Set<string>() };

describe('getResourceACLs', () => {
  test('allow and deny items per user, group and role, with the deciding policy', () => {
    const acls = getResourceACLs(
      engine([
        { id: 1, name: 'p1', resources: onTable, policyItems: [item({ users: ['alice'], roles: ['analyst'] })], denyPolicyItems: [item({ groups: ['temps'] })] },
      ]),
      req,
    );
    expect(acls.userACLs.get('alice')?.get('select')).toEqual({ result: ACCESS_ALLOWED, isFinal: true, policyId: 1 });
    expect(acls.roleACLs.get('analyst')?.get('select')?.result).toBe(ACCESS_ALLOWED);
    expect(acls.groupACLs.get('temps')?.get('select')).toEqual({ result: ACCESS_DENIED, isFinal: true, policyId: 1 });
  });

  test('an item condition or a policy-level condition makes the grant conditional', () => {
    const cond = [{ type: 'ip-range', values: ['10.*'] }];
    const acls = getResourceACLs(
      engine([
        { id: 1, name: 'item-cond', resources: onTable, policyItems: [item({ users: ['alice'], conditions: cond })] },
        { id: 2, name: 'policy-cond', resources: onTable, conditions: cond, policyItems: [item({ users: ['bob'] })] },
      ]),
      req,
    );
    expect(acls.userACLs.get('alice')?.get('select')?.result).toBe(ACCESS_CONDITIONAL);
    expect(acls.userACLs.get('bob')?.get('select')?.result).toBe(ACCESS_CONDITIONAL);
  });

  test('a deny from an earlier policy stays final; a later allow cannot undo it', () => {
    const acls = getResourceACLs(
      engine([
        { id: 1, name: 'a-deny', resources: onTable, denyPolicyItems: [item({ users: ['alice'] })] },
        { id: 2, name: 'b-allow', resources: onTable, policyItems: [item({ users: ['alice'] })] },
      ]),
      req,
    );
    expect(acls.userACLs.get('alice')?.get('select')?.result).toBe(ACCESS_DENIED);
  });

  test('a policy whose resource needs a macro matches conditionally', () => {
    const acls = getResourceACLs(
      engine([{ id: 7, name: 'own-db', resources: { database: { values: ['user_{USER}'] }, table: { values: ['*'] } }, policyItems: [item({ groups: ['public'] })] }]),
      { ...req, resource: { database: 'user_alice', table: 't' } },
    );
    expect(acls.groupACLs.get('public')?.get('select')).toEqual({ result: ACCESS_CONDITIONAL, isFinal: true, policyId: 7 });
  });

  test('row filters are listed only for a whole table, masks not at all without a mask def', () => {
    const policies = [{ id: 3, name: 'rf', policyType: 2, resources: onTable, rowFilterPolicyItems: [{ ...item({ users: ['{USER}'] }), rowFilterInfo: { filterExpr: 'x = 1' } }] }];
    const acls = getResourceACLs(engine(policies), req);
    expect(acls.rowFilters).toHaveLength(1);
    expect([...acls.rowFilters[0]!.groups]).toEqual(['public']);
    expect(acls.rowFilters[0]!.filterInfo.filterExpr).toBe('x = 1');
    expect(getResourceACLs(engine(policies), { ...req, resource: { database: 'db' } }).rowFilters).toEqual([]);
    expect(acls.dataMasks).toEqual([]);
  });
});
