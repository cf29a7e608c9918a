/**
 * A user's Ranger roles (reference/ranger.md §5): roles that list the user, any of
 * the user's groups, or the group `public`; and, transitively, every role that
 * lists one of those roles as a member.
 */
import type { RangerRoles } from './model.js';

export const GROUP_PUBLIC = 'public';

export class RoleStore {
  private readonly byUser = new Map<string, Set<string>>();
  private readonly byGroup = new Map<string, Set<string>>();
  /** member role → roles that list it as a member */
  private readonly parents = new Map<string, Set<string>>();

  constructor(roles: RangerRoles | null) {
    for (const role of roles?.rangerRoles ?? []) {
      if (!role.isEnabled) continue;
      for (const u of role.users) add(this.byUser, u.name, role.name);
      for (const g of role.groups) add(this.byGroup, g.name, role.name);
      for (const r of role.roles) add(this.parents, r.name, role.name);
    }
  }

  /** Built the way Ranger's TestPolicyEngine builds roles from its three maps. */
  static fromMaps(
    userRoles: Record<string, string[]> = {},
    groupRoles: Record<string, string[]> = {},
    roleRoles: Record<string, string[]> = {},
  ): RoleStore {
    const store = new RoleStore(null);
    for (const [u, rs] of Object.entries(userRoles)) for (const r of rs) add(store.byUser, u, r);
    for (const [g, rs] of Object.entries(groupRoles)) for (const r of rs) add(store.byGroup, g, r);
    // roleRoles {A: [B]}: role B has member role A, so holders of A also hold B.
    for (const [a, bs] of Object.entries(roleRoles)) for (const b of bs) add(store.parents, a, b);
    return store;
  }

  get isEmpty(): boolean {
    return this.byUser.size === 0 && this.byGroup.size === 0;
  }

  /** Resolved role sets per user and groups, bounded; callers must not change the returned set. */
  private readonly memo = new Map<string, ReadonlySet<string>>();

  rolesFor(user: string, groups: Iterable<string>): ReadonlySet<string> {
    // Groups in the order given: another order only misses the memo, it never collides.
    let key = user;
    for (const g of groups) key += '\u0000' + g;
    let hit = this.memo.get(key);
    if (!hit) {
      hit = this.resolve(user, [...groups]);
      if (this.memo.size >= 10_000) this.memo.clear();
      this.memo.set(key, hit);
    }
    return hit;
  }

  private resolve(user: string, groups: readonly string[]): Set<string> {
    const out = new Set<string>();
    for (const r of this.byUser.get(user) ?? []) out.add(r);
    for (const g of groups) for (const r of this.byGroup.get(g) ?? []) out.add(r);
    for (const r of this.byGroup.get(GROUP_PUBLIC) ?? []) out.add(r);
    const queue = [...out];
    while (queue.length > 0) {
      for (const p of this.parents.get(queue.pop()!) ?? [])
        if (!out.has(p)) {
          out.add(p);
          queue.push(p);
        }
    }
    return out;
  }
}

function add(map: Map<string, Set<string>>, key: string, value: string): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}
