/**
 * The audit trail: every decision lakegate takes or enforces becomes one
 * Ranger audit event (event.ts) written to the configured sinks (sinks.ts).
 *
 *  - logins, allowed and refused;
 *  - the catalog gate's decisions (embedded mode: lakegate decides as Polaris
 *    would, on the polaris service's policies);
 *  - per statement, what the data gate decided: the table read (select), each
 *    row filter and mask applied, each column restricted, with the snapshot
 *    read (a time travel's or the current one) in additional_info; and tables
 *    the statement could not read (42P01: refused or missing, alike to the user);
 *  - statements refused (the router's allowlist, 42501);
 *  - access-control statements (GRANT / REVOKE / DENY / SET TAG), through
 *    adminStatement().
 *
 * Decisions taken by Ranger policies are written only when the engine says
 * they are audited: the policies' isAuditEnabled, the service's audit mode,
 * excluded users and its audit filters (policy/ranger/auditFilters.ts) are
 * all folded into the engine's isAudited. Logins and refusals, which no
 * policy decides, are always written. reqData is the redacted statement text;
 * no event carries a password or the mask key (neither is ever handed here).
 */
import type { Logger } from 'pino';
import type { PolicyEngine } from '../../policy/ranger/engine.js';
import type { AccessResult } from '../../policy/ranger/request.js';
import type { AppliedTable } from '../../policy/rewrite/dataGate.js';
import type { TableDecision } from '../../policy/rewrite/decide.js';
import { EventFactory, type AuthzAuditEvent, type EventFields } from './event.js';
import { redact } from './redact.js';
import type { AuditSink } from './sinks.js';

/** Who did it, from where. */
export interface AuditSubject {
  user: string;
  clientIp?: string | null;
  /** the session's backend process id */
  sessionId?: string | number | null;
  /** application_name, when the client sent one */
  clientType?: string | null;
}

export interface LoginOutcome {
  database: string;
  allowed: boolean;
  /** why a login was refused, in words that reveal no secret */
  reason?: string | null;
}

/** One Polaris authorization, as policy/polaris/rangerAuthorizer.ts decided it. */
export interface CatalogDecisionAudit {
  engine: PolicyEngine;
  /** the session whose statement made the catalog call (a cached answer serves the user's other sessions) */
  subject: AuditSubject;
  operation: string;
  allowed: boolean;
  checks: readonly { resourceName: string; accessType: string; result: AccessResult }[];
}

export interface RelationName {
  schema: string;
  name: string;
}

/** What planning a statement decided, for the statement's events. */
export interface StatementAudit {
  /** The policy engine the statement was planned with (null: none usable). */
  engine: PolicyEngine | null;
  /** Tables read, with the data gate's decision and the columns' tags. */
  applied: readonly AppliedTable[];
  /**
   * Tables the data gate hid (no select), by `schema.name`; `reason` where the statement went on without
   * them (to_regclass answered NULL).
   */
  hidden: readonly { resource: { database: string; table: string } | null; name: RelationName; decision: Extract<TableDecision, { visible: false }>; reason?: string }[];
  /** Names the catalog did not load for the user (refused or missing, alike); `reason` as for `hidden`. */
  unloaded: readonly (RelationName & { reason?: string })[];
  /** The statement failed: its SQLSTATE and message (42P01, 42501 …). */
  error?: { code: string; message: string } | null;
}

/** One Ranger access check of a write (policy/rewrite/writeAccess.ts): the hive access type and resource, and the answer. */
export interface WriteCheckAudit {
  access: string;
  resource: { database: string; table?: string };
  allowed: boolean;
  policyId: number;
  policyVersion: number | null;
  zoneName: string | null;
}

