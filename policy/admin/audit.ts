/**
 * What the admin room tells the audit trail. The audit module (issue 12's
 * audit part) implements it and turns each event into Ranger's AuthzAuditEvent;
 * until it is wired in, nothing is recorded (noAdminAudit).
 */
export interface AdminAuditEvent {
  /** GRANT, REVOKE, DENY, SHOW GRANTS, CHECK ACCESS, SET TAG, UNSET TAG */
  action: string;
  user: string;
  /** The statement as typed (access-control statements carry no secrets; names only). */
  statement: string;
  allowed: boolean;
  /** Why it was refused, or what it did. */
  reason: string;
  /** dotted resources written or read */
  resources: string[];
  /** ids of the policies written */
  policyIds: number[];
  /** projectWrites: the data gate's service and the dotted resources written there (database.table) */
  dataGate?: { service: string; resources: string[] };
  time: Date;
  /** where the statement came from: the session's client address and backend id */
  origin?: AdminOrigin;
}

export interface AdminOrigin {
  clientIp?: string | null;
  sessionId?: string | number | null;
}

export interface AdminAudit {
  statement(event: AdminAuditEvent): void;
}

export const noAdminAudit: AdminAudit = { statement: () => undefined };
