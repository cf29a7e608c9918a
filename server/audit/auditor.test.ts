/**
 * The events a statement's decisions become, on a real policy engine: the
 * policy ids are the ones the policies below carry, and the audit settings
 * (isAuditEnabled, audit filters, excluded users) decide what is written.
 */
import pino from 'pino';
import type { CatalogTable } from '../../sql/catalogView.js';
import { P, rangerRoles, servicePolicies } from '../../tests/support/rangerPolicies.js';
import { PolicyEngine } from '../../policy/ranger/engine.js';
import { parseRangerRoles, parseServicePolicies } from '../../policy/ranger/model.js';
import { RoleStore } from '../../policy/ranger/roles.js';
import { decideTable, type TableDecision } from '../../policy/rewrite/decide.js';
import type { AppliedTable } from '../../policy/rewrite/dataGate.js';
import { Auditor } from './auditor.js';
import type { AuthzAuditEvent } from './event.js';
import { loadRedactor } from './redact.js';
import type { AuditSink } from './sinks.js';

const ROLES = { analyst: ['alice', 'bob'], engineer: ['bob'] };

class Memory implements AuditSink {
  events: AuthzAuditEvent[] = [];
  dropped = 0;
  write(e: AuthzAuditEvent) {
    this.events.push(e);
  }
  async close() {}
}

const table: CatalogTable = {
  schema: 'sales',
  name: 'orders',
  columns: ['id', 'ssn', 'amount', 'region'].map((name) => ({ name, duckType: 'VARCHAR', nullable: true })),
  resource: { database: 'sales', table: 'orders' },
  scan: () => ({}),
};

function policies(opts: { maskAudited?: boolean; serviceConfig?: Record<string, string> } = {}) {
  const read = P.allow('analysts read sales', 'sales', '*', '*', { roles: ['analyst'] });
  const mask: Record<string, unknown> = { ...P.mask('ssn', 'sales', 'orders', 'ssn', [[{ roles: ['engineer'] }, 'MASK_HASH'], [{ roles: ['analyst'] }, 'MASK_SHOW_LAST_4']]), isAuditEnabled: opts.maskAudited ?? true };
  const filter = P.filter('bob EU', 'sales', 'orders', [[{ users: ['bob'] }, "region = 'EU'"]]);
  const doc = servicePolicies('lakehouse', [read, mask, filter]);
  if (opts.serviceConfig) doc['serviceConfig'] = opts.serviceConfig;
  const engine = new PolicyEngine(parseServicePolicies(doc, 'test'), { roles: new RoleStore(parseRangerRoles(rangerRoles('lakehouse', ROLES), 'test')) });
  return { engine, ids: { read: read['id'] as number, mask: mask['id'] as number, filter: filter['id'] as number } };
}

function run(engine: PolicyEngine, user: string, sql: string) {
  const roles = new Set(Object.entries(ROLES).filter(([, m]) => m.includes(user)).map(([r]) => r));
  const decision = decideTable(engine, { user, roles, groups: new Set() }, table, undefined, { maskPrecedence: 'tag' });
  const sink = new Memory();
  const audit = new Auditor([sink], { defaultRepo: 'lakehouse', log: pino({ level: 'silent' }) });
  const who = { user, clientIp: '10.0.0.7', sessionId: 77 };
  if (decision.visible) {
    const applied: AppliedTable = {
      table,
      decision,
      compiled: { subquery: { SelectStmt: {} }, unfenced: null, columns: decision.columns.map((c) => ({ name: c.name, state: c.mask ? 'masked' : 'raw' })), filterErrors: [], hasPolicyExpressions: false },
      fenced: false,
    };
    audit.statement(who, sql, { engine, applied: [applied, applied], hidden: [], unloaded: [] });
  } else {
    const hidden = { resource: table.resource, name: { schema: 'sales', name: 'orders' }, decision: decision as Extract<TableDecision, { visible: false }> };
    audit.statement(who, sql, { engine, applied: [], hidden: [hidden], unloaded: [], error: { code: '42P01', message: 'relation "sales.orders" does not exist' } });
  }
  return sink.events;
}

beforeAll(async () => {
  await loadRedactor();
});