/** A write and what came of it: its checks, the rows it changed where known, its error. */
export interface WriteAudit {
  /** The policy engine the write was decided with (null: none usable, every check refused). */
  engine: PolicyEngine | null;
  /** The statement's command: INSERT, CREATE TABLE, DROP VIEW … */
  command: string;
  checks: readonly WriteCheckAudit[];
  rows: number | null;
  /** The write was refused or failed: its SQLSTATE and message. */
  error?: { code: string; message: string } | null;
}

/** An access-control statement (GRANT, REVOKE, DENY, SET TAG …) and what came of it. */
export interface AdminStatementAudit {
  user: string;
  /** the statement text as typed (redacted here) */
  statement: string;
  /** true when the statement took effect */
  result: boolean;
  /** the resource written, as a path (`sales/orders`, `sales/orders/ssn`), and its level */
  resource: string;
  resourceType?: string;
  /** GRANT, REVOKE, DENY, SET TAG … (default: the statement's first word) */
  action?: string;
  /** the Ranger service written to */
  repo?: string;
  /** the policy created or changed, when known */
  policyId?: number;
  reason?: string | null;
  clientIp?: string | null;
  sessionId?: string | number | null;
}

export interface AuditorOptions {
  /** the repo named on events no Ranger service decided (logins, refusals) */
  defaultRepo: string;
  log: Logger;
}

const pathOf = (...parts: string[]): string => parts.join('/');

export class Auditor {
  private readonly events: EventFactory;

  constructor(
    private readonly sinks: readonly AuditSink[],
    private readonly opts: AuditorOptions,
    clusterName: string | null = null,
  ) {
    this.events = new EventFactory('lakegate', clusterName);
  }

  /** An auditor that writes nothing (audit.destination = off and no HTTP sink). */
  static off(log: Logger): Auditor {
    return new Auditor([], { defaultRepo: 'lakegate', log });
  }

  get enabled(): boolean {
    return this.sinks.length > 0;
  }

  /** Events dropped so far, by every sink. */
  get dropped(): number {
    return this.sinks.reduce((n, s) => n + s.dropped, 0);
  }

  private emit(f: EventFields): void {
    let e: AuthzAuditEvent;
    try {
      e = this.events.make(f);
    } catch (err) {
      this.opts.log.error({ event: 'audit', err: (err as Error).message }, 'audit event could not be built');
      return;
    }
    for (const s of this.sinks) {
      try {
        s.write(e);
      } catch (err) {
        this.opts.log.error({ event: 'audit', err: (err as Error).message }, 'audit sink failed');
      }
    }
  }

  private subject(s: AuditSubject): Pick<EventFields, 'reqUser' | 'clientIp' | 'sessionId' | 'clientType'> {
    return {
      reqUser: s.user,
      clientIp: s.clientIp ?? null,
      sessionId: s.sessionId === undefined || s.sessionId === null ? null : String(s.sessionId),
      clientType: s.clientType ?? null,
    };
  }

  login(s: AuditSubject, o: LoginOutcome): void {
    if (!this.enabled) return;
    this.emit({
      ...this.subject(s),
      repo: this.opts.defaultRepo,
      access: 'login',
      resource: o.database,
      resType: '@database',
      action: 'login',
      allowed: o.allowed,
      reason: o.reason ?? null,
    });
  }

  /** The catalog gate decided one Polaris operation (embedded mode). */
  catalogDecision(d: CatalogDecisionAudit): void {
    if (!this.enabled) return;
    if (!d.checks.some((c) => c.result.isAudited)) return;
    // The check that decided: the first refused one, else the last allowed one.
    const deciding = d.checks.find((c) => !c.result.isAllowed) ?? d.checks[d.checks.length - 1];
    const resourceName = deciding?.resourceName ?? '';
    const colon = resourceName.indexOf(':');
    this.emit({
      ...this.subject(d.subject),
      repo: d.engine.serviceName,
      repoType: d.engine.serviceDef.id ?? 0,
      access: [...new Set(d.checks.map((c) => c.accessType))].join(','),
      resource: colon >= 0 ? resourceName.slice(colon + 1) : resourceName,
      resType: colon >= 0 ? `@${resourceName.slice(0, colon)}` : '@catalog',
      action: d.operation,
      allowed: d.allowed,
      policyId: deciding?.result.policyId ?? -1,
      policyVersion: deciding?.result.policyVersion ?? null,
      zoneName: deciding?.result.zoneName ?? null,
      reason: d.allowed ? null : `not authorized for op '${d.operation}'`,
    });
  }

