/**
 * The Ranger Admin client against the Ranger Admin test server: parameters it
 * sends, how each status is classified, what is retried, and that the password
 * appears nowhere but in the Authorization header.
 */
import { inspect } from 'node:util';
import { rangerAdminPerTest } from '../../../tests/fixtures/rangerAdmin/harness.js';
import { startRangerAdmin } from '../../../tests/fixtures/rangerAdmin/server.js';
import { RangerAdminClient, type AdminClientConfig } from './adminClient.js';
import { PolicySourceError } from './source.js';

const PASSWORD = 'pw-Xy7#not-in-logs';
const server = rangerAdminPerTest({
  serviceName: 'dev_hive',
  users: { lakegate: { password: PASSWORD }, admin: { password: 'admin-pw', admin: true } },
  downloadUsers: ['lakegate'],
});

const client = (over: Partial<AdminClientConfig> = {}) =>
  new RangerAdminClient({
    url: server().url,
    serviceName: 'dev_hive',
    username: 'lakegate',
    password: PASSWORD,
    timeoutMs: 2000,
    retries: 2,
    retryMinDelayMs: 5,
    ...over,
  });

const policy = (name: string, table: string) => ({
  service: 'dev_hive',
  name,
  resources: { database: { values: ['sales'] }, table: { values: [table] } },
  policyItems: [{ accesses: [{ type: 'select' }], users: ['alice'] }],
});

async function failure(p: Promise<unknown>): Promise<PolicySourceError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(PolicySourceError);
  const err = e as PolicySourceError;
  expect(err.message).not.toContain(PASSWORD);
  expect(String(err.stack)).not.toContain(PASSWORD);
  return err;
}

const POLICIES = '/service/plugins/secure/policies/download/dev_hive';
const ROLES = '/service/roles/secure/download/dev_hive';
const TAGS = '/service/tags/secure/download/dev_hive';

test('first fetch downloads everything with -1 and the plugin identity; the snapshot carries the posted policies', async () => {
  const a = server().store.createPolicy(policy('orders', 'orders'), 'admin');
  const b = server().store.createPolicy(policy('lines', 'lines'), 'admin');
  const r = await client({ pluginId: 'lakegate@test-dev_hive', clusterName: 'c1', tagService: true }).fetch(null);
  if (!r.changed) throw new Error('expected a snapshot');
  expect(r.snapshot.policies.policies.map((p) => p.id)).toEqual([a['id'], b['id']]);
  expect(r.snapshot.versions).toEqual({ policyVersion: 3, roleVersion: 1, tagVersion: 1, userStoreVersion: null });
  expect(r.snapshot.userStore).toBeNull();

  const [p] = server().requestsTo(POLICIES);
  expect(p!.user).toBe('lakegate');
  expect(Object.fromEntries(p!.query)).toEqual({
    lastKnownVersion: '-1',
    lastActivationTime: '0',
    pluginId: 'lakegate@test-dev_hive',
    clusterName: 'c1',
    supportsPolicyDeltas: 'false',
  });
  expect(server().requestsTo(ROLES)[0]!.query.get('lastKnownRoleVersion')).toBe('-1');
  expect(server().requestsTo(TAGS)[0]!.query.get('lastKnownVersion')).toBe('-1');
});

test('known versions get 304 everywhere: unchanged; tags are not asked for without a tag service', async () => {
  const c = client();
  const first = await c.fetch(null);
  if (!first.changed) throw new Error('expected a snapshot');
  expect(first.snapshot.tags).toBeNull();
  const again = await c.fetch(first.snapshot.versions);
  expect(again).toEqual({ changed: false });
  expect(server().requestsTo(POLICIES).map((r) => r.status)).toEqual([200, 304]);
  expect(server().requestsTo(POLICIES)[1]!.query.get('lastKnownVersion')).toBe('1');
  expect(Number(server().requestsTo(POLICIES)[1]!.query.get('lastActivationTime'))).toBeGreaterThan(0);
  expect(server().requestsTo(TAGS)).toHaveLength(0);
});

test('only roles changed: a whole snapshot, policies kept from the last download', async () => {
  const c = client();
  const first = await c.fetch(null);
  if (!first.changed) throw new Error('expected a snapshot');
  server().store.upsertRole({ name: 'analysts', users: [{ name: 'alice' }] });
  const r = await c.fetch(first.snapshot.versions);
  if (!r.changed) throw new Error('expected a snapshot');
  expect(r.snapshot.versions.roleVersion).toBe(2);
  expect(r.snapshot.roles.rangerRoles.map((x) => x.name)).toEqual(['analysts']);
  expect(r.snapshot.policies).toBe(first.snapshot.policies);
  expect(server().requestsTo(POLICIES).map((x) => x.status)).toEqual([200, 304]);
});

