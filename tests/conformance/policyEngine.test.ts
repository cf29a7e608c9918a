/**
 * Ranger's TestPolicyEngine fixtures through lakegate's engine: no failures; the
 * only cases not run are those listed with a reason in skips.ts. Also checks the
 * whole conformance run stays above 95% of cases run.
 */
import { count, describeWithFixtures } from './harness.js';
import { drivers } from './drivers.js';
import { policyEngineDriver } from './policyEngine.js';

describeWithFixtures('Ranger policy-engine conformance', () => {
  test('every TestPolicyEngine case passes or is a listed skip', () => {
    const results = policyEngineDriver.run();
    const failures = results.flatMap((f) => f.cases.filter((c) => c.status === 'fail').map((c) => `${f.file}: ${c.name}: ${c.detail ?? ''}`));
    expect(failures).toEqual([]);
    expect(count(results).passed).toBeGreaterThan(600);
  });

  test('the whole conformance run executes at least 95% of its cases', () => {
    const c = count(drivers.flatMap((d) => d.run()));
    expect(c.failed).toBe(0);
    expect((c.passed + c.failed) / (c.passed + c.failed + c.skipped)).toBeGreaterThanOrEqual(0.95);
  });
});
