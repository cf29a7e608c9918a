/**
 * The embedded-mode source: one ServicePolicies file, or a folder laid out like
 * a plugin's policy cache; changes found by versions and mtimes; malformed files
 * refused with the file and the JSON path.
 */
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conformanceDir, describeWithFixtures } from '../../../tests/conformance/harness.js';
import { capturedLogger } from '../../../tests/fixtures/rangerAdmin/capturedLogger.js';
import { PolicyCache } from '../cache.js';
import { LocalPolicySource } from './localSource.js';
import { PolicySourceError, type FetchResult, type PolicySnapshot } from './source.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lakegate-local-source-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes JSON and moves the mtime forward by a whole second, so no two writes look alike. */
let tick = 1_700_000_000;
function write(name: string, json: unknown): string {
  const f = join(dir, name);
  writeFileSync(f, typeof json === 'string' ? json : JSON.stringify(json));
  tick += 1;
  utimesSync(f, tick, tick);
  return f;
}

const policies = (version: number, ids: number[]) => ({
  serviceName: 'dev_hive',
  policyVersion: version,
  policies: ids.map((id) => ({ id, name: `p${id}`, resources: { database: { values: ['db'] } } })),
});

function snapshotOf(r: FetchResult): PolicySnapshot {
  if (!r.changed) throw new Error('expected a snapshot');
  return r.snapshot;
}

async function refusal(p: Promise<unknown>): Promise<PolicySourceError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(PolicySourceError);
  return e as PolicySourceError;
}

test('one file: its policies, empty roles, no tags, no user store', async () => {
  const f = write('policies.json', policies(4, [11, 12]));
  const s = snapshotOf(await new LocalPolicySource({ path: f }).fetch(null));
  expect(s.policies.policies.map((p) => p.id)).toEqual([11, 12]);
  expect(s.roles.rangerRoles).toEqual([]);
  expect([s.tags, s.userStore]).toEqual([null, null]);
  expect(s.versions).toEqual({ policyVersion: 4, roleVersion: null, tagVersion: null, userStoreVersion: null });
});

test('folder: all four files, unchanged on the next poll, a changed file picked up by itself', async () => {
  write('dev_hive.json', policies(3, [1]));
  write('dev_hive_roles.json', { roleVersion: 7, rangerRoles: [{ name: 'analysts', users: [{ name: 'alice' }] }] });
  write('dev_hive_tag.json', { tagVersion: 5, tags: { '1': { type: 'PII' } }, resourceToTagIds: { '9': [1] } });
  write('dev_hive_userstore.json', { userStoreVersion: 2, userGroupMapping: { alice: ['eng'] } });
  const src = new LocalPolicySource({ path: dir, serviceName: 'dev_hive' });

  const s = snapshotOf(await src.fetch(null));
  expect(s.versions).toEqual({ policyVersion: 3, roleVersion: 7, tagVersion: 5, userStoreVersion: 2 });
  expect(s.roles.rangerRoles[0]!.name).toBe('analysts');
  expect(s.tags!.resourceToTagIds['9']).toEqual([1]);
  expect(s.userStore!.userGroupMapping['alice']).toEqual(['eng']);

  expect(await src.fetch(s.versions)).toEqual({ changed: false });

  write('dev_hive_roles.json', { roleVersion: 8, rangerRoles: [] });
  const s2 = snapshotOf(await src.fetch(s.versions));
  expect(s2.versions).toEqual({ policyVersion: 3, roleVersion: 8, tagVersion: 5, userStoreVersion: 2 });
});

test('a caller that does not hold the versions gets the snapshot, even when no file moved', async () => {
  write('dev_hive.json', policies(3, [1]));
  const src = new LocalPolicySource({ path: dir, serviceName: 'dev_hive' });
  snapshotOf(await src.fetch(null));
  expect((await src.fetch(null)).changed).toBe(true);
  expect((await src.fetch({ policyVersion: 2, roleVersion: null, tagVersion: null })).changed).toBe(true);
});

