/**
 * Ranger's GDS fixtures (TestGdsPolicyEngine) through lakegate's GdsPolicyEngine:
 * no failures; the only cases not run are those listed with a reason in skips.ts.
 */
import { count, describeWithFixtures } from './harness.js';
import { gdsDriver } from './gds.js';

describeWithFixtures('Ranger GDS policy-engine conformance', () => {
  test('every TestGdsPolicyEngine case passes or is a listed skip', () => {
    const results = gdsDriver.run();
    const failures = results.flatMap((f) => f.cases.filter((c) => c.status === 'fail').map((c) => `${f.file}: ${c.name}: ${c.detail ?? ''}`));
    expect(failures).toEqual([]);
    expect(count(results).passed).toBeGreaterThan(200);
  });
});
