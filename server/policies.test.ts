/**
 * The gateway's policy sets checked at load: a stub def replaced (and said so in the
 * log), a bundle its def refuses kept out with the previous set still deciding (logged,
 * counted, not passed off as "unchanged" on the next poll), and a refused first bundle a
 * start-up error. Controls: the same files with a full def or without the fault.
 */
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { capturedLogger } from '../tests/fixtures/rangerAdmin/capturedLogger.js';
import { startRangerAdmin } from '../tests/fixtures/rangerAdmin/server.js';
import { polarisPath } from '../catalog/polaris/authorization.js';
import { authorizePolaris } from '../policy/polaris/rangerAuthorizer.js';
import type { PolicyEngine } from '../policy/ranger/engine.js';
import { policyBundlesRefused, startPolicies, type GatewayPolicies } from './policies.js';

type Json = Record<string, unknown>;
const demoBundle = (): Json => JSON.parse(readFileSync(join(import.meta.dirname, '..', 'demo', 'ranger', 'lakehouse.json'), 'utf8')) as Json;

let dir: string;
let running: GatewayPolicies | null = null;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lakegate-policies-'));
});
afterEach(() => {
  running?.stop();
  running = null;
  rmSync(dir, { recursive: true, force: true });
});

let tick = 1_700_000_000;
function write(json: Json): string {
  const f = join(dir, 'lakehouse.json');
  writeFileSync(f, JSON.stringify(json));
  tick += 1;
  utimesSync(f, tick, tick);
  return f;
}

const config = (path: string) => ({ source: { kind: 'local' as const, path }, refreshMs: 60_000, maxStalenessMs: 300_000 });

const alice = (column?: string) => ({
  resource: { database: 'sales', table: 'orders', ...(column ? { column } : {}) },
  accessType: 'select',
  user: 'alice',
  userGroups: new Set<string>(),
  userRoles: new Set(['analyst']),
});
const reads = (e: PolicyEngine | null) => (e ? e.isAccessAllowed(alice()).isAllowed : 'no policy set');

test('a stub hive def: Ranger\'s hive def in force, said in a log line, and alice reads sales.orders masked as under the full def', async () => {
  const { logger, records } = capturedLogger();
  running = await startPolicies(config(write({ ...demoBundle(), serviceDef: { name: 'hive' } })), logger, 'ranger');
  const engine = running.current();
  expect(reads(engine)).toBe(true);
  expect(engine!.evalDataMask(alice('ssn')).maskType).toBe('MASK_SHOW_LAST_4');
  expect(engine!.serviceDef.resources.map((r) => r.name)).toContain('udf');
  const line = records().find((r) => r['event'] === 'policy-bundle');
  expect(line).toMatchObject({ state: 'stub-def-replaced', serviceType: 'hive', service: 'lakehouse', source: 'ranger', level: 40 });
  expect(line!['msg']).toBe(
    'policy bundle of service "lakehouse" carries a stub "hive" service definition (no resources): using Apache Ranger\'s hive service definition (lakegate\'s copy)',
  );
});

test('a stub polaris def: the catalog gate decides (alice loads sales.orders, dave does not) as under the full def', async () => {
  const polaris = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'demo', 'polaris', 'polaris.json'), 'utf8')) as Json;
  const load = (e: PolicyEngine, user: string, roles: string[]) =>
    authorizePolaris(e, { principal: { name: user, roles }, operation: 'LOAD_TABLE_WITH_READ_DELEGATION', targets: [polarisPath.tableLike('POLARIS', 'demo', ['sales'], 'orders')] }).allowed;
  const { logger, records } = capturedLogger();
  running = await startPolicies(config(write({ ...polaris, serviceDef: { name: 'polaris' } })), logger, 'polaris');
  const control = await startPolicies(config(join(import.meta.dirname, '..', 'demo', 'polaris', 'polaris.json')), capturedLogger().logger, 'polaris');
  try {
    expect([load(running.current()!, 'alice', ['analyst']), load(running.current()!, 'dave', [])]).toEqual([true, false]);
    expect([load(control.current()!, 'alice', ['analyst']), load(control.current()!, 'dave', [])]).toEqual([true, false]);
  } finally {
    control.stop();
  }
  expect(records().find((r) => r['event'] === 'policy-bundle')).toMatchObject({ state: 'stub-def-replaced', serviceType: 'polaris', source: 'polaris' });
});

test('control: the full def loads with no such log line', async () => {
  const { logger, records } = capturedLogger();
  running = await startPolicies(config(write(demoBundle())), logger);
  expect(reads(running.current())).toBe(true);
  expect(records().filter((r) => r['event'] === 'policy-bundle')).toEqual([]);
});

