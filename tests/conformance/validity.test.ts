import { count, fixturesPresent } from './harness.js';
import { validityDriver } from './validity.js';

const present = fixturesPresent();

describe('Ranger validity-scheduler fixtures', () => {
  if (!present) {
    test('fixtures are present', () => {
      if (process.env.CI === 'true') throw new Error('Ranger conformance fixtures not found (set LAKEGATE_RANGER_CONFORMANCE)');
      console.warn('Ranger conformance fixtures not found; validity conformance skipped');
    });
    return;
  }

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
