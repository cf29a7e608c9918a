/**
 * SQE's mask semantics where Ranger leaves a choice (issue 20, items 1 and 2),
 * end to end: in-process gateways over a DuckDB file of their own, policies
 * and roles from a local Ranger policies folder, node-postgres clients.
 *
 *  - A mask policy whose column resource is an exclusion list ("every column
 *    but email"): the users its item covers get no row (SQE fails closed),
 *    EXPLAIN (POLICY) names the policy, the audit trail records it. Controls:
 *    the same policy without the exclusion on an identical table masks as
 *    before; a user the item does not cover reads every row.
 *  - An unusable tag mask (CUSTOM without an expression, another component's
 *    type) next to a usable resource mask: the resource mask applies in both
 *    precedence modes; with no usable mask left the column is NULL. Control:
 *    the same column of an identical table without the tag.
 *
 * Expected values are written out here; MASK_HASH by Node's crypto.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { DuckDBInstance } from '@duckdb/node-api';
import type { AuthzAuditEvent } from '../../server/audit/event.js';
import { connect, rawTypes } from '../support/clients.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';
import { P, rangerRoles, servicePolicies } from '../support/rangerPolicies.js';

type Json = Record<string, unknown>;

const MASK_KEY = 'parity-suite-mask-key-7';
const hmac = (v: string) => createHmac('sha256', MASK_KEY).update(v, 'utf8').digest('hex');
const SERVICE = 'lakehouse';

/** alice and bob are analysts; the exclusion policy's item covers alice only. */
const ROLES = { analyst: ['alice', 'bob'] };

/** A MASK_HASH policy for alice on every column of `table` but email (excludes), or on email alone (no exclusion). */
function emailPolicy(name: string, table: string, excludes: boolean): Json {
  const p = P.mask(name, 'sales', table, 'email', [[{ users: ['alice'] }, 'MASK_HASH']]);
  return { ...p, resources: { database: { values: ['sales'] }, table: { values: [table] }, column: { values: ['email'], isExcludes: excludes } } };
}

const EXCLUDING = emailPolicy('people: every column but email', 'people', true);
const WITHOUT_EXCLUSION = emailPolicy('staff: email', 'staff', false);

function trinoTagMask(name: string, tag: string): Json {
  const p = P.tagMask(name, tag, [[{ roles: ['analyst'] }, 'MASK_NULL']]);
  (p['dataMaskPolicyItems'] as Json[])[0]!['dataMaskInfo'] = { dataMaskType: 'trino:MASK_NULL' };
  return p;
}

const POLICIES = [
  P.allow('analysts read sales', 'sales', '*', '*', { roles: ['analyst'] }),
  EXCLUDING,
  WITHOUT_EXCLUSION,
  // the same resource masks on orders (tagged) and orders_copy (untagged)
  ...['orders', 'orders_copy'].flatMap((t) => [
    P.mask(`${t}.ssn`, 'sales', t, 'ssn', [[{ roles: ['analyst'] }, 'MASK_HASH']]),
    P.mask(`${t}.card`, 'sales', t, 'card', [[{ roles: ['analyst'] }, 'MASK_SHOW_LAST_4']]),
  ]),
];

const TAG_POLICIES = [P.tagMask('PII custom without expression', 'PII', [[{ roles: ['analyst'] }, 'CUSTOM']]), trinoTagMask('LEGACY trino mask', 'LEGACY')];

/** ssn and note carry PII (CUSTOM, no expression), card LEGACY (trino:MASK_NULL); note has no resource mask. */
const COLUMN_TAGS = { 'sales.orders': { ssn: ['PII'], card: ['LEGACY'], note: ['PII'] } };

let dir: string;
let dataFile: string;
let policiesDir: string;
let tagsFile: string;
const gateways: InProcessGateway[] = [];
const clients: pg.Client[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-parity-'));
  dataFile = path.join(dir, 'warehouse.duckdb');
  policiesDir = path.join(dir, 'ranger');
  fs.mkdirSync(policiesDir);
  fs.writeFileSync(path.join(policiesDir, `${SERVICE}.json`), JSON.stringify(servicePolicies(SERVICE, POLICIES, TAG_POLICIES)));
  fs.writeFileSync(path.join(policiesDir, `${SERVICE}_roles.json`), JSON.stringify(rangerRoles(SERVICE, ROLES)));
  tagsFile = path.join(dir, 'column_tags.json');
  fs.writeFileSync(tagsFile, JSON.stringify(COLUMN_TAGS));
  const db = await DuckDBInstance.create(dataFile);
  const c = await db.connect();
  await c.run('CREATE SCHEMA sales');
  for (const t of ['people', 'staff']) {
    await c.run(`CREATE TABLE sales.${t} (id INTEGER, name VARCHAR, email VARCHAR)`);
    await c.run(`INSERT INTO sales.${t} VALUES (1, 'Ann Lee', 'ann@example.com'), (2, 'Bo Ng', 'bo@example.com')`);
  }
  for (const t of ['orders', 'orders_copy']) {
    await c.run(`CREATE TABLE sales.${t} (id INTEGER, ssn VARCHAR, card VARCHAR, note VARCHAR)`);
    await c.run(`INSERT INTO sales.${t} VALUES (1, '111-11-1111', '4111-2222', 'vip'), (2, '222-22-2222', '5555-6666', 'new')`);
  }
  c.closeSync();
  db.closeSync();
}, 60000);

afterEach(async () => {
  for (const c of clients.splice(0)) await c.end().catch(() => {});
});

afterAll(async () => {
  for (const g of gateways) await g.stop().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
});