test('versions the client does not hold are asked for in full, never answered "unchanged"', async () => {
  const r = await client().fetch({ policyVersion: 1, roleVersion: 1, tagVersion: null });
  expect(r.changed).toBe(true);
  expect(server().requestsTo(POLICIES)[0]!.query.get('lastKnownVersion')).toBe('-1');
});

test('unknown service: "service not found", not retried', async () => {
  const e = await failure(client({ serviceName: 'nope' }).fetch(null));
  expect(e.kind).toBe('not-found');
  expect(e.message).toMatch(/service not found.*"nope"/);
  expect(server().requestsTo('/service/plugins/secure/policies/download/nope')).toHaveLength(1);
});

test('wrong password: auth error naming the user, never the password, not retried', async () => {
  const e = await failure(client({ password: 'wrong-' + PASSWORD }).fetch(null));
  expect(e.kind).toBe('auth');
  expect(e.status).toBe(401);
  expect(e.message).toContain('"lakegate"');
  expect(e.message).not.toContain('wrong-');
  expect(server().requestsTo(POLICIES)).toHaveLength(1);
});

test('a user without download permission: auth error with 403', async () => {
  const srv = await startRangerAdmin({ serviceName: 'dev_hive', users: { bob: { password: PASSWORD } } });
  try {
    const e403 = await failure(client({ url: srv.url, username: 'bob' }).fetch(null));
    expect([e403.kind, e403.status]).toEqual(['auth', 403]);
  } finally {
    await srv.close();
  }
});

test('HTTP 500 is retried `retries` times, then reported', async () => {
  server().setFaults({ status500: true });
  const e = await failure(client({ retries: 2 }).fetch(null));
  expect([e.kind, e.status, e.retryable]).toEqual(['server', 500, true]);
  expect(server().requestsTo(POLICIES)).toHaveLength(3);
});

test('a 500 that clears within the retries is a success', async () => {
  server().setFaults({ status500: true });
  const c = client({ retries: 3, retryMinDelayMs: 50 });
  const p = c.fetch(null);
  setTimeout(() => server().clearFaults(), 20);
  expect((await p).changed).toBe(true);
});

test('malformed JSON: refused, not retried', async () => {
  server().setFaults({ malformedJson: true });
  const e = await failure(client().fetch(null));
  expect(e.kind).toBe('malformed');
  expect(e.message).toMatch(/not JSON/);
  expect(server().requestsTo(POLICIES)).toHaveLength(1);
});

test('JSON the model refuses: malformed, with the JSON path', async () => {
  server().store.replaceTags({ tags: { '7': { id: 7 } } });
  const e = await failure(client({ tagService: true }).fetch(null));
  expect(e.kind).toBe('malformed');
  expect(e.jsonPath).toBe('$.tags.7.type');
  expect(e.message).toContain('/service/tags/secure/download/dev_hive');
});

test('slow server: timeout after timeoutMs', async () => {
  server().setFaults({ slowMs: 1000 });
  const t0 = Date.now();
  const e = await failure(client({ timeoutMs: 100 }).fetch(null));
  expect(e.kind).toBe('timeout');
  expect(Date.now() - t0).toBeLessThan(900);
});

test('server down: unreachable, retried', async () => {
  server().setFaults({ down: true });
  const e = await failure(client({ retries: 1 }).fetch(null));
  expect([e.kind, e.retryable]).toEqual(['unreachable', true]);
});

test('config: credentials in the URL are refused, and the refusal does not echo them', () => {
  expect(() => client({ url: `http://lakegate:${PASSWORD}@127.0.0.1:1` })).toThrow(/not in the URL/);
  try {
    client({ url: `http://lakegate:${PASSWORD}@127.0.0.1:1` });
  } catch (e) {
    expect((e as Error).message).not.toContain(PASSWORD);
  }
  expect(client().describe()).not.toContain(PASSWORD);
  const header = Buffer.from(`lakegate:${PASSWORD}`).toString('base64');
  for (const shown of [JSON.stringify(client()), inspect(client(), { depth: 5 })]) {
    expect(shown).not.toContain(PASSWORD);
    expect(shown).not.toContain(header);
  }
});
