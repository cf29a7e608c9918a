import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { conformanceDir, fixtureTest, readFixture } from '../../tests/conformance/harness.js';
import {
  parsePolicy,
  parseRangerRoles,
  parseServiceDef,
  parseServicePolicies,
  parseServiceTags,
  PolicyModelError,
} from './model.js';

const withFixtures = fixtureTest();

describe('defaults a plugin relies on', () => {
  test('absent flags and collections take Ranger defaults', () => {
    const p = parsePolicy({ id: 1, name: 'p', resources: { database: { values: ['db'] } }, policyItems: [{ accesses: [{ type: 'select' }], users: ['u'] }] }, 't');
    expect(p.isEnabled).toBe(true);
    expect(p.isAuditEnabled).toBe(true);
    expect(p.policyType).toBe(0);
    expect(p.policyPriority).toBe(0);
    expect(p.isDenyAllElse).toBe(false);
    expect(p.resources.database).toEqual({ values: ['db'], isExcludes: false, isRecursive: false });
    expect(p.policyItems[0]!.accesses[0]!.isAllowed).toBe(true);
    expect(p.policyItems[0]!.groups).toEqual([]);
    expect(p.denyPolicyItems).toEqual([]);
  });

  test('Gson nulls are read as absent', () => {
    const p = parsePolicy({ name: 'p', policyItems: null, policyType: null, resources: { t: { values: null, isExcludes: null } } }, 't');
    expect(p.policyItems).toEqual([]);
    expect(p.policyType).toBe(0);
    expect(p.resources.t!.values).toEqual([]);
  });

  test('matcher options written as strings or booleans both become strings', () => {
    const d = parseServiceDef({ name: 'hive', resources: [{ name: 'db', matcherOptions: { wildCard: false, ignoreCase: 'true' } }] }, 't');
    expect(d.resources[0]!.matcherOptions).toEqual({ wildCard: 'false', ignoreCase: 'true' });
  });
});

describe('malformed input is refused whole, naming the JSON path', () => {
  test('a string where a list of values belongs', () => {
    expect(() => parseServicePolicies({ serviceName: 's', policies: [{ name: 'ok' }, { name: 'bad', resources: { database: { values: 'db' } } }] }, 'admin')).toThrow(
      /invalid ServicePolicies from admin at \$\.policies\[1\]\.resources\.database\.values/,
    );
  });
  test('an unknown policy type', () => {
    try {
      parseServicePolicies({ policies: [{ name: 'x', policyType: 7 }] }, 'file');
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(PolicyModelError);
      expect((e as PolicyModelError).path).toBe('$.policies[0].policyType');
    }
  });
  test('a tag without a type, a role without a name', () => {
    expect(() => parseServiceTags({ tags: { '1': { id: 1 } } }, 'x')).toThrow(/\$\.tags\.1\.type/);
    expect(() => parseRangerRoles({ rangerRoles: [{ users: [] }] }, 'x')).toThrow(/\$\.rangerRoles\[0\]\.name/);
  });
  test('not an object at all', () => {
    expect(() => parseServicePolicies('[]', 'x')).toThrow(/at \$:/);
  });
});

describe('every Ranger and Polaris fixture parses', () => {
  withFixtures('service definitions', () => {
    for (const f of readdirSync(join(conformanceDir(), 'service-defs'))) {
      const d = parseServiceDef(readFixture(`service-defs/${f}`), f);
      expect(d.resources.length).toBeGreaterThan(0);
      if (d.name !== 'tag') expect(d.accessTypes.length).toBeGreaterThan(0);
    }
  });

  withFixtures('policy-engine test files: serviceDef, policies, tag policies, zones', () => {
    const dir = join(conformanceDir(), 'policyengine');
    let policies = 0;
    for (const f of readdirSync(dir).filter((n) => n.startsWith('test_policyengine_'))) {
      const raw = readFixture(`policyengine/${f}`) as Record<string, unknown>;
      const tag = raw.tagPolicyInfo as Record<string, unknown> | undefined;
      const bundle = parseServicePolicies(
        {
          serviceName: raw.serviceName,
          serviceDef: raw.serviceDef,
          policies: raw.policies,
          securityZones: raw.securityZones,
          tagPolicies: tag ? { serviceName: tag.serviceName, serviceDef: tag.serviceDef, policies: tag.tagPolicies } : undefined,
        },
        f,
      );
      policies += bundle.policies.length;
    }
    expect(policies).toBeGreaterThan(150);
  });

  withFixtures('plugin bundle, roles and tags', () => {
    const b = parseServicePolicies(readFixture('plugin/hive_policies.json'), 'hive_policies');
    expect(b.policies.length).toBe(2);
    expect(Object.keys(b.securityZones).sort()).toEqual(['finance', 'sales', 'shipping']);
    expect(b.securityZones.sales!.policies.length).toBeGreaterThan(0);
    expect(parseRangerRoles(readFixture('plugin/hive_roles.json'), 'r').rangerRoles[0]!.name).toBe('role-1');
    const tags = parseServiceTags(readFixture('plugin/hive_tags.json'), 't');
    expect(tags.resourceToTagIds['1']).toEqual([1]);
    for (const f of ['hiveServer2_dev_hive', 'dev_s3']) parseServicePolicies(readFixture(`admin.client/${f}.json`), f);
  });
});

describe('ids Ranger writes as strings', () => {
  test('tag ids and resource ids in quotes read as numbers', () => {
    const t = parseServiceTags({ tags: { '0': { id: '0', type: 'PII' } }, serviceResources: [{ id: '0', resourceElements: {} }], resourceToTagIds: { '0': ['0'] } }, 'x');
    expect(t.resourceToTagIds['0']).toEqual([0]);
    expect(t.serviceResources[0]!.id).toBe(0);
    expect(t.tags['0']!.id).toBe(0);
    expect(() => parseServiceTags({ resourceToTagIds: { '0': ['zero'] } }, 'x')).toThrow(/resourceToTagIds\.0\[0\]/);
  });
});
