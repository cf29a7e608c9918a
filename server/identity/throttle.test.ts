import { LoginThrottle, ThrottleConfigSchema } from './throttle.js';

function throttle(over: Record<string, number> = {}) {
  let t = 1_000_000;
  const cfg = ThrottleConfigSchema.parse({ maxFailuresPerUser: 3, maxFailuresPerAddress: 5, windowMs: 10_000, failureDelayMs: 0, ...over });
  const th = new LoginThrottle(cfg, () => t);
  return { th, advance: (ms: number) => (t += ms) };
}

test('per user: the limit-th failure closes the door for that name only', () => {
  const { th } = throttle();
  for (let i = 0; i < 3; i++) {
    expect(th.allows('alice', '10.0.0.1')).toBe(true);
    th.recordFailure('alice', `10.0.0.${i + 1}`);
  }
  expect(th.allows('alice', '10.0.0.9')).toBe(false);
  expect(th.allows('bob', '10.0.0.9')).toBe(true);
});

test('per address: many names from one address are throttled together', () => {
  const { th } = throttle();
  for (const u of ['a', 'b', 'c', 'd', 'e']) th.recordFailure(u, '192.0.2.7');
  expect(th.allows('zed', '192.0.2.7')).toBe(false);
  expect(th.allows('zed', '192.0.2.8')).toBe(true);
});

test('failures age out of the window; success clears the user count', () => {
  const { th, advance } = throttle();
  for (let i = 0; i < 3; i++) th.recordFailure('alice', '10.0.0.1');
  expect(th.allows('alice', '10.0.0.2')).toBe(false);
  advance(10_001);
  expect(th.allows('alice', '10.0.0.2')).toBe(true);
  th.recordFailure('alice', '10.0.0.1');
  th.recordFailure('alice', '10.0.0.1');
  th.recordSuccess('alice');
  th.recordFailure('alice', '10.0.0.1');
  expect(th.allows('alice', '10.0.0.3')).toBe(true);
});

test('memory stays bounded under a flood of distinct names', () => {
  const { th } = throttle({ maxTrackedKeys: 100 });
  for (let i = 0; i < 1000; i++) th.recordFailure(`user${i}`, '10.0.0.1');
  expect((th as unknown as { failures: Map<string, number[]> }).failures.size).toBeLessThanOrEqual(101);
  // The spraying address itself is never the one evicted.
  expect(th.allows('someone-new', '10.0.0.1')).toBe(false);
});
