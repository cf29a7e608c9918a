/**
 * Ranger's plugin-level fixtures (TestRangerBasePlugin, RangerBasePluginTest,
 * TestRangerTagEnricher, TestPolicyACLs, TestInlinePolicyEvaluator) through
 * lakegate: no failures; the only cases not run are listed with a reason in skips.ts.
 */
import { count, describeWithFixtures } from './harness.js';
import { aclDriver } from './acls.js';
import { basePluginDriver } from './basePlugin.js';
import { inlinePoliciesDriver } from './inlinePolicies.js';
import { tagEnricherDriver } from './tagEnricher.js';

describeWithFixtures('Ranger plugin-level conformance', () => {
  test.each([
    ['resource ACLs', aclDriver, 39],
    ['base plugin', basePluginDriver, 180],
    ['tag enricher', tagEnricherDriver, 10],
    ['inline policies', inlinePoliciesDriver, 0],
  ] as const)('%s: every case passes or is a listed skip', (_label, driver, minPassed) => {
    const results = driver.run();
    const failures = results.flatMap((f) => f.cases.filter((c) => c.status === 'fail').map((c) => `${f.file}: ${c.name}: ${c.detail ?? ''}`));
    expect(failures).toEqual([]);
    expect(count(results).passed).toBeGreaterThanOrEqual(minPassed);
  });
});
