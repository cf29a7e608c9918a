/** An access-control statement's events: one per polaris-service resource written, and with projectWrites one per data-gate resource, on that service. */
import pino from 'pino';
import { adminAuditTrail } from './adminTrail.js';
import { Auditor } from './auditor.js';
import type { AuthzAuditEvent } from './event.js';
import { loadRedactor } from './redact.js';
import type { AuditSink } from './sinks.js';

class Memory implements AuditSink {
  events: AuthzAuditEvent[] = [];
  dropped = 0;
  write(e: AuthzAuditEvent) {
    this.events.push(e);
  }
  async close() {}
}

beforeAll(() => loadRedactor());

test('GRANT INSERT written to both gates: the polaris levels, then the data gate\'s table on its own repo', () => {
  const sink = new Memory();
  const trail = adminAuditTrail(new Auditor([sink], { defaultRepo: 'polaris', log: pino({ level: 'silent' }) }));
  trail.statement({
    action: 'GRANT',
    user: 'carol',
    statement: 'GRANT INSERT ON sales.orders TO dave',
    allowed: true,
    reason: 'done',
    resources: ['lake', 'lake.sales', 'lake.sales.orders'],
    policyIds: [4, 1, 2],
    dataGate: { service: 'lakehouse', resources: ['sales.orders', 'sales'] },
    time: new Date(0),
  });
  expect(sink.events.map((e) => [e.repo, e.resource, e.resType, e.action, e.result])).toEqual([
    ['polaris', 'lake', '@catalog', 'GRANT', 1],
    ['polaris', 'lake/sales', '@namespace', 'GRANT', 1],
    ['polaris', 'lake/sales/orders', '@table', 'GRANT', 1],
    ['lakehouse', 'sales/orders', '@table', 'GRANT', 1],
    ['lakehouse', 'sales', '@database', 'GRANT', 1],
  ]);
});
