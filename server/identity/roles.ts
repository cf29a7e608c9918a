/**
 * A user's roles at login. Ranger's role store is the authority, resolved as
 * Ranger resolves it (roles naming the user, the user's groups or `public`, and
 * roles nesting those). Where configured, the token's own realm roles are added;
 * they can only add roles, never remove one Ranger grants — and since Ranger's
 * policies name Ranger roles, a token role Ranger does not know grants nothing
 * until a policy names it.
 */
import type { RoleStore } from '../../policy/ranger/roles.js';

export interface RoleResolver {
  rolesFor(user: string, groups: readonly string[], tokenRoles?: readonly string[]): string[];
}

/** Reads the role store current right now (the policy cache may replace it at any time). */
export function rangerRoles(current: () => RoleStore | null): RoleResolver {
  return {
    rolesFor(user, groups, tokenRoles = []) {
      const store = current();
      // No usable role store (never loaded, or stale past the limit): no roles, which can only mean less access.
      const fromRanger = store ? [...store.rolesFor(user, groups)] : [];
      return [...new Set([...fromRanger, ...tokenRoles])].sort();
    },
  };
}