test('a hand edit that keeps policyVersion is still picked up (the mtime moved)', async () => {
  write('dev_hive.json', policies(3, [1]));
  const src = new LocalPolicySource({ path: dir, serviceName: 'dev_hive' });
  const s = snapshotOf(await src.fetch(null));
  write('dev_hive.json', policies(3, [1, 2]));
  expect(snapshotOf(await src.fetch(s.versions)).policies.policies.map((p) => p.id)).toEqual([1, 2]);
});

test('a malformed file is refused with its path and the JSON path; a file that is not JSON names the file', async () => {
  write('dev_hive.json', policies(3, [1]));
  write('dev_hive_roles.json', { roleVersion: 1, rangerRoles: [{ name: 'ok' }, { users: [] }] });
  const src = new LocalPolicySource({ path: dir, serviceName: 'dev_hive' });
  const e = await refusal(src.fetch(null));
  expect(e.kind).toBe('malformed');
  expect(e.jsonPath).toBe('$.rangerRoles[1].name');
  expect(e.message).toContain(join(dir, 'dev_hive_roles.json'));

  write('dev_hive_roles.json', '{"roleVersion": 1, "rangerRoles": [');
  const e2 = await refusal(src.fetch(null));
  expect(e2.kind).toBe('malformed');
  expect(e2.message).toMatch(/dev_hive_roles\.json is not JSON/);
});

test('missing path, missing policies file, folder without a service name: io errors', async () => {
  expect((await refusal(new LocalPolicySource({ path: join(dir, 'nope') }).fetch(null))).kind).toBe('io');
  expect((await refusal(new LocalPolicySource({ path: dir, serviceName: 'dev_hive' }).fetch(null))).message).toMatch(
    /dev_hive\.json does not exist/,
  );
  expect((await refusal(new LocalPolicySource({ path: dir }).fetch(null))).message).toMatch(/needs a serviceName/);
});

test('in the cache: a malformed edit leaves the good file set in force (stale), logged with the JSON path', async () => {
  write('dev_hive.json', policies(3, [1, 2]));
  const log = capturedLogger();
  const cache = new PolicyCache({
    source: new LocalPolicySource({ path: dir, serviceName: 'dev_hive' }),
    compile: (s) => s.policies.policies.map((p) => p.id),
    ttlMs: 1000,
    maxStalenessMs: 10_000,
    logger: log.logger,
  });
  await cache.refresh();
  expect(cache.current()).toEqual([1, 2]);
  write('dev_hive.json', { ...policies(4, [1, 2]), policies: [{ id: 1, policyType: 7 }] });
  await cache.refresh();
  expect(cache.state).toBe('stale');
  expect(cache.current()).toEqual([1, 2]);
  const rec = log.records().find((r) => r['to'] === 'stale')!;
  expect(String(rec['cause'])).toContain('$.policies[0].policyType');
});

describeWithFixtures("Ranger's own files", () => {
  test('admin.client: plugin cache files named <appId>_<service>', async () => {
    const src = new LocalPolicySource({ path: join(conformanceDir(), 'admin.client'), serviceName: 'dev_hive', appId: 'hiveServer2' });
    const s = snapshotOf(await src.fetch(null));
    expect(s.versions).toEqual({ policyVersion: 1, roleVersion: 6, tagVersion: 2, userStoreVersion: 2 });
  });

  test('authz-embedded/test_hive/dev_hive.json as a single file', async () => {
    const src = new LocalPolicySource({ path: join(conformanceDir(), 'authz-embedded', 'test_hive', 'dev_hive.json') });
    const s = snapshotOf(await src.fetch(null));
    expect(s.policies.serviceName).toBe('dev_hive');
    expect(s.versions.policyVersion).toBe(15);
    expect(s.policies.policies.slice(0, 3).map((p) => p.name)).toEqual(['mydb.tbl1', 'mydb.tbl2', 'mydb.*.*']);
  });
});
