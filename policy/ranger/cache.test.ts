/**
 * Every state of the policy cache against the Ranger Admin test server, with an
 * injected clock for staleness and captured pino output for what is logged.
 * The compiled form is the list of policy ids, compared with the ids the test
 * itself got back when it posted the policies.
 */
import { capturedLogger, type CapturedLogger } from '../../tests/fixtures/rangerAdmin/capturedLogger.js';
import { rangerAdminPerTest } from '../../tests/fixtures/rangerAdmin/harness.js';
import { PolicyCache, type CacheChange } from './cache.js';
import { RangerAdminClient, type AdminClientConfig } from './sources/adminClient.js';
import type { FetchResult, PolicySnapshot, PolicySource } from './sources/source.js';

const PASSWORD = 'pw-Q9!cache-secret';
const TTL = 1_000;
const MAX_STALE = 5_000;

const server = rangerAdminPerTest({
  serviceName: 'dev_hive',
  users: { lakegate: { password: PASSWORD }, admin: { password: 'admin-pw', admin: true } },
  downloadUsers: ['lakegate'],
});

let clock = 0;
let log: CapturedLogger;
let changes: CacheChange[];
let compiles: number;
beforeEach(() => {
  clock = 1_000_000;
  log = capturedLogger();
  changes = [];
  compiles = 0;
});

const compileIds = (s: PolicySnapshot) => {
  compiles++;
  return { ids: s.policies.policies.map((p) => p.id) };
};

function cacheFor(over: Partial<AdminClientConfig> = {}, compile = compileIds) {
  const source = new RangerAdminClient({
    url: server().url,
    serviceName: 'dev_hive',
    username: 'lakegate',
    password: PASSWORD,
    timeoutMs: 1000,
    retries: 0,
    retryMinDelayMs: 5,
    ...over,
  });
  const cache = new PolicyCache({ source, compile, ttlMs: TTL, maxStalenessMs: MAX_STALE, logger: log.logger, now: () => clock });
  cache.onChange((c) => changes.push(c));
  return cache;
}

const post = (name: string, table: string) =>
  server().store.createPolicy(
    {
      service: 'dev_hive',
      name,
      resources: { database: { values: ['sales'] }, table: { values: [table] } },
      policyItems: [{ accesses: [{ type: 'select' }], users: ['alice'] }],
    },
    'admin',
  )['id'] as number;

const transitions = () => changes.map((c) => `${c.from}->${c.to}`);

test('first load: fresh, the posted policies, their version, the time', async () => {
  const ids = [post('orders', 'orders'), post('lines', 'lines')];
  const cache = cacheFor();
  expect(cache.state).toBe('never-loaded');
  expect(cache.current()).toBeNull();
  await cache.refresh();
  expect(cache.state).toBe('fresh');
  expect(cache.current()).toEqual({ ids });
  expect(cache.versions?.policyVersion).toBe(3);
  expect(cache.lastSuccessAt).toBe(clock);
  expect(transitions()).toEqual(['never-loaded->fresh']);
  const rec = log.records().find((r) => r['to'] === 'fresh')!;
  expect(rec).toMatchObject({ from: 'never-loaded', to: 'fresh', versions: { policyVersion: 3 }, cause: 'first policy set loaded' });
});

test('304 keeps the set: nothing recompiled, lastSuccessAt advances', async () => {
  post('orders', 'orders');
  const cache = cacheFor();
  await cache.refresh();
  const first = cache.current();
  clock += TTL;
  await cache.refresh();
  expect(cache.current()).toBe(first);
  expect(compiles).toBe(1);
  expect(cache.lastSuccessAt).toBe(clock);
  expect(server().requestsTo('/service/plugins/secure/policies/download/').map((r) => r.status)).toEqual([200, 304]);
});

test('a version bump is picked up on the next refresh', async () => {
  const a = post('orders', 'orders');
  const cache = cacheFor();
  await cache.refresh();
  const b = post('lines', 'lines');
  await cache.refresh();
  expect(cache.current()).toEqual({ ids: [a, b] });
  expect(cache.versions?.policyVersion).toBe(3);
  expect(changes.at(-1)).toMatchObject({ from: 'fresh', to: 'fresh', replaced: true });
});