test('a masked, filtered read: one select, one row filter, one mask event, each naming its policy', () => {
  const { engine, ids } = policies();
  const events = run(engine, 'bob', "select ssn from sales.orders where ssn = '111-11-1111'");
  const brief = events.map((e) => [e.access, e.resource, e.result, e.policy]);
  expect(brief).toEqual([
    ['select', 'sales/orders', 1, ids.read],
    ['ROW_FILTER', 'sales/orders', 1, ids.filter],
    ['MASK_HASH', 'sales/orders/ssn', 1, ids.mask],
  ]);
  for (const e of events) {
    expect(e).toMatchObject({ repo: 'lakehouse', reqUser: 'bob', cliIP: '10.0.0.7', sess: '77', enforcer: 'lakegate', reqData: 'select ssn from sales.orders where ssn = $1' });
    expect(JSON.stringify(e)).not.toContain('111-11-1111');
  }
});

test('a denied table: result 0 with the 42P01 the user got; control: alice reads it', () => {
  const { engine, ids } = policies();
  expect(run(engine, 'alice', 'select 1 from sales.orders').map((e) => [e.access, e.result, e.policy])).toEqual([
    ['select', 1, ids.read],
    ['MASK_SHOW_LAST_4', 1, ids.mask],
  ]);
  const denied = run(engine, 'dave', 'select 1 from sales.orders');
  expect(denied).toHaveLength(1);
  expect(denied[0]).toMatchObject({ reqUser: 'dave', access: 'select', resource: 'sales/orders', resType: '@table', result: 0, policy: -1 });
  expect(denied[0]!.reason).toContain('42P01');
});

test('a policy with isAuditEnabled false is not written; the others still are', () => {
  const { engine, ids } = policies({ maskAudited: false });
  expect(run(engine, 'bob', 'select 1 from sales.orders').map((e) => [e.access, e.policy])).toEqual([
    ['select', ids.read],
    ['ROW_FILTER', ids.filter],
  ]);
});

test('the service’s audit filters and excluded users decide access events', () => {
  const quietAllowed = policies({ serviceConfig: { 'ranger.plugin.audit.filters': "[{'accessResult': 'ALLOWED', 'isAudited': false}]" } });
  expect(run(quietAllowed.engine, 'alice', 'select 1 from sales.orders').map((e) => e.access)).toEqual(['MASK_SHOW_LAST_4']);
  // denials stay audited under that filter
  expect(run(quietAllowed.engine, 'dave', 'select 1 from sales.orders').map((e) => e.result)).toEqual([0]);
  const excluded = policies({ serviceConfig: { 'ranger.plugin.audit.exclude.users': 'dave' } });
  expect(run(excluded.engine, 'dave', 'select 1 from sales.orders')).toEqual([]);
  expect(run(excluded.engine, 'alice', 'select 1 from sales.orders').map((e) => e.access)).toEqual(['select', 'MASK_SHOW_LAST_4']);
});

test('logins, refusals and admin statements carry the redacted text and never the password', () => {
  const sink = new Memory();
  const audit = new Auditor([sink], { defaultRepo: 'lakehouse', log: pino({ level: 'silent' }) });
  audit.login({ user: 'alice', clientIp: '127.0.0.1' }, { database: 'demo', allowed: false, reason: 'authentication failed' });
  audit.refused({ user: 'alice', sessionId: 5 }, 'demo', "insert into sales.orders values (1, '999-99-9999')", 'INSERT', { code: '42501', message: 'permission denied: INSERT is not allowed through lakegate' });
  audit.adminStatement({ user: 'carol', statement: "SET TAG 'PII' ON COLUMN sales.orders.ssn", result: true, resource: 'sales/orders/ssn', resourceType: '@column', action: 'SET TAG', policyId: 9 });
  expect(sink.events.map((e) => [e.reqUser, e.access, e.action, e.result, e.resource, e.reqData])).toEqual([
    ['alice', 'login', 'login', 0, 'demo', null],
    ['alice', 'insert', 'INSERT', 0, 'demo', 'insert into sales.orders values ($1, $2)'],
    ['carol', 'set tag', 'SET TAG', 1, 'sales/orders/ssn', 'SET TAG $1 ON COLUMN sales.orders.ssn'],
  ]);
  expect(sink.events[2]!.policy).toBe(9);
  expect(JSON.stringify(sink.events)).not.toContain('999-99-9999');
});

test('an auditor without sinks writes nothing and costs nothing', () => {
  const audit = Auditor.off(pino({ level: 'silent' }));
  expect(audit.enabled).toBe(false);
  audit.login({ user: 'x' }, { database: 'demo', allowed: true });
  expect(audit.dropped).toBe(0);
});