async function gateway(maskPrecedence: 'tag' | 'resource', auditFile?: string): Promise<InProcessGateway> {
  const g = await startInProcess(() => ({
    catalog: undefined,
    databases: { demo: dataFile },
    ranger: { source: { kind: 'local', path: policiesDir, serviceName: SERVICE }, refreshMs: 60000, maxStalenessMs: 600000 },
    dataGate: { maskKey: MASK_KEY, maskPrecedence, columnTagsFile: tagsFile, fence: 'case' },
    ...(auditFile ? { audit: { destination: 'file', file: auditFile } } : {}),
  }));
  gateways.push(g);
  return g;
}

async function as(g: InProcessGateway, user: string): Promise<pg.Client> {
  const c = await connect(g.server, { user, password: user });
  clients.push(c);
  return c;
}

const rows = async (c: pg.Client, sql: string) => (await c.query({ text: sql, types: rawTypes, rowMode: 'array' })).rows as (string | null)[][];

function auditEvents(file: string): AuthzAuditEvent[] {
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as AuthzAuditEvent);
}

describe('a mask policy whose column resource excludes a column (SQE fails closed)', () => {
  let g: InProcessGateway;
  let auditFile: string;
  beforeAll(async () => {
    auditFile = path.join(dir, 'audit.jsonl');
    g = await gateway('tag', auditFile);
  }, 60000);

  test('alice, whom the policy item covers, gets no row — never the excluded email raw', async () => {
    const alice = await as(g, 'alice');
    expect(await rows(alice, 'SELECT id, name, email FROM sales.people ORDER BY id')).toEqual([]);
    expect(await rows(alice, 'SELECT count(*) FROM sales.people')).toEqual([['0']]);
    expect(await rows(alice, 'SELECT email FROM sales.people WHERE email IS NOT NULL')).toEqual([]);
  });

  test('control: the same policy without the exclusion masks email as before (MASK_HASH), every row shown', async () => {
    const alice = await as(g, 'alice');
    expect(await rows(alice, 'SELECT id, name, email FROM sales.staff ORDER BY id')).toEqual([
      ['1', 'Ann Lee', hmac('ann@example.com')],
      ['2', 'Bo Ng', hmac('bo@example.com')],
    ]);
  });

  test('control: bob, whom the policy item does not cover, reads every row as stored', async () => {
    const bob = await as(g, 'bob');
    expect(await rows(bob, 'SELECT id, name, email FROM sales.people ORDER BY id')).toEqual([
      ['1', 'Ann Lee', 'ann@example.com'],
      ['2', 'Bo Ng', 'bo@example.com'],
    ]);
  });

  test('EXPLAIN (POLICY) names the policy and why; the audit trail records it', async () => {
    const alice = await as(g, 'alice');
    const report = await rows(alice, 'EXPLAIN (POLICY) SELECT * FROM sales.people');
    const noRows = report.find((r) => r[2] === 'no rows');
    expect(noRows).toEqual([
      'sales.people',
      null,
      'no rows',
      String(EXCLUDING['id']),
      'people: every column but email',
      expect.stringContaining('excludes columns'),
    ]);
    // control: bob's report has no such row
    expect((await rows(await as(g, 'bob'), 'EXPLAIN (POLICY) SELECT * FROM sales.people')).some((r) => r[2] === 'no rows')).toBe(false);

    await rows(alice, 'SELECT id FROM sales.people');
    const end = Date.now() + 5000;
    let found: AuthzAuditEvent | undefined;
    while (!found && Date.now() < end) {
      found = auditEvents(auditFile).find((e) => e.reqUser === 'alice' && e.access === 'ROW_FILTER' && e.reqData === 'SELECT id FROM sales.people');
      if (!found) await new Promise((r) => setTimeout(r, 25));
    }
    expect(found).toMatchObject({ resource: 'sales/people', policy: EXCLUDING['id'], result: 1, reason: expect.stringContaining('excludes columns') });
  });
});

describe('an unusable tag mask next to a usable resource mask (SQE keeps the resource mask)', () => {
  test.each(['tag', 'resource'] as const)('maskPrecedence %s', async (precedence) => {
    const g = await gateway(precedence);
    const alice = await as(g, 'alice');
    // ssn: tag PII (CUSTOM, no expression) next to resource MASK_HASH → MASK_HASH; card: tag LEGACY (trino:MASK_NULL) next to
    // resource MASK_SHOW_LAST_4 → 'xxxx-2222'; note: tag PII and no resource mask → no usable mask left → NULL
    const expected = [
      ['1', hmac('111-11-1111'), 'xxxx-2222', null],
      ['2', hmac('222-22-2222'), 'xxxx-6666', null],
    ];
    expect(await rows(alice, 'SELECT id, ssn, card, note FROM sales.orders ORDER BY id')).toEqual(expected);
    // control: the same columns of an identical table without the tags
    expect(await rows(alice, 'SELECT id, ssn, card, note FROM sales.orders_copy ORDER BY id')).toEqual([
      ['1', hmac('111-11-1111'), 'xxxx-2222', 'vip'],
      ['2', hmac('222-22-2222'), 'xxxx-6666', 'new'],
    ]);
    const report = await rows(alice, 'EXPLAIN (POLICY) SELECT ssn, card, note FROM sales.orders');
    expect(report.filter((r) => r[1] !== null).map((r) => [r[1], r[2], r[4]])).toEqual([
      ['id', 'readable', null],
      ['ssn', 'mask MASK_HASH', 'orders.ssn'],
      ['card', 'mask MASK_SHOW_LAST_4', 'orders.card'],
      ['note', 'restricted', 'PII custom without expression'],
    ]);
  }, 60000);
});