test('server down before the first load: never-loaded, current() is null, the failure is logged', async () => {
  server().setFaults({ down: true });
  const cache = cacheFor();
  await cache.refresh();
  expect(cache.state).toBe('never-loaded');
  expect(cache.current()).toBeNull();
  expect(cache.lastError?.message).toMatch(/unreachable/);
  expect(log.records().some((r) => r['msg'] === 'policy refresh failed' && r['kind'] === 'unreachable')).toBe(true);
});

test('down after a load: stale (last good set served), then expired past maxStaleness, fresh again when back', async () => {
  const id = post('orders', 'orders');
  const cache = cacheFor();
  await cache.refresh();
  server().setFaults({ down: true });
  clock += TTL;
  await cache.refresh();
  expect(cache.state).toBe('stale');
  expect(cache.current()).toEqual({ ids: [id] });

  clock += MAX_STALE - TTL; // exactly maxStaleness since the last success: still served
  expect(cache.current()).toEqual({ ids: [id] });
  clock += 1;
  expect(cache.current()).toBeNull();
  expect(cache.state).toBe('expired');
  const expiry = log.records().find((r) => r['to'] === 'expired')!;
  expect(expiry).toMatchObject({ from: 'stale', level: 50, versions: { policyVersion: 2 } });
  expect(String(expiry['cause'])).toMatch(/max staleness 5000 ms/);

  server().setFaults({ down: false });
  await cache.refresh();
  expect(cache.state).toBe('fresh');
  expect(cache.current()).toEqual({ ids: [id] });
  expect(transitions()).toEqual(['never-loaded->fresh', 'fresh->stale', 'stale->expired', 'expired->fresh']);
});

test('HTTP 500: retried, then stale with the cause logged', async () => {
  post('orders', 'orders');
  const cache = cacheFor({ retries: 2 });
  await cache.refresh();
  server().setFaults({ status500: true });
  await cache.refresh();
  expect(cache.state).toBe('stale');
  const statuses = server().requestsTo('/service/plugins/secure/policies/download/').map((r) => r.status);
  expect(statuses).toEqual([200, 500, 500, 500]);
  const stale = log.records().find((r) => r['to'] === 'stale')!;
  expect(stale).toMatchObject({ from: 'fresh', kind: 'server' });
  expect(String(stale['cause'])).toMatch(/HTTP 500/);
});

test('malformed JSON: stale, the good set is not replaced, the refusal is logged', async () => {
  const a = post('orders', 'orders');
  const cache = cacheFor();
  await cache.refresh();
  post('lines', 'lines'); // a new version, so the server answers 200 (with the broken body)
  server().setFaults({ malformedJson: true });
  await cache.refresh();
  expect(cache.state).toBe('stale');
  expect(cache.current()).toEqual({ ids: [a] });
  expect(cache.versions?.policyVersion).toBe(2);
  expect(log.records().some((r) => r['kind'] === 'malformed' && /not JSON/.test(String(r['cause'])))).toBe(true);
});

test('slow server: the fetch times out and the set goes stale', async () => {
  post('orders', 'orders');
  const cache = cacheFor({ timeoutMs: 100 });
  await cache.refresh();
  server().setFaults({ slowMs: 1000 });
  await cache.refresh();
  expect(cache.state).toBe('stale');
  expect(log.records().some((r) => r['to'] === 'stale' && r['kind'] === 'timeout')).toBe(true);
});