  /** What a statement read and what the data gate applied, or why it could not read a table. */
  statement(s: AuditSubject, text: string, a: StatementAudit): void {
    if (!this.enabled) return;
    const reqData = redact(text);
    const who = this.subject(s);
    const engine = a.engine;
    const repo = engine?.serviceName ?? this.opts.defaultRepo;
    const repoType = engine?.serviceDef.id ?? 0;
    const base = { ...who, repo, repoType, reqData, action: 'select' };
    const seen = new Set<AppliedTable['table']>();
    for (const { table, decision: d, compiled } of a.applied) {
      if (seen.has(table)) continue;
      seen.add(table);
      const tablePath = pathOf(d.resource.database, d.resource.table);
      const tags = Object.values(table.columnTags ?? {}).flat();
      // Which snapshot the statement read (a time travel reads an older one): on every event of the table.
      const snapshot = table.snapshotId !== undefined ? { 'snapshot-id': table.snapshotId } : null;
      const read = { ...base, ...(snapshot ? { additionalInfo: snapshot } : {}) };
      /** A column event names the column the policies decided (today's name); the name read is added where it differs. */
      const columnEvent = (c: (typeof d.columns)[number]) => ({
        ...read,
        resource: pathOf(tablePath, c.policyName ?? c.name),
        ...(c.policyName !== c.name ? { additionalInfo: { ...snapshot, column: c.name } } : {}),
      });
      if (d.access.audited) {
        this.emit({
          ...read,
          access: 'select',
          resource: tablePath,
          resType: '@table',
          allowed: true,
          policyId: d.access.policyId,
          policyVersion: d.access.policyVersion,
          zoneName: d.access.zoneName,
          tags,
        });
      }
      if (d.noRowsPolicy?.audited) {
        // A policy lakegate fails closed on: recorded as the row filter it became (no row).
        this.emit({
          ...read,
          access: 'ROW_FILTER',
          resource: tablePath,
          resType: '@table',
          allowed: true,
          policyId: d.noRowsPolicy.policy.id,
          reason: `${d.noRows}`,
          tags: [],
        });
      }
      for (const f of d.rowFilters) {
        if (!f.audited) continue;
        this.emit({
          ...read,
          access: 'ROW_FILTER',
          resource: tablePath,
          resType: '@table',
          allowed: true,
          policyId: f.policy.id,
          reason: compiled.filterErrors.length > 0 ? 'a row filter cannot be applied: no rows shown' : f.policy.tag ? `tag ${f.policy.tag}` : null,
          tags: f.policy.tag ? [f.policy.tag] : [],
        });
      }
      d.columns.forEach((c, i) => {
        const outcome = compiled.columns[i];
        if (!c.readable) {
          if (c.audited === false) return;
          this.emit({
            ...columnEvent(c),
            access: 'select',
            resType: '@column',
            allowed: false,
            policyId: c.denyPolicy?.id ?? -1,
            reason: c.restriction ? `${c.restriction}: column restricted (NULL)` : 'column restricted (NULL)',
          });
          return;
        }
        if (!c.mask || !c.mask.audited) return;
        const restricted = outcome?.state === 'restricted';
        this.emit({
          ...columnEvent(c),
          access: c.mask.type,
          resType: '@column',
          allowed: true,
          policyId: c.mask.policy.id,
          reason: restricted ? `mask ${c.mask.type} cannot be applied: column restricted (NULL)` : c.mask.policy.tag ? `tag ${c.mask.policy.tag}` : null,
          tags: c.mask.policy.tag ? [c.mask.policy.tag] : [],
        });
      });
    }
    const reason = a.error ? `${a.error.code}: ${a.error.message}` : null;
    for (const h of a.hidden) {
      if (h.decision.access && !h.decision.access.audited) continue;
      this.emit({
        ...base,
        access: 'select',
        resource: h.resource ? pathOf(h.resource.database, h.resource.table) : pathOf(h.name.schema, h.name.name),
        resType: '@table',
        allowed: false,
        policyId: h.decision.access?.policyId ?? -1,
        policyVersion: h.decision.access?.policyVersion ?? null,
        reason: reason ?? h.reason ?? h.decision.reason,
      });
    }
    for (const name of a.unloaded) {
      this.emit({
        ...base,
        access: 'select',
        resource: pathOf(name.schema, name.name),
        resType: '@table',
        allowed: false,
        reason: reason ?? name.reason ?? 'the catalog did not load the table for this user (refused or missing)',
        additionalInfo: { gate: 'catalog' },
      });
    }
    // A refusal that names no table (EXPLAIN of masked tables, a rewrite that failed).
    if (a.error && a.error.code === '42501' && a.hidden.length === 0 && a.unloaded.length === 0) {
      this.emit({ ...base, access: 'select', resource: '', resType: '@statement', allowed: false, reason });
    }
  }

