/**
 * The data gate's decisions for writes, in the query service's Hive terms
 * (reference: Ranger's Hive plugin, RangerHiveAuthorizer):
 *
 * | statement                                   | access   | resource                          |
 * |---------------------------------------------|----------|-----------------------------------|
 * | INSERT, UPDATE, DELETE, MERGE, TRUNCATE     | `update` | the table                         |
 * | CREATE TABLE [AS], CREATE VIEW              | `create` | the database, and the new table   |
 * | CREATE SCHEMA                               | `create` | the database                      |
 * | DROP TABLE / VIEW                           | `drop`   | the table / view                  |
 * | DROP SCHEMA (CASCADE: and what is in it)    | `drop`   | the database (and each table)     |
 * | ALTER TABLE, COMMENT ON                     | `alter`  | the table / view                  |
 * | ALTER … RENAME TO n                         | `alter`  | the relation; `create` on n       |
 * | CREATE OR REPLACE VIEW of an existing one   | `create` and `alter` | the view              |
 *
 * Requests use the default resource matching (a policy on `db / * / *`
 * covers a request on `db` or `db / t`, as Ranger's SELF_AND_ALL_DESCENDANTS
 * match does). No policy engine in force → refused (fail closed). The tables
 * a write reads are decided as reads are (`select`, filters, masks: dataGate.ts).
 *
 * The target of UPDATE / DELETE / MERGE / TRUNCATE is read by the engine as
 * stored, outside the rewrite: it must be seen by the user as stored
 * (`storedView`), or the write is refused — never run against rows or values
 * the user does not see.
 */
import type { PolicyEngine } from '../ranger/engine.js';
import type { AccessRequest } from '../ranger/request.js';
import type { Subject, TableDecision } from './decide.js';

export type HiveWriteAccess = 'update' | 'create' | 'drop' | 'alter';

export interface WriteRequest {
  access: HiveWriteAccess;
  resource: { database: string; table?: string };
}

export interface WriteDecision extends WriteRequest {
  allowed: boolean;
  policyId: number;
  policyVersion: number | null;
  zoneName: string | null;
  audited: boolean;
}

export function decideWrite(engine: PolicyEngine | null, subject: Subject, request: WriteRequest): WriteDecision {
  const refused = { ...request, allowed: false, policyId: -1, policyVersion: null, zoneName: null, audited: true };
  if (!engine || request.resource.database === '' || request.resource.table === '') return refused;
  const resource: Record<string, string> = { database: request.resource.database };
  if (request.resource.table !== undefined) resource['table'] = request.resource.table;
  const req: AccessRequest = {
    resource,
    accessType: request.access,
    user: subject.user,
    userGroups: subject.groups,
    ...(subject.roles.size > 0 ? { userRoles: subject.roles } : {}),
  };
  const r = engine.isAccessAllowed(req);
  return { ...request, allowed: r.isAllowed, policyId: r.policyId, policyVersion: r.policyVersion, zoneName: r.zoneName, audited: r.isAudited };
}

/**
 * Why the user does not see a table as stored, or null when it does: no row
 * filter, no mask but MASK_NONE, every column readable.
 */
export function storedView(decision: TableDecision): string | null {
  if (!decision.visible) return 'you may not read the table';
  if (decision.noRows) return `no row of the table may be shown to you (${decision.noRows})`;
  if (decision.rowFilters.length > 0) return 'a row filter applies to you on this table';
  const masked = decision.columns.filter((c) => c.readable && c.mask && c.mask.type !== 'MASK_NONE').map((c) => c.name);
  if (masked.length > 0) return `column masks apply to you on ${masked.map((n) => `"${n}"`).join(', ')}`;
  const restricted = decision.columns.filter((c) => !c.readable).map((c) => c.name);
  if (restricted.length > 0) return `you may not read ${restricted.map((n) => `"${n}"`).join(', ')}`;
  return null;
}
