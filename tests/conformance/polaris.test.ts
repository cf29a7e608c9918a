/**
 * Polaris's Ranger-authorizer fixtures and Ranger's authz-embedded fixtures
 * through lakegate's engine: no failures; the only cases not run are those
 * listed with a reason in skips.ts.
 */
import { authzEmbeddedDriver } from './authzEmbedded.js';
import { count, describeWithFixtures, type Driver } from './harness.js';
import { polarisDriver } from './polaris.js';

function failures(d: Driver): { failures: string[]; passed: number } {
  const results = d.run();
  return {
    failures: results.flatMap((f) => f.cases.filter((c) => c.status === 'fail').map((c) => `${f.file}: ${c.name}: ${c.detail ?? ''}`)),
    passed: count(results).passed,
  };
}

describeWithFixtures('Polaris and authz-embedded conformance', () => {
  test('every RangerPolarisAuthorizerTest case passes', () => {
    const r = failures(polarisDriver);
    expect(r.failures).toEqual([]);
    expect(r.passed).toBe(117);
  });

  test('every TestEmbeddedAuthorizer case passes or is a listed skip', () => {
    const r = failures(authzEmbeddedDriver);
    expect(r.failures).toEqual([]);
    expect(r.passed).toBeGreaterThanOrEqual(106);
  });
});
