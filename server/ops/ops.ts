/**
 * Operations for one gateway: the metrics registry, readiness, the statement
 * watch, the admin listener when configured, and the hooks the gateway hands
 * to its parts (auditor, policy sources, catalog client, sessions).
 */
import type { Logger } from 'pino';
import type { QuerySession } from '../../protocol/handler.js';
import type { Auditor } from '../audit/auditor.js';
import { loadRedactor } from '../audit/redact.js';
import type { CatalogObserver } from '../catalog.js';
import type { PolicyObserver } from '../policies.js';
import { startAdminListener, type AdminListener } from './adminListener.js';
import { parseListen, type OpsConfig } from './config.js';
import { timedCalls } from './instrument.js';
import { OpsMetrics } from './metrics.js';
import { ObservedAuditor } from './observedAuditor.js';
import { ObservedSession } from './observedSession.js';
import { Readiness } from './readiness.js';
import { StatementWatch } from './statementWatch.js';

export class Ops {
  readonly watch: StatementWatch;

  private constructor(
    cfg: OpsConfig,
    private readonly log: Logger,
    readonly metrics: OpsMetrics,
    readonly readiness: Readiness,
    readonly listener: AdminListener | null,
  ) {
    this.watch = new StatementWatch(metrics, cfg.statementLog ? log.child({ component: 'statements' }) : null);
  }

  /**
   * The listener is up before anything else starts, so /readyz answers 503 while the gateway starts.
   * `optional`: a listener that cannot bind is a warning, not a failed start (the demo's fixed port).
   */
  static async start(cfg: OpsConfig, log: Logger, optional = false): Promise<Ops> {
    await loadRedactor();
    const metrics = new OpsMetrics({ userLabels: cfg.userLabels });
    const readiness = new Readiness();
    const at = cfg.listen ? parseListen(cfg.listen) : null;
    let listener: AdminListener | null = null;
    try {
      listener = at ? await startAdminListener(at, metrics, readiness, log) : null;
    } catch (e) {
      if (!optional) throw new Error(`the admin listener (ops.listen ${cfg.listen}) could not start: ${(e as Error).message}`);
      log.warn({ event: 'ops', err: (e as Error).message }, `no admin listener: ${cfg.listen} could not be bound (${(e as Error).message}); --ops-port chooses another port`);
    }
    return new Ops(cfg, log, metrics, readiness, listener);
  }

  /** The statement log on or off, after a reload. */
  configure(cfg: OpsConfig): void {
    this.watch.setLog(cfg.statementLog ? this.log.child({ component: 'statements' }) : null);
  }

  observeAuditor(inner: Auditor): ObservedAuditor {
    return new ObservedAuditor(inner, this.metrics, this.watch, this.log);
  }

  policies(gate: 'data' | 'catalog'): PolicyObserver {
    return {
      source: (s) =>
        timedCalls(s, (method, seconds, ok) => {
          this.metrics.call('ranger', method, seconds, ok);
          if (!ok) this.metrics.policyLoad(gate, false);
        }),
      compiled: (ok) => this.metrics.policyLoad(gate, ok),
    };
  }

  catalog(): CatalogObserver {
    return {
      client: (c) => timedCalls(c, (method, seconds, ok) => this.metrics.call('catalog', method, seconds, ok)),
      policies: this.policies('catalog'),
    };
  }

  /** A session as the protocol sees it, its statements counted and logged. */
  session(inner: QuerySession, user: string): QuerySession {
    const pid = inner.processId;
    this.metrics.sessionOpened();
    return new ObservedSession(inner, this.watch.open(pid, user), () => {
      this.metrics.sessionClosed();
      this.watch.closed(pid);
    });
  }

  async close(): Promise<void> {
    this.readiness.shuttingDown();
    await this.listener?.close();
  }
}
