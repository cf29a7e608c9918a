/**
 * lakegate's Prometheus metrics, on a registry of its own (never prom-client's
 * global one, so two gateways in one process do not mix). Labels hold only
 * bounded values: statement kinds from PostgreSQL's command tags, SQLSTATE
 * classes, outcomes, method names of lakegate's own clients. No user value,
 * no query text and — unless `userLabels` is configured — no user name.
 */
import { readFileSync } from 'node:fs';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the data gate decided for one statement (from the audit record the planner builds). */
export interface GateSummary {
  /** tables read, each with the row filters, masks and restricted columns applied */
  tables: number;
  rowFilters: number;
  masks: number;
  restricted: number;
  /** tables the data gate hid or the catalog did not load (42P01 for the user) */
  denied: number;
}

export interface EngineSource {
  processes(): { pid: number | undefined }[];
}

/** Seconds: a catalog lookup is ms, a large scan minutes. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** Resident memory of a process in bytes (Linux /proc); 0 when unknown. */
export function residentBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The SQLSTATE class of an outcome ("00" for success), the only part of a code that is a label. */
export const sqlstateClass = (code: string | null): string => (code && /^[0-9A-Z]{5}$/.test(code) ? code.slice(0, 2) : code === null ? '00' : 'XX');

export class OpsMetrics {
  readonly registry = new Registry();
  private readonly sessions: Gauge;
  private readonly logins: Counter;
  private readonly statements: Counter;
  private readonly latency: Histogram;
  private readonly rows: Counter;
  private readonly gateTables: Counter;
  private readonly gateColumns: Counter;
  private readonly catalogDecisions: Counter;
  private readonly calls: Counter;
  private readonly callLatency: Histogram;
  private readonly policyLoads: Counter;
  private readonly reloads: Counter;
  private engine: EngineSource | null = null;

  constructor(private readonly opts: { userLabels?: boolean; processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    const userLabel = opts.userLabels ? ['user'] : [];
    this.sessions = new Gauge({ name: 'lakegate_sessions', help: 'Sessions open now', registers });
    this.logins = new Counter({ name: 'lakegate_logins_total', help: 'Logins by outcome (ok, refused)', labelNames: ['outcome'], registers });
    this.statements = new Counter({
      name: 'lakegate_statements_total',
      help: 'Statements by kind (command tag) and outcome (SQLSTATE class, 00 = success)',
      labelNames: ['kind', 'sqlstate_class', ...userLabel],
      registers,
    });
    this.latency = new Histogram({ name: 'lakegate_statement_duration_seconds', help: 'Statement duration, first message to completion', labelNames: ['kind'], buckets: LATENCY_BUCKETS, registers });
    this.rows = new Counter({ name: 'lakegate_statement_rows_total', help: 'Rows returned or changed by statements', labelNames: ['kind'], registers });
    this.gateTables = new Counter({
      name: 'lakegate_data_gate_tables_total',
      help: 'Tables the data gate decided on: read, or denied (hidden by the data gate or not loaded by the catalog gate: 42P01)',
      labelNames: ['decision'],
      registers,
    });
    this.gateColumns = new Counter({
      name: 'lakegate_data_gate_applied_total',
      help: 'Row filters, masks and column restrictions applied to statements',
      labelNames: ['kind'],
      registers,
    });
    this.catalogDecisions = new Counter({ name: 'lakegate_catalog_gate_decisions_total', help: 'Catalog gate (Polaris) authorizations by decision', labelNames: ['decision'], registers });
    this.calls = new Counter({ name: 'lakegate_backend_calls_total', help: 'Calls to the catalog and to the policy source by target, method and outcome', labelNames: ['target', 'method', 'outcome'], registers });
    this.callLatency = new Histogram({ name: 'lakegate_backend_call_duration_seconds', help: 'Latency of calls to the catalog and to the policy source', labelNames: ['target', 'method'], buckets: LATENCY_BUCKETS, registers });
    this.policyLoads = new Counter({ name: 'lakegate_policy_loads_total', help: 'Policy bundle loads by service role (data, catalog) and outcome', labelNames: ['gate', 'outcome'], registers });
    this.reloads = new Counter({ name: 'lakegate_config_reloads_total', help: 'Configuration reloads (SIGHUP) by outcome', labelNames: ['outcome'], registers });
    const engines = () => this.engine?.processes().flatMap((p) => (p.pid === undefined ? [] : [p.pid])) ?? [];
    new Gauge({
      name: 'lakegate_engine_processes',
      help: 'Engine (DuckDB) processes running',
      registers,
      collect() {
        this.set(engines().length);
      },
    });
    new Gauge({
      name: 'lakegate_engine_memory_bytes',
      help: 'Resident memory of all engine processes together',
      registers,
      collect() {
        this.set(engines().reduce((sum, pid) => sum + residentBytes(pid), 0));
      },
    });
    if (opts.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  watchEngine(engine: EngineSource): void {
    this.engine = engine;
  }

  sessionOpened(): void {
    this.sessions.inc();
  }

  sessionClosed(): void {
    this.sessions.dec();
  }

  login(ok: boolean): void {
    this.logins.inc({ outcome: ok ? 'ok' : 'refused' });
  }

  statement(s: { kind: string; sqlstate: string | null; seconds: number; rows: number | null; user: string }): void {
    const kind = s.kind;
    this.statements.inc({ kind, sqlstate_class: sqlstateClass(s.sqlstate), ...(this.opts.userLabels ? { user: s.user } : {}) });
    this.latency.observe({ kind }, s.seconds);
    if (s.rows !== null && s.rows > 0) this.rows.inc({ kind }, s.rows);
  }

  gate(g: GateSummary): void {
    if (g.tables > 0) this.gateTables.inc({ decision: 'read' }, g.tables);
    if (g.denied > 0) this.gateTables.inc({ decision: 'denied' }, g.denied);
    if (g.rowFilters > 0) this.gateColumns.inc({ kind: 'row_filter' }, g.rowFilters);
    if (g.masks > 0) this.gateColumns.inc({ kind: 'mask' }, g.masks);
    if (g.restricted > 0) this.gateColumns.inc({ kind: 'restricted' }, g.restricted);
  }

  catalogDecision(allowed: boolean): void {
    this.catalogDecisions.inc({ decision: allowed ? 'allow' : 'deny' });
  }

  call(target: 'catalog' | 'ranger', method: string, seconds: number, ok: boolean): void {
    this.calls.inc({ target, method, outcome: ok ? 'ok' : 'error' });
    this.callLatency.observe({ target, method }, seconds);
  }

  policyLoad(gate: 'data' | 'catalog', ok: boolean): void {
    this.policyLoads.inc({ gate, outcome: ok ? 'ok' : 'error' });
  }

  reload(ok: boolean): void {
    this.reloads.inc({ outcome: ok ? 'ok' : 'refused' });
  }
}
