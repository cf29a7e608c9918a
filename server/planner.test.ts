/** The planner's plan cache: a plan is reused only while everything it folded in is unchanged. */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import pino from 'pino';
import { compileSnapshot } from '../policy/ranger/compile.js';
import type { PolicyEngine } from '../policy/ranger/engine.js';
import { parseServicePolicies } from '../policy/ranger/model.js';
import { loadParser, parseStatements, parseStatementsUncached } from '../sql/parse.js';
import { P, servicePolicies } from '../tests/support/rangerPolicies.js';
import { parseConfig } from './config.js';
import { createPlanner } from './planner.js';
import { duckSql } from '../tests/support/demoEngine.js';
import type { PlanContext, QueryPlanner } from './queryPlan.js';

let instance: DuckDBInstance;
let admin: DuckDBConnection;
let planner: QueryPlanner;
let engine: PolicyEngine | null;

const engineWith = (filter: string) =>
  compileSnapshot({
    policies: parseServicePolicies(servicePolicies('s', [P.allow('all', 'sales', '*', '*', { users: ['alice', 'bob'] }), P.filter('f', 'sales', 'orders', [[{ users: ['alice'] }, filter]])]), 't'),
    roles: { rangerRoles: [] },
    tags: null,
    userStore: null,
    versions: { policyVersion: 1, roleVersion: 1, tagVersion: null, userStoreVersion: null },
  });

const settings: Record<string, string> = { application_name: 'a' };
const ctx = (over: Partial<PlanContext> = {}): PlanContext => ({
  database: 'demo',
  user: 'alice',
  roles: [],
  groups: [],
  searchPath: ['sales'],
  settings: (n) => settings[n],
  backendPid: 1,
  ...over,
});

beforeAll(async () => {
  await loadParser();
  instance = await DuckDBInstance.create(':memory:');
  admin = await instance.connect();
  await admin.run(`ATTACH ':memory:' AS demo`);
  await admin.run('CREATE SCHEMA demo.sales');
  await admin.run('CREATE TABLE demo.sales.orders (id INTEGER, region VARCHAR)');
  engine = engineWith("region = 'EU'");
  planner = await createPlanner(duckSql(admin), parseConfig({ databases: { demo: ':memory:' }, usersFile: 'x' }), { policies: { current: () => engine }, log: pino({ level: 'silent' }) });
});

afterAll(() => {
  admin.closeSync();
  instance.closeSync();
});

const stmt = (sql: string) => parseStatements(sql)[0]!;

describe('plan cache', () => {
  it('reuses the plan of a statement seen before, for the same user and context', async () => {
    const a = await planner.plan(stmt('SELECT id FROM orders'), ctx());
    expect(await planner.plan(stmt('SELECT id FROM orders'), ctx())).toBe(a);
    expect(a.sql).toContain("'EU'");
    // another user, another search_path, another session: planned on their own
    const bob = await planner.plan(stmt('SELECT id FROM orders'), ctx({ user: 'bob' }));
    expect(bob).not.toBe(a);
    expect(bob.sql).not.toContain("'EU'");
    expect(await planner.plan(stmt('SELECT id FROM orders'), ctx({ backendPid: 2 }))).not.toBe(a);
  });

  it('a new policy set is never served from the cache', async () => {
    const before = await planner.plan(stmt('SELECT count(*) FROM orders'), ctx());
    engine = engineWith("region = 'US'");
    expect(before.valid()).toBe(false);
    const after = await planner.plan(stmt('SELECT count(*) FROM orders'), ctx());
    expect(after).not.toBe(before);
    expect(after.sql).toContain("'US'");
  });

  it('a setting the plan read is compared again; a different tree of the same text is planned again', async () => {
    const a = await planner.plan(stmt("SELECT current_setting('application_name')"), ctx());
    settings['application_name'] = 'b';
    const b = await planner.plan(stmt("SELECT current_setting('application_name')"), ctx());
    expect(b).not.toBe(a);
    expect(b.sql).toContain("'b'");
    const again = parseStatementsUncached("SELECT current_setting('application_name')")[0]!;
    expect(await planner.plan(again, ctx())).not.toBe(b);
  });
});
