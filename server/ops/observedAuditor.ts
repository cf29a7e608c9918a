/**
 * The audit trail, seen by the metrics and the statement log on its way: the
 * planner, the listener and the catalog gate already hand every decision to
 * the auditor, so operations read them there instead of being told twice.
 * Whatever the audit configuration, every call reaches the configured
 * auditor unchanged; this one is `enabled` so the decisions are built even
 * with audit off (the inner auditor then writes nothing).
 */
import type { Logger } from 'pino';
import {
  Auditor,
  type AdminStatementAudit,
  type AuditSubject,
  type CatalogDecisionAudit,
  type LoginOutcome,
  type StatementAudit,
  type WriteAudit,
} from '../audit/auditor.js';
import { gateDetail, writeDetail } from './gateSummary.js';
import type { OpsMetrics } from './metrics.js';
import type { StatementWatch } from './statementWatch.js';

export class ObservedAuditor extends Auditor {
  constructor(
    private inner: Auditor,
    private readonly metrics: OpsMetrics,
    private readonly watch: StatementWatch,
    log: Logger,
  ) {
    super([], { defaultRepo: 'lakegate', log });
  }

  /** The audit trail configured now (a reload may replace it). */
  get current(): Auditor {
    return this.inner;
  }

  replace(next: Auditor): Auditor {
    const old = this.inner;
    this.inner = next;
    return old;
  }

  override get enabled(): boolean {
    return true;
  }

  override get dropped(): number {
    return this.inner.dropped;
  }

  override login(s: AuditSubject, o: LoginOutcome): void {
    this.metrics.login(o.allowed);
    this.inner.login(s, o);
  }

  override catalogDecision(d: CatalogDecisionAudit): void {
    this.metrics.catalogDecision(d.allowed);
    this.inner.catalogDecision(d);
  }

  override statement(s: AuditSubject, text: string, a: StatementAudit): void {
    this.watch.gate(s.sessionId, gateDetail(a));
    this.inner.statement(s, text, a);
  }

  override write(s: AuditSubject, text: string, w: WriteAudit): void {
    this.watch.gate(s.sessionId, writeDetail(w));
    this.inner.write(s, text, w);
  }

  override refused(s: AuditSubject, database: string, text: string, command: string, error: { code: string; message: string }): void {
    this.inner.refused(s, database, text, command, error);
  }

  override adminStatement(a: AdminStatementAudit): void {
    this.inner.adminStatement(a);
  }

  override close(): Promise<void> {
    return this.inner.close();
  }
}