  /**
   * A write: one event per access check (the access type and the resource it
   * was asked for, allowed or not), with the rows changed where known in
   * additional_info and the error as the reason. Written whatever the
   * policies' audit settings say, as logins and refusals are: a write changes
   * the lakehouse.
   */
  write(s: AuditSubject, text: string, w: WriteAudit): void {
    if (!this.enabled) return;
    const reqData = redact(text);
    const who = this.subject(s);
    const repo = w.engine?.serviceName ?? this.opts.defaultRepo;
    const repoType = w.engine?.serviceDef.id ?? 0;
    const failure = w.error ? `${w.error.code}: ${w.error.message}` : null;
    for (const c of w.checks) {
      const table = c.resource.table !== undefined;
      this.emit({
        ...who,
        repo,
        repoType,
        reqData,
        access: c.access,
        resource: table ? pathOf(c.resource.database, c.resource.table!) : c.resource.database,
        resType: table ? '@table' : '@database',
        action: w.command,
        allowed: c.allowed,
        policyId: c.policyId,
        policyVersion: c.policyVersion,
        zoneName: c.zoneName,
        reason: failure,
        additionalInfo: c.allowed && w.rows !== null ? { rows: w.rows } : null,
      });
    }
  }

  /** A statement the router (or a permission check) refused before anything ran. */
  refused(s: AuditSubject, database: string, text: string, command: string, error: { code: string; message: string }): void {
    if (!this.enabled) return;
    this.emit({
      ...this.subject(s),
      repo: this.opts.defaultRepo,
      access: command.toLowerCase(),
      resource: database,
      resType: '@database',
      action: command,
      allowed: false,
      reason: `${error.code}: ${error.message}`,
      reqData: redact(text),
    });
  }

  /** GRANT / REVOKE / DENY / SET TAG and the other access-control statements. */
  adminStatement(a: AdminStatementAudit): void {
    if (!this.enabled) return;
    const reqData = redact(a.statement);
    const action = a.action ?? (reqData.split(' ')[0] ?? '').toUpperCase();
    this.emit({
      reqUser: a.user,
      clientIp: a.clientIp ?? null,
      sessionId: a.sessionId === undefined || a.sessionId === null ? null : String(a.sessionId),
      repo: a.repo ?? this.opts.defaultRepo,
      access: action.toLowerCase(),
      resource: a.resource,
      resType: a.resourceType ?? '@table',
      action,
      allowed: a.result,
      policyId: a.policyId ?? -1,
      reason: a.reason ?? null,
      reqData,
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.sinks.map((s) => s.close()));
  }
}
