/**
 * Who may write which level. `admin-role`: GRANT and REVOKE need one of the
 * configured administrator roles. `ranger-delegate`: Ranger's per-resource
 * check decides — the grantor needs delegated admin (WITH GRANT OPTION) on
 * each level's resource for the types written there. DENY is always
 * administrator-only. Traversal levels the grantee already holds are not
 * written, so a delegated grantor needs no admin on a parent it cannot touch.
 */
import type { PolicyEngine } from '../ranger/engine.js';
import { SqlError } from '../../sql/errors.js';
import type { LevelWrite } from './plan.js';
import { granteeField } from './merge.js';
import type { Grantee } from './statement.js';

export type GrantAuthority = 'admin-role' | 'ranger-delegate';

export interface Subject {
  user: string;
  roles: ReadonlySet<string>;
}

/** The resource a request carries: the policy's `*` root is the realm Polaris sends. */
const requestResource = (w: LevelWrite, realm: string) => ({ ...w.resource, root: realm });

export function holds(engine: PolicyEngine, who: { user: string; roles?: ReadonlySet<string> }, w: LevelWrite, types: readonly string[], realm: string): boolean {
  return types.every((accessType) => {
    const r = engine.isAccessAllowed({
      resource: requestResource(w, realm),
      accessType,
      user: who.user,
      userGroups: new Set(),
      ...(who.roles && who.roles.size > 0 ? { userRoles: who.roles } : {}),
      resourceMatchingScope: 'SELF',
    });
    return r.isAccessDetermined && r.isAllowed;
  });
}

/** The grantee as a subject: a user by name, a role (or group-as-role) by membership. */
export function granteeSubject(g: Grantee): { user: string; roles?: ReadonlySet<string> } {
  return granteeField(g) === 'users' ? { user: g.name } : { user: '', roles: new Set([g.name]) };
}

export const needsAdmin = (what: string, roles: readonly string[]) =>
  new SqlError('42501', `permission denied: ${what} needs the administrator role (${roles.join(', ')})`);

/**
 * The levels a delegated grantor may not write, as an error naming the level
 * and the statements an administrator must run.
 */
export function delegatedRefusal(grantor: string, refused: { write: LevelWrite; adminStatement: string }[], rangerSaid?: string): SqlError {
  const first = refused[0]!;
  return new SqlError(
    '42501',
    `permission denied: ${grantor} holds no grant option on ${first.write.level} "${first.write.display}" for ${first.write.types.join(', ')}`,
    undefined,
    { hint: `${rangerSaid ? `Ranger: ${rangerSaid}. ` : ''}An administrator must run: ${[...new Set(refused.map((r) => r.adminStatement))].join('; ')}` },
  );
}
