import { LoginThrottle, ThrottleConfigSchema } from './throttle.js';

function throttle(over: Record<string, number> = {}) {
  let t = 1_000_000;
  const slept: number[] = [];
  const cfg = ThrottleConfigSchema.parse({ maxFailuresPerUserAddress: 3, maxFailuresPerAddress: 5, windowMs: 10_000, failureDelayMs: 100, maxFailureDelayMs: 1000, ...over });
  const th = new LoginThrottle(cfg, () => t, async (ms) => {
    slept.push(ms);
  });
  return { th, slept, advance: (ms: number) => (t += ms) };
}

test("failures for a name from one address stop that address, never the name from another address (the issue's lock-out)", async () => {
  const { th } = throttle({ maxFailuresPerAddress: 100 });
  for (let i = 0; i < 12; i++) await th.failed('erin', '203.0.113.9');
  expect(th.allows('erin', '203.0.113.9')).toBe(false);
  // the victim, from her own address: not throttled at all
  expect(th.allows('erin', '198.51.100.4')).toBe(true);
  // control: the attacker's address is refused for erin only (its address limit is not reached)
  expect(th.allows('bob', '203.0.113.9')).toBe(true);
});

test('an address spraying many names is throttled for every name; other addresses are not', async () => {
  const { th } = throttle();
  for (const u of ['a', 'b', 'c', 'd', 'e']) await th.failed(u, '192.0.2.7');
  expect(th.allows('zed', '192.0.2.7')).toBe(false);
  expect(th.allows('a', '192.0.2.8')).toBe(true);
  // below the limit (control): four names leave the address open
  const { th: other } = throttle();
  for (const u of ['a', 'b', 'c', 'd']) await other.failed(u, '192.0.2.7');
  expect(other.allows('zed', '192.0.2.7')).toBe(true);
});

test('the delay before a failure answer doubles with the recent failures of the address, the pair or the name, up to the cap', async () => {
  const { th, slept } = throttle({ maxFailuresPerAddress: 100, maxFailuresPerUserAddress: 100 });
  for (let i = 0; i < 6; i++) await th.failed('erin', '203.0.113.9');
  expect(slept).toEqual([100, 200, 400, 800, 1000, 1000]);
  // a name failing from many addresses: its failures wait longer too (its right password never does)
  slept.length = 0;
  for (let i = 0; i < 4; i++) await th.failed('frank', `10.0.0.${i}`);
  expect(slept).toEqual([100, 200, 400, 800]);
  // a fresh address and name start again at the base delay
  slept.length = 0;
  await th.failed('gina', '10.9.9.9');
  expect(slept).toEqual([100]);
});

test('failures age out of the window; a good login clears its (user, address) count but not the address count', async () => {
  const { th, advance } = throttle();
  for (let i = 0; i < 3; i++) await th.failed('alice', '10.0.0.1');
  expect(th.allows('alice', '10.0.0.1')).toBe(false);
  advance(10_001);
  expect(th.allows('alice', '10.0.0.1')).toBe(true);
  await th.failed('alice', '10.0.0.1');
  await th.failed('alice', '10.0.0.1');
  th.succeeded('alice', '10.0.0.1');
  await th.failed('alice', '10.0.0.1');
  expect(th.allows('alice', '10.0.0.1')).toBe(true);
  // the address still counts the three failures of this window: two more (any names) reach its limit of five
  expect(th.allows('someone', '10.0.0.1')).toBe(true);
  await th.failed('x', '10.0.0.1');
  await th.failed('y', '10.0.0.1');
  expect(th.allows('someone', '10.0.0.1')).toBe(false);
});

test('memory stays bounded under a flood of distinct names', async () => {
  const { th } = throttle({ maxTrackedKeys: 100 });
  for (let i = 0; i < 1000; i++) await th.failed(`user${i}`, '10.0.0.1');
  expect(th.trackedKeys).toBeLessThanOrEqual(100);
  // The spraying address itself is never the one evicted.
  expect(th.allows('someone-new', '10.0.0.1')).toBe(false);
});

test('the removed per-user limit is refused with the reason, not silently ignored', () => {
  const r = ThrottleConfigSchema.safeParse({ maxFailuresPerUser: 3 });
  expect(r.success).toBe(false);
  expect(r.error!.issues[0]!.message).toContain('maxFailuresPerUserAddress');
});