test('a rewritten file with an unknown resource type is refused: the previous set still decides, the refusal is logged and counted, every poll', async () => {
  const { logger, records } = capturedLogger();
  const file = write(demoBundle());
  running = await startPolicies(config(file), logger, 'ranger-refresh-test');
  const before = running.current();
  expect(reads(before)).toBe(true);

  // Same policyVersion, as a hand edit leaves it: the source must not call it unchanged next time.
  const bad = demoBundle();
  const policies = bad['policies'] as Json[];
  policies[0] = { ...policies[0], resources: { ...(policies[0]!['resources'] as Json), schema: { values: ['sales'] } } };
  write(bad);
  await running.flush();
  expect(running.current()).toBe(before);
  expect(reads(running.current())).toBe(true);
  expect(policyBundlesRefused().get('ranger-refresh-test')).toBe(1);
  const refusal = records().find((r) => r['event'] === 'policy-bundle' && r['state'] === 'refused');
  expect(refusal?.['level']).toBe(50);
  expect(refusal?.['msg']).toBe(
    `policy bundle of service "lakehouse" refused: policy ${String(policies[0]!['id'])} "${String(policies[0]!['name'])}": resource type "schema" not in service def hive (the policy set in force stays)`,
  );

  await running.flush();
  expect(running.current()).toBe(before);
  expect(policyBundlesRefused().get('ranger-refresh-test')).toBe(2);
  // Still a failed refresh (stale, bounded by maxStalenessMs), not a successful "unchanged".
  expect(records().filter((r) => r['to'] === 'stale').length).toBe(1);
  expect(records().at(-1)).toMatchObject({ msg: 'policy refresh failed', state: 'stale', kind: 'compile' });

  // Control: the same file with the fault removed replaces the set.
  write(demoBundle());
  await running.flush();
  expect(running.current()).not.toBe(before);
  expect(reads(running.current())).toBe(true);
  expect(policyBundlesRefused().get('ranger-refresh-test')).toBe(2);
});

test('a refused first bundle is a start-up error naming the policy; an unreachable source is not', async () => {
  const bad = demoBundle();
  const policies = bad['policies'] as Json[];
  policies[1] = { ...policies[1], policyItems: [{ users: ['alice'], accesses: [{ type: 'read-data' }] }] };
  const { logger } = capturedLogger();
  await expect(startPolicies(config(write(bad)), logger, 'ranger-start-test')).rejects.toThrow(
    `cannot start without a valid first policy set: policy bundle of service "lakehouse" refused: policy ${String(policies[1]!['id'])} "${String(policies[1]!['name'])}": access type "read-data" not in service def hive`,
  );
  expect(policyBundlesRefused().get('ranger-start-test')).toBe(1);

  running = await startPolicies(config(join(dir, 'missing.json')), logger);
  expect(running.current()).toBeNull();
});

test('Ranger Admin: a stub def served is replaced; a policy on an unknown resource type refused at the next refresh, the previous set deciding, asked for in full again; removing it (control) is taken', async () => {
  const demo = demoBundle();
  // The test server serves { "name": "hive" } as the serviceDef unless told otherwise.
  const admin = await startRangerAdmin({
    serviceName: 'lakehouse',
    users: { lakegate: { password: 'pw' } },
    downloadUsers: ['lakegate'],
    policies: (demo['policies'] as Json[]).map(({ id: _id, ...p }) => p),
    roles: ((JSON.parse(readFileSync(join(import.meta.dirname, '..', 'demo', 'ranger', 'lakehouse_roles.json'), 'utf8')) as Json)['rangerRoles'] as Json[]),
  });
  try {
    const { logger, records } = capturedLogger();
    running = await startPolicies(
      { source: { kind: 'admin', url: admin.url, serviceName: 'lakehouse', username: 'lakegate', password: 'pw', timeoutMs: 5000, retries: 0, tagService: false }, refreshMs: 60_000, maxStalenessMs: 300_000 },
      logger,
      'ranger-admin-test',
    );
    const before = running.current();
    expect(reads(before)).toBe(true);
    expect(before!.evalDataMask(alice('ssn')).maskType).toBe('MASK_SHOW_LAST_4');
    expect(records().find((r) => r['event'] === 'policy-bundle')).toMatchObject({ state: 'stub-def-replaced', serviceType: 'hive' });

    const bad = admin.store.createPolicy(
      { service: 'lakehouse', name: 'by schema', resources: { schema: { values: ['sales'] } }, policyItems: [{ users: ['dave'], accesses: [{ type: 'select' }] }] },
      'admin',
    );
    await running.flush();
    expect(running.current()).toBe(before);
    expect(policyBundlesRefused().get('ranger-admin-test')).toBe(1);
    expect(records().find((r) => r['state'] === 'refused')?.['msg']).toBe(
      `policy bundle of service "lakehouse" refused: policy ${String(bad['id'])} "by schema": resource type "schema" not in service def hive (the policy set in force stays)`,
    );
    await running.flush();
    const asked = admin.requestsTo('/service/plugins/secure/policies/download/lakehouse').map((r) => r.query.get('lastKnownVersion'));
    expect(asked.at(-1)).toBe('-1');
    expect(policyBundlesRefused().get('ranger-admin-test')).toBe(2);
    expect(running.current()).toBe(before);

    admin.store.deletePolicy(bad['id'] as number);
    await running.flush();
    expect(running.current()).not.toBe(before);
    expect(reads(running.current())).toBe(true);
  } finally {
    await admin.close();
  }
});
