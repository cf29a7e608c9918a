/**
 * The admin room's events (policy/admin/audit.ts) on the audit trail: one
 * Ranger audit event per resource an access-control statement wrote or read,
 * with the policy written to it where the room names one per resource.
 */
import type { AdminAudit, AdminAuditEvent } from '../../policy/admin/audit.js';
import type { Auditor } from './auditor.js';

/** `sales.orders` → `sales/orders`, the path form Ranger's audit shows. */
const asPath = (dotted: string): string => dotted.split('.').join('/');
/** The level a dotted query-service resource names (database.table): a database, or a table. */
const dataGateLevelOf = (dotted: string): string => (dotted.split('.').length <= 1 ? '@database' : '@table');
/** The level a dotted polaris-service resource names: catalog, namespace, or a table or view below. */
const levelOf = (dotted: string): string => {
  const depth = dotted === '' ? 0 : dotted.split('.').length;
  return depth <= 1 ? '@catalog' : depth === 2 ? '@namespace' : '@table';
};

export function adminAuditTrail(auditor: Auditor): AdminAudit {
  return {
    statement(e: AdminAuditEvent): void {
      const resources = e.resources.length > 0 ? e.resources : [''];
      // The room lists the policies written apart from the resources (created first, then updated):
      // one event names its policy only when there is one of each; otherwise the reason lists them.
      const single = resources.length === 1 && e.policyIds.length === 1 ? e.policyIds[0] : undefined;
      const reason = single === undefined && e.policyIds.length > 0 ? `${e.reason}; policies ${[...e.policyIds].sort((a, b) => a - b).join(', ')}` : e.reason;
      for (const resource of resources) {
        auditor.adminStatement({
          user: e.user,
          statement: e.statement,
          result: e.allowed,
          resource: asPath(resource),
          resourceType: levelOf(resource),
          action: e.action,
          reason,
          ...(single !== undefined ? { policyId: single } : {}),
          clientIp: e.origin?.clientIp ?? null,
          sessionId: e.origin?.sessionId ?? null,
        });
      }
      // projectWrites: the data gate's policies the statement wrote, one event each on that service
      for (const resource of e.dataGate?.resources ?? []) {
        auditor.adminStatement({
          user: e.user,
          statement: e.statement,
          result: e.allowed,
          resource: asPath(resource),
          resourceType: dataGateLevelOf(resource),
          action: e.action,
          reason: e.reason,
          repo: e.dataGate!.service,
          clientIp: e.origin?.clientIp ?? null,
          sessionId: e.origin?.sessionId ?? null,
        });
      }
    },
  };
}
