/**
 * One audit event in the JSON shape Ranger's plugins write
 * (AuthzAuditEvent: the keys are Gson's serialized names, so a Ranger audit
 * store — Solr, Elasticsearch, the HDFS/log4j JSON files — reads them as its
 * own). lakegate fills the fields a Ranger plugin fills and marks itself as the
 * enforcer.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

export interface AuthzAuditEvent {
  /** service-def id of the service whose policies decided (0 when no Ranger service decided) */
  repoType: number;
  /** the Ranger service (repository) name */
  repo: string;
  reqUser: string;
  /** `yyyy-MM-dd HH:mm:ss.SSS`, UTC, as Ranger's Gson writes dates */
  evtTime: string;
  /** the access type asked (`select`, `namespace-list`, `MASK_HASH`, `ROW_FILTER`, `login` …) */
  access: string;
  /** the resource path (`sales/orders/ssn`, Ranger's hive form) */
  resource: string;
  /** `@table`, `@column`, `@namespace`, `@database` … */
  resType: string;
  /** what the user did (`select`, `LOAD_TABLE`, `login`, `GRANT` …) */
  action: string;
  /** 1 allowed, 0 denied */
  result: 0 | 1;
  agent: string;
  /** the deciding policy's id; -1 when no policy decided */
  policy: number;
  reason: string | null;
  enforcer: string;
  /** the session (backend process id) */
  sess: string | null;
  cliType: string | null;
  cliIP: string | null;
  /** the statement text with every literal replaced (server/audit/redact.ts) */
  reqData: string | null;
  agentHost: string;
  logType: 'RangerAudit';
  id: string;
  /** order of events within this process */
  seq_num: number;
  event_count: number;
  event_dur_ms: number;
  tags: string[];
  additional_info: string | null;
  cluster_name: string | null;
  zone_name: string | null;
  policy_version: number | null;
}

/** What a caller says about an event; the rest is filled in. */
export interface EventFields {
  repoType?: number;
  repo: string;
  reqUser: string;
  access: string;
  resource: string;
  resType: string;
  action: string;
  allowed: boolean;
  policyId?: number;
  policyVersion?: number | null;
  reason?: string | null;
  sessionId?: string | null;
  clientType?: string | null;
  clientIp?: string | null;
  reqData?: string | null;
  tags?: readonly string[];
  zoneName?: string | null;
  additionalInfo?: Record<string, unknown> | null;
}

export const ENFORCER = 'lakegate';

/** Ranger's Gson date format, in UTC. */
export function rangerTime(d: Date): string {
  return d.toISOString().replace('T', ' ').replace('Z', '');
}

/** Builds events with this process's identity and a sequence number. */
export class EventFactory {
  private seq = 0;
  private readonly host = hostname();

  constructor(
    private readonly agent: string,
    private readonly clusterName: string | null,
  ) {}

  make(f: EventFields, at: Date = new Date()): AuthzAuditEvent {
    return {
      repoType: f.repoType ?? 0,
      repo: f.repo,
      reqUser: f.reqUser,
      evtTime: rangerTime(at),
      access: f.access,
      resource: f.resource,
      resType: f.resType,
      action: f.action,
      result: f.allowed ? 1 : 0,
      agent: this.agent,
      policy: f.policyId ?? -1,
      reason: f.reason ?? null,
      enforcer: ENFORCER,
      sess: f.sessionId ?? null,
      cliType: f.clientType ?? null,
      cliIP: f.clientIp ?? null,
      reqData: f.reqData ?? null,
      agentHost: this.host,
      logType: 'RangerAudit',
      id: randomUUID(),
      seq_num: this.seq++,
      event_count: 1,
      event_dur_ms: 0,
      tags: [...new Set(f.tags ?? [])].sort(),
      additional_info: f.additionalInfo ? JSON.stringify(f.additionalInfo) : null,
      cluster_name: this.clusterName,
      zone_name: f.zoneName ?? null,
      policy_version: f.policyVersion ?? null,
    };
  }
}
