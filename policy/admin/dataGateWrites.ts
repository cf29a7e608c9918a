/**
 * A write privilege's second half (`accessControl.projectWrites`): a write
 * through lakegate passes the catalog gate (the polaris service) and the data
 * gate (the query service, Hive service type: `update`, `create`, `drop`,
 * `alter`). GRANT writes both; this module says what the data gate's policy
 * for a privilege is. Its resources are the query service's: `database` is the
 * namespace path joined with '.', then `table`, then `column` (`*`).
 *
 *   on a table or view (or ALL … IN SCHEMA s)   database = s, table = t (or *), column = *
 *   CREATE / CREATE VIEW ON SCHEMA s            database = s, table = *, column = *
 *   DROP ON SCHEMA s (the schema itself)        database = s
 *   CREATE SCHEMA ON DATABASE                   database = *
 *
 * The same labels as the polaris policies (chm:<TYPE>:<name>:<PRIVILEGE>),
 * so a REVOKE keeps what another privilege of the grantee still needs there.
 */
import type { PolicyEngine } from '../ranger/engine.js';
import type { LevelWrite, Target } from './plan.js';
import type { TypeRules } from './merge.js';
import { dataGateTypes, type Privilege } from './privileges.js';
import type { PolicyStore } from './store.js';

/** Where the data gate's policies are written, and what the room needs of them. */
export interface DataGateWrites {
  store: PolicyStore;
  /** The data gate's service, named in messages (`lakehouse`). */
  serviceName: string;
  /** The data gate's engine in force: its service def, and a delegated grantor's grant option there. */
  engine: () => PolicyEngine | null;
  /** Flushes the data gate's policy cache; resolves once the change is in force. */
  flush: () => Promise<void>;
}

/** A grant and a deny write the same types there: Hive's access types have no finer part to deny. */
export const DATA_GATE_TYPES: TypeRules = { types: (p) => dataGateTypes(p) };

/** The data gate's policy for one privilege on the target; null when the data gate has no part in it (SELECT, USAGE, ALL). */
export function planDataGate(p: Privilege, t: Target): LevelWrite | null {
  const types = dataGateTypes(p);
  if (!types) return null;
  const database = t.namespace.join('.');
  let resource: Record<string, string>;
  if (t.level === 'catalog') resource = { database: '*' };
  else if (t.level === 'namespace') resource = p === 'DROP' ? { database } : { database, table: '*', column: '*' };
  else resource = { database, table: t.table!, column: '*' };
  const display = [resource['database']!, ...(resource['table'] !== undefined ? [resource['table']] : [])].join('.');
  return { level: t.level, resource, display, types, privilege: p, kind: t.kind, traversal: false };
}

/** Whether `who` holds these types on the write's resource (a grant option: `_admin`), as the data gate decides. */
export function holdsOnDataGate(engine: PolicyEngine, who: { user: string; roles: ReadonlySet<string> }, w: LevelWrite, types: readonly string[]): boolean {
  return types.every((accessType) => {
    const r = engine.isAccessAllowed({
      resource: w.resource,
      accessType,
      user: who.user,
      userGroups: new Set(),
      ...(who.roles.size > 0 ? { userRoles: who.roles } : {}),
      resourceMatchingScope: 'SELF',
    });
    return r.isAccessDetermined && r.isAllowed;
  });
}
