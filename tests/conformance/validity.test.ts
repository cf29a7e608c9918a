import { count, describeWithFixtures } from './harness.js';
import { validityDriver } from './validity.js';

describeWithFixtures('Ranger validity-scheduler fixtures', () => {
  const results = validityDriver.run();

  test('every case passes and none is skipped', () => {
    const failures = results.flatMap((f) =>
      f.cases.filter((c) => c.status !== 'pass').map((c) => `${f.file} :: ${c.name}: ${c.status} ${c.detail ?? ''}`),
    );
    expect(failures).toEqual([]);
    const { passed, failed, skipped } = count(results);
    expect({ failed, skipped }).toEqual({ failed: 0, skipped: 0 });
    expect(passed).toBe(47);
  });
});
