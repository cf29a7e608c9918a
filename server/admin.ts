/**
 * The admin room as the gateway runs it: which policy store GRANT writes
 * (the embedded catalog's local polaris policy files), and the small piece a
 * session calls to run an access-control statement and write its answer.
 */
import type { Logger } from 'pino';
import { AdminRoom, type AdminCaller, type AdminResult } from '../policy/admin/room.js';
import { LocalPolicyFileStore } from '../policy/admin/localStore.js';
import type { AdminAudit } from '../policy/admin/audit.js';
import type { AdminStatement } from '../policy/admin/statement.js';
import type { PgField } from './rows/api.js';
import type { Config } from './config.js';
import type { RunningCatalog } from './catalog.js';
import { textField, type TextResult } from './textResult.js';

export interface AdminRoomDeps {
  catalog: RunningCatalog | null;
  userExists?: (name: string) => boolean;
  audit?: AdminAudit;
  log: Logger;
}

/** Null when access-control statements cannot be written (no catalog, or a catalog whose policies lakegate cannot reach). */
export function startAdminRoom(config: Config, deps: AdminRoomDeps): AdminRoom | null {
  const cat = config.catalog;
  if (!cat || !deps.catalog) return null;
  const s = cat.source;
  if (s.kind !== 'embedded' || s.policies.source.kind !== 'local') {
    deps.log.warn({ event: 'admin', state: 'no-store' }, 'GRANT / REVOKE are not available: only the embedded catalog with local policy files is supported');
    return null;
  }
  const policies = deps.catalog.policies!;
  const src = s.policies.source;
  const ac = config.accessControl;
  return new AdminRoom({
    store: new LocalPolicyFileStore({ folder: src.path, serviceName: src.serviceName ?? 'polaris', ...(deps.userExists ? { userExists: deps.userExists } : {}) }),
    engine: () => policies.current(),
    flush: () => deps.catalog!.flush(),
    catalog: s.catalogName ?? cat.database,
    realmValue: ac.realm,
    requestRealm: s.realm,
    grantAuthority: ac.grantAuthority,
    adminRoles: ac.adminRoles,
    ...(deps.audit ? { audit: deps.audit } : {}),
    log: deps.log.child({ component: 'admin' }),
  });
}

const TYPE_OID = { text: 25, bool: 16, timestamptz: 1184 } as const;

/** The row description of a statement's answer (null: a command tag only). */
export function adminFields(stmt: AdminStatement): PgField[] | null {
  if (stmt.kind === 'show-grants') {
    return ['privilege', 'resource', 'grantee_type', 'grantee_name', 'effect', 'granted_by', 'granted_at'].map((n) => ({
      ...textField(n),
      ...(n === 'granted_at' ? { typeOid: TYPE_OID.timestamptz, typeLen: 8 } : {}),
    }));
  }
  if (stmt.kind === 'check-access') return [{ ...textField('allowed'), typeOid: TYPE_OID.bool, typeLen: 1 }, textField('reason')];
  return null;
}

export async function runAdmin(room: AdminRoom, stmt: AdminStatement, text: string, caller: AdminCaller): Promise<TextResult> {
  const r: AdminResult = await room.run(stmt, text, caller);
  return { fields: adminFields(stmt) ?? [], rows: r.rows ?? [], tag: r.tag };
}
