/**
 * Policy bundles checked at load, end to end: a gateway on the demo's warehouse whose
 * data-gate bundle and catalog-gate bundle both carry a stub service def
 * (`{"name":"hive"}`, `{"name":"polaris"}`, as some exports carry). Before: every table
 * 42P01 (hive) and every statement XX000 (polaris). Now each is given Apache Ranger's
 * def, said so in the log, and the demo's users read what the demo's policies give them.
 * Then the data-gate file is rewritten with a policy on an unknown resource type (which
 * also drops erin's row filter): refused, logged, counted, erin still filtered; the same
 * rewrite without the unknown resource (control) is taken and erin sees both rows.
 */
import { readFileSync, utimesSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { capturedLogger, type CapturedLogger } from '../fixtures/rangerAdmin/capturedLogger.js';
import { policyBundlesRefused } from '../../server/policies.js';
import { connect, rejection, sleep } from '../support/clients.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';
import { REPO_ROOT } from '../support/lakegate.js';

type Json = Record<string, unknown>;
const demoFile = (rel: string): Json => JSON.parse(readFileSync(join(REPO_ROOT, 'demo', rel), 'utf8')) as Json;

// The demo's rows (server/demo.ts seeds them): the masks computed here, not read from lakegate.
const ROWS = [
  { id: 1, ssn: '111-11-1111', amount: '100.00', region: 'EU' },
  { id: 2, ssn: '222-22-2222', amount: '250.50', region: 'US' },
];
const showLast4 = (ssn: string) => ssn.replace(/[0-9](?=.{4})/g, 'x');

let gateway: InProcessGateway;
let log: CapturedLogger;
let rangerFile: string;
let mtime = 1_700_000_000;

function writeBundle(file: string, json: Json) {
  writeFileSync(file, JSON.stringify(json));
  mtime += 10;
  utimesSync(file, mtime, mtime);
}

beforeAll(async () => {
  log = capturedLogger();
  gateway = await startInProcess(
    (dir) => {
      // The demo copies its polaris policies into DATA_DIR before this runs: stub that copy's def.
      const polarisFile = join(dir, 'data', 'policies', 'polaris', 'polaris.json');
      writeBundle(polarisFile, { ...demoFile('polaris/polaris.json'), serviceDef: { name: 'polaris' } });
      const rangerDir = join(dir, 'ranger');
      mkdirSync(rangerDir);
      copyFileSync(join(REPO_ROOT, 'demo', 'ranger', 'lakehouse_roles.json'), join(rangerDir, 'lakehouse_roles.json'));
      rangerFile = join(rangerDir, 'lakehouse.json');
      writeBundle(rangerFile, { ...demoFile('ranger/lakehouse.json'), serviceDef: { name: 'hive' } });
      return { ranger: { source: { kind: 'local', path: rangerDir, serviceName: 'lakehouse' }, refreshMs: 200, maxStalenessMs: 300_000 } };
    },
    { logger: log.logger },
  );
}, 120_000);

afterAll(async () => {
  await gateway?.stop();
});

async function as<T>(user: string, f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = await connect({ host: '127.0.0.1', port: gateway.server.port }, { user, password: user });
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}
const orders = (user: string) => as(user, async (c) => (await c.query('select id, ssn, amount, region from sales.orders order by id')).rows);

test('both stub defs replaced by Ranger\'s, each said in a log line', () => {
  const lines = log.records().filter((r) => r['event'] === 'policy-bundle');
  expect(lines.map((r) => [r['state'], r['source'], r['serviceType'], r['level']])).toEqual(
    expect.arrayContaining([
      ['stub-def-replaced', 'ranger', 'hive', 40],
      ['stub-def-replaced', 'polaris', 'polaris', 40],
    ]),
  );
});

test('the demo users read what the demo policies give them (carol the control)', async () => {
  expect(await orders('carol')).toEqual(ROWS);
  expect(await orders('alice')).toEqual(ROWS.map((r) => ({ ...r, ssn: showLast4(r.ssn) })));
  expect(await orders('erin')).toEqual(ROWS.filter((r) => r.region === 'EU').map((r) => ({ ...r, ssn: showLast4(r.ssn) })));
  const dave = await as('dave', (c) => rejection(c.query('select id from sales.orders')));
  expect([dave.code, dave.message]).toEqual(['42P01', 'relation "sales.orders" does not exist']);
});

test('a rewritten bundle using an unknown resource type is refused and the previous one still answers; the same rewrite without it is taken', async () => {
  const withoutErinsFilter = (extra: Json): Json => {
    const b = demoFile('ranger/lakehouse.json');
    const policies = (b['policies'] as Json[]).filter((p) => p['id'] !== 4);
    const first = policies[0]!;
    policies[0] = { ...first, resources: { ...(first['resources'] as Json), ...extra } };
    return { ...b, policyVersion: Number(b['policyVersion']) + 1, policies };
  };
  const refusedBefore = policyBundlesRefused().get('ranger') ?? 0;
  writeBundle(rangerFile, withoutErinsFilter({ schema: { values: ['sales'] } }));
  const deadline = Date.now() + 20_000;
  while ((policyBundlesRefused().get('ranger') ?? 0) === refusedBefore && Date.now() < deadline) await sleep(100);
  expect(policyBundlesRefused().get('ranger')).toBeGreaterThan(refusedBefore);
  const refusal = log.records().find((r) => r['event'] === 'policy-bundle' && r['state'] === 'refused');
  expect(refusal?.['msg']).toBe(
    'policy bundle of service "lakehouse" refused: policy 1 "everyone reads sales; the catalog gate decides who may load": resource type "schema" not in service def hive (the policy set in force stays)',
  );
  expect(await orders('erin')).toEqual(ROWS.filter((r) => r.region === 'EU').map((r) => ({ ...r, ssn: showLast4(r.ssn) })));

  writeBundle(rangerFile, withoutErinsFilter({}));
  let rows: unknown[] = [];
  while (Date.now() < deadline + 20_000) {
    rows = await orders('erin');
    if (rows.length === 2) break;
    await sleep(200);
  }
  expect(rows).toEqual(ROWS.map((r) => ({ ...r, ssn: showLast4(r.ssn) })));
}, 60_000);
