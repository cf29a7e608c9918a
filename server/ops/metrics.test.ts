/**
 * The metrics registry: what each event adds, the exposition format Prometheus
 * reads, and labels that stay bounded (no user unless configured, unknown
 * SQLSTATEs folded).
 */
import { OpsMetrics, sqlstateClass } from './metrics.js';

const sample = (text: string, line: string) => text.split('\n').find((l) => l.startsWith(line + ' '))?.slice(line.length + 1);

describe('OpsMetrics', () => {
  it('counts statements by kind and SQLSTATE class, with their latency and rows', async () => {
    const m = new OpsMetrics({ processMetrics: false });
    m.statement({ kind: 'SELECT', sqlstate: null, seconds: 0.003, rows: 2, user: 'alice' });
    m.statement({ kind: 'SELECT', sqlstate: '42P01', seconds: 0.2, rows: null, user: 'dave' });
    m.statement({ kind: 'INSERT', sqlstate: null, seconds: 0.04, rows: 5, user: 'bob' });
    const text = await m.render();
    expect(sample(text, 'lakegate_statements_total{kind="SELECT",sqlstate_class="00"}')).toBe('1');
    expect(sample(text, 'lakegate_statements_total{kind="SELECT",sqlstate_class="42"}')).toBe('1');
    expect(sample(text, 'lakegate_statements_total{kind="INSERT",sqlstate_class="00"}')).toBe('1');
    expect(sample(text, 'lakegate_statement_rows_total{kind="SELECT"}')).toBe('2');
    expect(sample(text, 'lakegate_statement_rows_total{kind="INSERT"}')).toBe('5');
    // 0.003 s falls in the 0.005 bucket, not in 0.001; 0.2 s in 0.25
    expect(sample(text, 'lakegate_statement_duration_seconds_bucket{le="0.001",kind="SELECT"}')).toBe('0');
    expect(sample(text, 'lakegate_statement_duration_seconds_bucket{le="0.005",kind="SELECT"}')).toBe('1');
    expect(sample(text, 'lakegate_statement_duration_seconds_bucket{le="0.25",kind="SELECT"}')).toBe('2');
    expect(sample(text, 'lakegate_statement_duration_seconds_count{kind="SELECT"}')).toBe('2');
    expect(text).not.toMatch(/alice|dave|bob/);
    expect(m.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it('labels statements with the user only when configured', async () => {
    const m = new OpsMetrics({ processMetrics: false, userLabels: true });
    m.statement({ kind: 'SELECT', sqlstate: null, seconds: 0.01, rows: 1, user: 'alice' });
    expect(sample(await m.render(), 'lakegate_statements_total{kind="SELECT",sqlstate_class="00",user="alice"}')).toBe('1');
  });

  it('keeps sessions as a gauge and logins, gate decisions, calls, loads and reloads as counters', async () => {
    const m = new OpsMetrics({ processMetrics: false });
    m.sessionOpened();
    m.sessionOpened();
    m.sessionClosed();
    m.login(true);
    m.login(false);
    m.login(false);
    m.gate({ tables: 2, rowFilters: 1, masks: 3, restricted: 0, denied: 1 });
    m.catalogDecision(false);
    m.call('catalog', 'loadTable', 0.02, true);
    m.call('ranger', 'fetch', 1.5, false);
    m.policyLoad('data', true);
    m.reload(false);
    const text = await m.render();
    expect(sample(text, 'lakegate_sessions')).toBe('1');
    expect(sample(text, 'lakegate_logins_total{outcome="ok"}')).toBe('1');
    expect(sample(text, 'lakegate_logins_total{outcome="refused"}')).toBe('2');
    expect(sample(text, 'lakegate_data_gate_tables_total{decision="read"}')).toBe('2');
    expect(sample(text, 'lakegate_data_gate_tables_total{decision="denied"}')).toBe('1');
    expect(sample(text, 'lakegate_data_gate_applied_total{kind="row_filter"}')).toBe('1');
    expect(sample(text, 'lakegate_data_gate_applied_total{kind="mask"}')).toBe('3');
    expect(sample(text, 'lakegate_data_gate_applied_total{kind="restricted"}')).toBeUndefined();
    expect(sample(text, 'lakegate_catalog_gate_decisions_total{decision="deny"}')).toBe('1');
    expect(sample(text, 'lakegate_backend_calls_total{target="catalog",method="loadTable",outcome="ok"}')).toBe('1');
    expect(sample(text, 'lakegate_backend_calls_total{target="ranger",method="fetch",outcome="error"}')).toBe('1');
    expect(sample(text, 'lakegate_backend_call_duration_seconds_bucket{le="1",target="ranger",method="fetch"}')).toBe('0');
    expect(sample(text, 'lakegate_backend_call_duration_seconds_bucket{le="2.5",target="ranger",method="fetch"}')).toBe('1');
    expect(sample(text, 'lakegate_policy_loads_total{gate="data",outcome="ok"}')).toBe('1');
    expect(sample(text, 'lakegate_config_reloads_total{outcome="refused"}')).toBe('1');
  });

  it('reads the engine processes and their resident memory when scraped', async () => {
    const m = new OpsMetrics({ processMetrics: false });
    expect(sample(await m.render(), 'lakegate_engine_processes')).toBe('0');
    // this test's own process stands in for an engine: its VmRSS is more than 1 MB
    m.watchEngine({ processes: () => [{ pid: process.pid }, { pid: undefined }] });
    const text = await m.render();
    expect(sample(text, 'lakegate_engine_processes')).toBe('1');
    expect(Number(sample(text, 'lakegate_engine_memory_bytes'))).toBeGreaterThan(2 ** 20);
  });

  it('adds the process metrics to a registry of its own, so two gateways do not collide', async () => {
    const a = new OpsMetrics();
    const b = new OpsMetrics();
    a.login(true);
    expect(await a.render()).toContain('process_cpu_user_seconds_total');
    expect(sample(await b.render(), 'lakegate_logins_total{outcome="ok"}')).toBeUndefined();
  });
});

test('sqlstateClass: a class for every code, unknown ones as XX', () => {
  expect(sqlstateClass(null)).toBe('00');
  expect(sqlstateClass('42P01')).toBe('42');
  expect(sqlstateClass('57014')).toBe('57');
  expect(sqlstateClass('bogus; drop')).toBe('XX');
});
