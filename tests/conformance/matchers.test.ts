/** Ranger's resource-matcher fixtures: every case must pass, none may be skipped. */
import { count, describeWithFixtures, type Driver } from './harness.js';
import { resourceMatcherDriver } from './resourceMatcher.js';
import { policyResourceMatcherDriver } from './policyResourceMatcher.js';

describeWithFixtures('Ranger resource-matcher conformance', () => {
  const drivers: Driver[] = [resourceMatcherDriver, policyResourceMatcherDriver];
  for (const driver of drivers) {
    test(driver.name, () => {
      const results = driver.run();
      const notPassed = results.flatMap((f) => f.cases.filter((c) => c.status !== 'pass').map((c) => `${f.file}: ${c.name}: ${c.status} ${c.detail ?? ''}`));
      expect(notPassed).toEqual([]);
      const { passed } = count(results);
      expect(passed).toBeGreaterThan(0);
    });
  }
});
