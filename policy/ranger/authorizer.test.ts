/**
 * The decision path end to end: Ranger Admin test server → admin client → policy
 * cache → compiled engine → authorizer. Proves each cache state fails closed:
 * never loaded and expired answer "no access, column NULL, no rows"; loaded and
 * stale (within the allowed staleness) answer from the policies; a flush after a
 * policy change answers from the new set at once.
 */
import { capturedLogger } from '../../tests/fixtures/rangerAdmin/capturedLogger.js';
import { rangerAdminPerTest } from '../../tests/fixtures/rangerAdmin/harness.js';
import { MASK_NULL, NO_ROWS_FILTER, RangerAuthorizer } from './authorizer.js';
import { PolicyCache } from './cache.js';
import { compileSnapshot } from './compile.js';
import type { AccessRequest } from './request.js';
import { RangerAdminClient } from './sources/adminClient.js';

const HIVE_DEF = {
  name: 'hive',
  resources: [
    { name: 'database', level: 10, matcherOptions: { wildCard: true, ignoreCase: true } },
    { name: 'table', level: 20, parent: 'database', matcherOptions: { wildCard: true, ignoreCase: true } },
    { name: 'column', level: 30, parent: 'table', matcherOptions: { wildCard: true, ignoreCase: true } },
  ],
  accessTypes: [{ name: 'select' }, { name: 'update' }],
  dataMaskDef: {
    accessTypes: [{ name: 'select' }],
    resources: [
      { name: 'database', matcherOptions: { wildCard: 'false' } },
      { name: 'table', matcherOptions: { wildCard: 'false' } },
      { name: 'column', matcherOptions: { wildCard: 'false' } },
    ],
    maskTypes: [
      { name: 'MASK_HASH', transformer: 'mask_hash({col})' },
      { name: 'MASK_NULL' },
    ],
  },
  rowFilterDef: {
    accessTypes: [{ name: 'select' }],
    resources: [
      { name: 'database', matcherOptions: { wildCard: 'false' } },
      { name: 'table', matcherOptions: { wildCard: 'false' } },
    ],
  },
};

const server = rangerAdminPerTest({
  serviceName: 'lakehouse',
  serviceDef: HIVE_DEF,
  users: { lakegate: { password: 'pw-authorizer' }, admin: { password: 'admin-pw', admin: true } },
  downloadUsers: ['lakegate'],
});

let clock = 0;
beforeEach(() => {
  clock = 5_000_000;
});

const TTL = 1_000;
const MAX_STALE = 10_000;

function authorizer() {
  const source = new RangerAdminClient({ url: server().url, serviceName: 'lakehouse', username: 'lakegate', password: 'pw-authorizer', timeoutMs: 1000, retries: 0 });
  const cache = new PolicyCache({
    source,
    compile: (s) => compileSnapshot(s),
    ttlMs: TTL,
    maxStalenessMs: MAX_STALE,
    logger: capturedLogger().logger,
    now: () => clock,
  });
  return { cache, authz: new RangerAuthorizer(cache) };
}

const post = (body: Record<string, unknown>) => server().store.createPolicy({ service: 'lakehouse', ...body }, 'admin')['id'] as number;

function postGovernance() {
  const access = post({
    name: 'sales tables',
    resources: { database: { values: ['sales'] }, table: { values: ['*'] }, column: { values: ['*'] } },
    policyItems: [{ accesses: [{ type: 'select' }], users: ['alice'] }],
  });
  const mask = post({
    name: 'hash ssn',
    policyType: 1,
    resources: { database: { values: ['sales'] }, table: { values: ['customers'] }, column: { values: ['ssn'] } },
    dataMaskPolicyItems: [{ accesses: [{ type: 'select' }], users: ['alice'], dataMaskInfo: { dataMaskType: 'MASK_HASH' } }],
  });
  const filter = post({
    name: 'eu rows',
    policyType: 2,
    resources: { database: { values: ['sales'] }, table: { values: ['customers'] } },
    rowFilterPolicyItems: [{ accesses: [{ type: 'select' }], users: ['alice'], rowFilterInfo: { filterExpr: "region = 'EU'" } }],
  });
  return { access, mask, filter };
}

const req = (user: string, resource: Record<string, string>): AccessRequest => ({ resource, accessType: 'select', user, userGroups: new Set() });
const table = (user: string) => req(user, { database: 'sales', table: 'customers' });
const ssn = (user: string) => req(user, { database: 'sales', table: 'customers', column: 'ssn' });

function expectClosed(authz: RangerAuthorizer) {
  expect(authz.ready).toBe(false);
  const a = authz.checkAccess(table('alice'));
  expect(a.isAllowed).toBe(false);
  expect(a.isAccessDetermined).toBe(true);
  expect(authz.dataMask(ssn('alice')).maskType).toBe(MASK_NULL);
  expect(authz.rowFilter(table('alice')).filterExpr).toBe(NO_ROWS_FILTER);
}

test('never loaded (Ranger Admin down from the start): no access, columns NULL, no rows', async () => {
  postGovernance();
  server().setFaults({ down: true });
  const { cache, authz } = authorizer();
  await cache.refresh();
  expect(cache.state).toBe('never-loaded');
  expectClosed(authz);
});

test('loaded: access, mask and row filter come from the posted policies', async () => {
  const ids = postGovernance();
  const { cache, authz } = authorizer();
  await cache.refresh();
  expect(authz.ready).toBe(true);

  const allowed = authz.checkAccess(table('alice'));
  expect(allowed).toMatchObject({ isAllowed: true, policyId: ids.access });
  // Control: the same table for a user no policy names.
  expect(authz.checkAccess(table('mallory')).isAllowed).toBe(false);

  const mask = authz.dataMask(ssn('alice'));
  expect(mask).toMatchObject({ maskType: 'MASK_HASH', transformer: 'mask_hash({col})', policyId: ids.mask });
  expect(authz.dataMask(req('alice', { database: 'sales', table: 'customers', column: 'name' })).maskType).toBeNull();

  const filter = authz.rowFilter(table('alice'));
  expect(filter).toMatchObject({ filterExpr: "region = 'EU'", policyId: ids.filter });
  expect(authz.rowFilter(table('bob')).filterExpr).toBeNull();
});

test('stale within the allowed staleness keeps answering; past it, everything is closed again', async () => {
  const ids = postGovernance();
  const { cache, authz } = authorizer();
  await cache.refresh();
  server().setFaults({ down: true });

  clock += MAX_STALE - 1;
  await cache.refresh();
  expect(cache.state).toBe('stale');
  expect(authz.checkAccess(table('alice'))).toMatchObject({ isAllowed: true, policyId: ids.access });

  clock += 2;
  expect(cache.state).toBe('expired');
  expectClosed(authz);
});

test('a policy change is served as soon as flush() resolves (what GRANT / REVOKE will call)', async () => {
  postGovernance();
  const { cache, authz } = authorizer();
  await cache.refresh();
  expect(authz.checkAccess(table('bob')).isAllowed).toBe(false);

  const grant = post({
    name: 'bob reads customers',
    resources: { database: { values: ['sales'] }, table: { values: ['customers'] }, column: { values: ['*'] } },
    policyItems: [{ accesses: [{ type: 'select' }], users: ['bob'] }],
  });
  await cache.flush();
  expect(authz.checkAccess(table('bob'))).toMatchObject({ isAllowed: true, policyId: grant });
});
