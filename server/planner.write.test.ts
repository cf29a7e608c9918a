/**
 * planner.planWrite: a write planned as the session's user over the
 * database's catalog, and its audit trail in Ranger's audit JSON — one event
 * per access check (the hive access type, the resource, allowed or refused,
 * the rows changed in additional_info), the tables it read as a query's
 * reads are audited; a refused write audited at once. Reads see the
 * session's temporary tables, and a plan made without them is not served
 * once they exist.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import pino from 'pino';
import { compileSnapshot } from '../policy/ranger/compile.js';
import { parseServicePolicies } from '../policy/ranger/model.js';
import { loadParser, parseStatements } from '../sql/parse.js';
import type { TempTable, WriteSession } from '../sql/write/plan.js';
import { P, servicePolicies } from '../tests/support/rangerPolicies.js';
import { duckSql } from '../tests/support/demoEngine.js';
import { Auditor } from './audit/auditor.js';
import type { AuthzAuditEvent } from './audit/event.js';
import { loadRedactor } from './audit/redact.js';
import type { AuditSink } from './audit/sinks.js';
import { parseConfig } from './config.js';
import { createPlanner, type Planner } from './planner.js';
import type { PlanContext } from './queryPlan.js';

class Memory implements AuditSink {
  events: AuthzAuditEvent[] = [];
  dropped = 0;
  write(e: AuthzAuditEvent) {
    this.events.push(e);
  }
  async close() {}
}

let instance: DuckDBInstance;
let admin: DuckDBConnection;
let planner: Planner;
const sink = new Memory();
let temps: TempTable[] = [];

const engine = compileSnapshot({
  policies: parseServicePolicies(
    servicePolicies('lakehouse', [
      P.allow('alice writes sales', 'sales', '*', '*', { users: ['alice'] }, { accesses: ['select', 'update', 'create'] }),
      P.allow('bob reads sales', 'sales', '*', '*', { users: ['bob'] }),
      P.mask('ssn hidden from alice', 'sales', 'orders', 'ssn', [[{ users: ['alice'] }, 'MASK_NULL']]),
    ]),
    't',
  ),
  roles: { rangerRoles: [] },
  tags: null,
  userStore: null,
  versions: { policyVersion: 1, roleVersion: 1, tagVersion: null, userStoreVersion: null },
});

const ctx = (user: string): PlanContext & WriteSession => ({
  database: 'demo',
  user,
  roles: [],
  groups: [],
  searchPath: ['sales'],
  settings: () => undefined,
  backendPid: 31,
  clientAddress: '10.0.0.9',
  writeAlias: 'lg_write_31',
  tempTables: () => temps,
});

beforeAll(async () => {
  await loadParser();
  await loadRedactor();
  instance = await DuckDBInstance.create(':memory:');
  admin = await instance.connect();
  await admin.run(`ATTACH ':memory:' AS demo`);
  await admin.run('CREATE SCHEMA demo.sales');
  await admin.run('CREATE TABLE demo.sales.orders (id INTEGER, ssn VARCHAR, region VARCHAR)');
  await admin.run('CREATE TABLE demo.sales.copy (id INTEGER, ssn VARCHAR, region VARCHAR)');
  const audit = new Auditor([sink], { defaultRepo: 'lakegate', log: pino({ level: 'silent' }) });
  planner = await createPlanner(duckSql(admin), parseConfig({ databases: { demo: ':memory:' }, usersFile: 'x' }), { policies: { current: () => engine }, log: pino({ level: 'silent' }), audit });
});

afterAll(() => {
  admin.closeSync();
  instance.closeSync();
});

const stmt = (sql: string) => parseStatements(sql)[0]!;

describe('planWrite', () => {
  it('plans against the attached catalog: the target by its engine name, what it reads gated', async () => {
    const plan = await planner.planWrite(stmt('insert into copy select * from orders'), ctx('alice'));
    expect(plan).toMatchObject({ kind: 'engine', tag: 'INSERT', counts: true, target: { kind: 'iceberg', namespace: ['sales'], name: 'copy', engineName: '"lg_write_31"."sales"."copy"' } });
    if (plan.kind !== 'engine') throw new Error('engine plan');
    expect(plan.sql).toMatch(/^INSERT INTO lg_write_31\.sales\.copy SELECT orders\.id AS id, orders\.ssn AS ssn, orders\.region AS region FROM \( SELECT lg_src\.id AS id, NULL::varchar AS ssn, lg_src\.region AS region FROM demo\.sales\.orders AS lg_src \) AS orders$/);
  });

  it('audits each check once the write is done: access type, resource, the rows in additional_info, and the reads', async () => {
    sink.events = [];
    const plan = await planner.planWrite(stmt("insert into copy (id, region) select id, region from orders where region = 'EU'"), ctx('alice'));
    expect(sink.events).toEqual([]);
    plan.audit?.({ rows: 2 });
    const write = sink.events.filter((e) => e.access === 'update');
    expect(write).toEqual([
      expect.objectContaining({ reqUser: 'alice', repo: 'lakehouse', access: 'update', resource: 'sales/copy', resType: '@table', action: 'INSERT', result: 1, cliIP: '10.0.0.9', sess: '31', additional_info: '{"rows":2}', reqData: 'insert into copy (id, region) select id, region from orders where region = $1' }),
    ]);
    expect(sink.events.filter((e) => e.access === 'select').map((e) => [e.resource, e.result])).toEqual([['sales/orders', 1]]);
  });

  it('a failed write is audited as allowed by the policies, its error as the reason', async () => {
    sink.events = [];
    const plan = await planner.planWrite(stmt('create table fresh (id int)'), ctx('alice'));
    plan.audit?.({ rows: null, error: { code: '40001', message: 'could not serialize access due to concurrent update' } });
    expect(sink.events.map((e) => [e.access, e.resource, e.resType, e.action, e.result, e.reason])).toEqual([
      ['create', 'sales', '@database', 'CREATE TABLE', 1, '40001: could not serialize access due to concurrent update'],
      ['create', 'sales/fresh', '@table', 'CREATE TABLE', 1, '40001: could not serialize access due to concurrent update'],
    ]);
  });

  it('a refused write is audited at once (result 0, the refusal as reason); alice, allowed, is the control', async () => {
    sink.events = [];
    await expect(planner.planWrite(stmt("insert into copy values (1, 'x', 'EU')"), ctx('bob'))).rejects.toMatchObject({ code: '42501', message: 'permission denied for table copy' });
    expect(sink.events.map((e) => [e.reqUser, e.access, e.resource, e.action, e.result, e.reason])).toEqual([
      ['bob', 'update', 'sales/copy', 'INSERT', 0, '42501: permission denied for table copy'],
    ]);
    await expect(planner.planWrite(stmt("insert into copy values (1, 'x', 'EU')"), ctx('alice'))).resolves.toMatchObject({ kind: 'engine' });
  });

  it('a write refused before any check (a relation that is not there): a refusal event', async () => {
    sink.events = [];
    await expect(planner.planWrite(stmt('insert into nope values (1)'), ctx('alice'))).rejects.toMatchObject({ code: '42P01' });
    expect(sink.events.map((e) => [e.reqUser, e.access, e.resType, e.action, e.result, e.reason])).toEqual([
      ['alice', 'insert', '@database', 'INSERT', 0, '42P01: relation "nope" does not exist'],
    ]);
  });
});

describe('reads and temporary tables', () => {
  it('a temporary table shadows the table of its name, and a plan made before it is not served after', async () => {
    temps = [];
    const before = await planner.plan(stmt('select id from orders'), ctx('alice'));
    expect(before.sql).toContain('demo.sales.orders');
    temps = [{ name: 'orders', columns: [{ name: 'id', duckType: 'INTEGER', nullable: true }] }];
    const after = await planner.plan(stmt('select id from orders'), ctx('alice'));
    expect(after.sql).toBe('SELECT id FROM ( SELECT id AS id FROM temp.main.orders ) AS orders(id)');
    temps = [];
    expect((await planner.plan(stmt('select id from orders'), ctx('alice'))).sql).toContain('demo.sales.orders');
  });
});
