import { EventFactory, rangerTime } from './event.js';

/** AuthzAuditEvent's Gson names (apache/ranger agents-audit AuthzAuditEvent.java), written out here. */
const RANGER_KEYS = [
  'repoType', 'repo', 'reqUser', 'evtTime', 'access', 'resource', 'resType', 'action', 'result', 'agent', 'policy', 'reason',
  'enforcer', 'sess', 'cliType', 'cliIP', 'reqData', 'agentHost', 'logType', 'id', 'seq_num', 'event_count', 'event_dur_ms',
  'tags', 'additional_info', 'cluster_name', 'zone_name', 'policy_version',
];

test('an event has exactly Ranger’s keys, lakegate as enforcer, and a sequence', () => {
  const f = new EventFactory('lakegate', 'prod');
  const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 67));
  const a = f.make({ repo: 'lakehouse', repoType: 3, reqUser: 'alice', access: 'select', resource: 'sales/orders', resType: '@table', action: 'select', allowed: true, policyId: 1, policyVersion: 2, tags: ['PII', 'A', 'PII'], clientIp: '127.0.0.1', sessionId: '42', reqData: 'select $1' }, at);
  const b = f.make({ repo: 'lakehouse', reqUser: 'dave', access: 'select', resource: 'sales/orders', resType: '@table', action: 'select', allowed: false });
  expect(Object.keys(a).sort()).toEqual([...RANGER_KEYS].sort());
  expect(a).toMatchObject({
    repoType: 3, repo: 'lakehouse', reqUser: 'alice', evtTime: '2026-01-02 03:04:05.067', access: 'select', resource: 'sales/orders',
    resType: '@table', action: 'select', result: 1, policy: 1, policy_version: 2, enforcer: 'lakegate', agent: 'lakegate', cliIP: '127.0.0.1',
    sess: '42', reqData: 'select $1', logType: 'RangerAudit', event_count: 1, cluster_name: 'prod', tags: ['A', 'PII'],
  });
  expect(b).toMatchObject({ result: 0, policy: -1, reason: null, policy_version: null, repoType: 0 });
  expect(b.seq_num).toBe(a.seq_num + 1);
  expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
  expect(a.id).not.toBe(b.id);
  expect(JSON.parse(JSON.stringify(a))).toEqual(a);
});

test('evtTime is Ranger’s Gson date format in UTC', () => {
  const d = new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 1));
  expect(rangerTime(d)).toBe('1999-12-31 23:59:59.001');
});