test('wrong password: auth error naming the user; the password is in no message and no log line', async () => {
  const cache = cacheFor({ password: `${PASSWORD}-wrong` });
  await cache.refresh();
  expect(cache.state).toBe('never-loaded');
  expect(cache.lastError?.message).toMatch(/refused user "lakegate" \(HTTP 401/);
  expect(cache.lastError?.message).not.toContain(PASSWORD);
  expect(log.lines.length).toBeGreaterThan(0);
  for (const line of log.lines) expect(line).not.toContain(PASSWORD);
  expect(log.lines.join('')).toContain('lakegate');
});

test('a snapshot whose compile throws is a failed refresh and never replaces the good set', async () => {
  const a = post('orders', 'orders');
  let refuse = false;
  const cache = cacheFor({}, (s) => {
    if (refuse) throw new Error('row filter does not parse');
    return compileIds(s);
  });
  await cache.refresh();
  refuse = true;
  post('lines', 'lines');
  await cache.refresh();
  expect(cache.state).toBe('stale');
  expect(cache.current()).toEqual({ ids: [a] });
  expect(log.records().find((r) => r['to'] === 'stale')!['cause']).toBe('compile failed: row filter does not parse');
});

test('compile failing on the first load leaves the cache never-loaded', async () => {
  post('orders', 'orders');
  const cache = cacheFor({}, () => {
    throw new Error('bad');
  });
  await cache.refresh();
  expect(cache.state).toBe('never-loaded');
  expect(cache.current()).toBeNull();
});

test('flush picks up a change at once, without waiting for the ttl', async () => {
  const a = post('orders', 'orders');
  const cache = cacheFor();
  await cache.start();
  try {
    const b = post('lines', 'lines');
    await cache.flush();
    expect(cache.current()).toEqual({ ids: [a, b] });
  } finally {
    cache.stop();
  }
});

test('background refresh every ttl; stop() ends it', async () => {
  const a = post('orders', 'orders');
  const source = new RangerAdminClient({
    url: server().url,
    serviceName: 'dev_hive',
    username: 'lakegate',
    password: PASSWORD,
    timeoutMs: 1000,
    retries: 0,
  });
  const cache = new PolicyCache({ source, compile: compileIds, ttlMs: 30, maxStalenessMs: 5_000, logger: log.logger });
  await cache.start();
  const b = post('lines', 'lines');
  await new Promise<void>((resolve) => cache.onChange((c) => c.replaced && resolve()));
  expect(cache.current()).toEqual({ ids: [a, b] });
  cache.stop();
  const seen = server().requests.length;
  await new Promise((r) => setTimeout(r, 100));
  expect(server().requests.length).toBe(seen);
});

// ---------------------------------------------------------------- coalescing, with a source the test steps by hand

class SteppedSource implements PolicySource {
  calls = 0;
  private release: Array<() => void> = [];
  describe() {
    return 'stepped';
  }
  fetch(): Promise<FetchResult> {
    const n = ++this.calls;
    return new Promise((resolve) =>
      this.release.push(() =>
        resolve({
          changed: true,
          snapshot: {
            policies: { policyVersion: n } as PolicySnapshot['policies'],
            roles: { roleVersion: 1, rangerRoles: [] },
            tags: null,
            userStore: null,
            versions: { policyVersion: n, roleVersion: 1, tagVersion: null, userStoreVersion: null },
          },
        }),
      ),
    );
  }
  step() {
    this.release.shift()?.();
  }
}

const tickOnce = () => new Promise((r) => setImmediate(r));

test('one refresh at a time: concurrent refresh() calls share a fetch; flush() during one waits and fetches again', async () => {
  const source = new SteppedSource();
  const cache = new PolicyCache({
    source,
    compile: (s) => s.versions.policyVersion,
    ttlMs: TTL,
    maxStalenessMs: MAX_STALE,
    logger: log.logger,
    now: () => clock,
  });
  const r1 = cache.refresh();
  const r2 = cache.refresh();
  expect(r2).toBe(r1);
  const f1 = cache.flush();
  const f2 = cache.flush();
  expect(f2).toBe(f1);
  expect(source.calls).toBe(1);

  source.step();
  await r1;
  expect(cache.current()).toBe(1);
  await tickOnce();
  expect(source.calls).toBe(2); // the flush's own fetch began after the first ended
  source.step();
  await f1;
  expect(cache.current()).toBe(2);
});
