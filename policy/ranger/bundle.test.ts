/**
 * Bundles checked against their service def at load: every policy of the repo's own
 * bundles passes; a stub def gets Apache Ranger's def; what a def lacks is named per
 * policy in one error, each case with the same bundle passing without the fault.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeWithFixtures, readFixture } from '../../tests/conformance/harness.js';
import { checkPolicyBundle, PolicyBundleError } from './bundle.js';
import { PolicyEngine } from './engine.js';
import { parseServicePolicies, type ServicePolicies } from './model.js';
import { HIVE_SERVICE_DEF_JSON } from './serviceDefs/hive.js';
import { TAG_SERVICE_DEF_JSON } from './serviceDefs/tag.js';

type Json = Record<string, unknown>;
const ROOT = join(import.meta.dirname, '..', '..');
const readJson = (rel: string): Json => JSON.parse(readFileSync(join(ROOT, rel), 'utf8')) as Json;
const bundle = (json: Json): ServicePolicies => parseServicePolicies(json, 'test');
const demoHive = () => readJson('demo/ranger/lakehouse.json');
const demoPolaris = () => readJson('demo/polaris/polaris.json');

function refusal(json: Json): PolicyBundleError {
  try {
    checkPolicyBundle(bundle(json));
  } catch (e) {
    expect(e).toBeInstanceOf(PolicyBundleError);
    return e as PolicyBundleError;
  }
  throw new Error('the bundle was accepted');
}

describe("the repo's own policies pass", () => {
  test.each(['demo/ranger/lakehouse.json', 'demo/polaris/polaris.json'])('%s', (file) => {
    const checked = checkPolicyBundle(bundle(readJson(file)));
    expect(checked.replacedStubs).toEqual([]);
    expect(checked.policies.policies.length).toBeGreaterThan(0);
  });

  test("compose's Ranger Admin policies, under Apache Ranger's hive and polaris defs", () => {
    for (const [folder, type] of [
      ['compose/ranger/policies/lakehouse', 'hive'],
      ['compose/ranger/policies/polaris', 'polaris'],
    ] as const) {
      const dir = join(ROOT, folder);
      const policies = readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Json);
      expect(policies.length).toBeGreaterThan(0);
      const checked = checkPolicyBundle(bundle({ serviceName: type, serviceDef: { name: type }, policies }));
      expect(checked.replacedStubs).toEqual([type]);
    }
  });
});

describe('a stub service def', () => {
  test('{"name":"hive"} gets Apache Ranger\'s hive def, and the demo\'s policies decide as under the full def', () => {
    const full = demoHive();
    const checked = checkPolicyBundle(bundle({ ...full, serviceDef: { name: 'hive' } }));
    expect(checked.replacedStubs).toEqual(['hive']);
    expect(checked.policies.serviceDef.resources.map((r) => r.name)).toEqual(HIVE_SERVICE_DEF_JSON.resources.map((r) => r.name));

    const stubbed = new PolicyEngine(checked.policies);
    const control = new PolicyEngine(bundle(full));
    const req = (user: string, roles: string[], column?: string) => ({
      resource: { database: 'sales', table: 'orders', ...(column ? { column } : {}) },
      accessType: 'select',
      user,
      userGroups: new Set<string>(),
      userRoles: new Set(roles),
    });
    for (const [user, roles] of [
      ['alice', ['analyst']],
      ['bob', ['analyst', 'engineer']],
      ['carol', ['sqe_admin']],
      ['dave', []],
    ] as const) {
      expect(stubbed.isAccessAllowed(req(user, [...roles])).isAllowed).toBe(control.isAccessAllowed(req(user, [...roles])).isAllowed);
      expect(stubbed.evalDataMask(req(user, [...roles], 'ssn')).maskType).toBe(control.evalDataMask(req(user, [...roles], 'ssn')).maskType);
    }
    expect(stubbed.isAccessAllowed(req('alice', ['analyst'])).isAllowed).toBe(true);
    expect(stubbed.evalDataMask(req('alice', ['analyst'], 'ssn')).maskType).toBe('MASK_SHOW_LAST_4');
    expect(stubbed.evalRowFilter(req('erin', ['analyst'])).filterExpr).toBe("region = 'EU'");
  });

  test('{"name":"polaris"} gets the polaris def; a def naming a type lakegate has no copy of is refused', () => {
    const checked = checkPolicyBundle(bundle({ ...demoPolaris(), serviceDef: { name: 'polaris' } }));
    expect(checked.replacedStubs).toEqual(['polaris']);
    expect(checked.policies.serviceDef.resources.map((r) => r.name)).toEqual(['root', 'catalog', 'principal', 'namespace', 'table', 'policy']);

    const e = refusal({ ...demoHive(), serviceDef: { name: 'kafka' } });
    expect(e.message).toContain('serviceDef "kafka" names no resources');
    const none = refusal({ ...demoHive(), serviceDef: null });
    expect(none.message).toContain('serviceDef is missing or names no resources');
  });

  test('a stub tag def next to tag policies gets the tag def; a tag policy on an unknown resource type is refused', () => {
    const tagPolicy = { id: 40, name: 'pii-mask', policyType: 1, resources: { tag: { values: ['PII'] } } };
    const ok = checkPolicyBundle(bundle({ ...demoHive(), tagPolicies: { serviceDef: { name: 'tag' }, policies: [tagPolicy] } }));
    expect(ok.replacedStubs).toEqual(['tag']);
    expect(ok.policies.tagPolicies?.serviceDef?.resources.map((r) => r.name)).toEqual(['tag']);
    const e = refusal({ ...demoHive(), tagPolicies: { serviceDef: { name: 'tag' }, policies: [{ ...tagPolicy, resources: { label: { values: ['PII'] } } }] } });
    expect(e.problems).toEqual(['tag policy 40 "pii-mask": resource type "label" not in service def tag']);
  });
});

describe('what the def lacks, named per policy', () => {
  const withPolicy = (policy: Json): Json => ({ ...demoHive(), policies: [...(demoHive()['policies'] as Json[]), policy] });
  const access = { id: 90, name: 'p90', resources: { database: { values: ['sales'] }, table: { values: ['*'] } }, policyItems: [{ users: ['alice'], accesses: [{ type: 'select' }] }] };

  test('control: a well-formed extra policy passes', () => {
    expect(() => checkPolicyBundle(bundle(withPolicy(access)))).not.toThrow();
  });

  test('an unknown resource type', () => {
    const e = refusal(withPolicy({ ...access, resources: { ...access.resources, schema: { values: ['x'] } } }));
    expect(e.problems).toEqual(['policy 90 "p90": resource type "schema" not in service def hive']);
    expect(e.message).toMatch(/^policy bundle of service "lakehouse" refused: policy 90 "p90"/);
  });

  test('an unknown access type (markers and case-folded names pass)', () => {
    const e = refusal(withPolicy({ ...access, policyItems: [{ users: ['alice'], accesses: [{ type: 'SELECT' }, { type: '_all' }, { type: 'read-data' }] }] }));
    expect(e.problems).toEqual(['policy 90 "p90": access type "read-data" not in service def hive']);
  });

  test('an unknown mask type; a mask on a resource the dataMaskDef lacks', () => {
    const mask = {
      id: 91,
      name: 'm91',
      policyType: 1,
      resources: { database: { values: ['sales'] }, table: { values: ['orders'] }, column: { values: ['ssn'] } },
      dataMaskPolicyItems: [{ users: ['alice'], accesses: [{ type: 'select' }], dataMaskInfo: { dataMaskType: 'MASK_SHOW_LAST_4' } }],
    };
    expect(() => checkPolicyBundle(bundle(withPolicy(mask)))).not.toThrow();
    const e = refusal(withPolicy({ ...mask, dataMaskPolicyItems: [{ ...mask.dataMaskPolicyItems[0], dataMaskInfo: { dataMaskType: 'MASK_REDACT' } }] }));
    expect(e.problems).toEqual(['policy 91 "m91": mask type "MASK_REDACT" not in the dataMaskDef of service def hive']);
  });

  test('a row filter on a resource the rowFilterDef lacks', () => {
    const filter = {
      id: 92,
      name: 'f92',
      policyType: 2,
      resources: { database: { values: ['sales'] }, table: { values: ['orders'] } },
      rowFilterPolicyItems: [{ users: ['erin'], accesses: [{ type: 'select' }], rowFilterInfo: { filterExpr: "region = 'EU'" } }],
    };
    expect(() => checkPolicyBundle(bundle(withPolicy(filter)))).not.toThrow();
    const e = refusal(withPolicy({ ...filter, resources: { ...filter.resources, column: { values: ['region'] } } }));
    expect(e.problems).toEqual(['policy 92 "f92": resource type "column" not in the rowFilterDef of service def hive']);
  });

  test('every problem of every policy in one error, zone policies included', () => {
    const json = withPolicy({ ...access, resources: { db: { values: ['sales'] } }, policyItems: [{ users: ['a'], accesses: [{ type: 'query' }] }] });
    json['securityZones'] = { z1: { zoneName: 'z1', policies: [{ id: 93, name: 'zoned', resources: { path: { values: ['/'] } } }] } };
    const e = refusal(json);
    expect(e.problems).toEqual([
      'policy 90 "p90": resource type "db" not in service def hive',
      'policy 90 "p90": access type "query" not in service def hive',
      'policy 93 "zoned": resource type "path" not in service def hive',
    ]);
  });
});

describeWithFixtures("lakegate's copies of Ranger's service defs", () => {
  test.each([
    ['hive', HIVE_SERVICE_DEF_JSON],
    ['tag', TAG_SERVICE_DEF_JSON],
  ] as const)("%s: Ranger's ranger-servicedef file, verbatim", (type, copy) => {
    expect(JSON.parse(JSON.stringify(copy))).toEqual(readFixture(`service-defs/ranger-servicedef-${type}.json`));
  });
});
