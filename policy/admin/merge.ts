/**
 * Ranger's grant merge over plain policy JSON (the shape Ranger Admin's public
 * API and the local policy files hold): one policy per exact resource
 * signature; a grant merges its access types into the grantee's own item of
 * that policy (or adds the item, or creates the policy); a revoke removes
 * types from the grantee's items. Used for the local files and for Ranger
 * Admin's public API (read, merge, write back).
 *
 * Labels make REVOKE narrow without cascading: every grant leaves
 * `chm:<TYPE>:<name>:<PRIVILEGE>` on the policy, and a revoke keeps the types
 * another remaining label of the same grantee still needs. A grantee with no
 * label at all on the policy (a grant written before labels, or by hand)
 * falls back to removing the named types, and the caller logs it.
 */
import { denyTypes, ownTypes, type Level, type Privilege, type TargetKind } from './privileges.js';
import { grantLabel, grantorLabel, parseGrantorLabel, parseLabel, type LevelWrite } from './plan.js';
import type { Grantee } from './statement.js';

export type Json = Record<string, unknown>;

interface Item {
  accesses?: { type: string; isAllowed?: boolean }[];
  users?: string[];
  groups?: string[];
  roles?: string[];
  conditions?: unknown[];
  delegateAdmin?: boolean;
}

export interface Change {
  write: LevelWrite;
  grantee: Grantee;
  effect: 'allow' | 'deny';
  delegateAdmin: boolean;
  grantor: string;
}

/** GROUP g is Ranger role g: Polaris never sends groups, so a group grant must ride on a role of that name. */
export const granteeField = (g: Grantee): 'users' | 'roles' => (g.type === 'USER' ? 'users' : 'roles');

const ITEM_LISTS = ['policyItems', 'denyPolicyItems', 'allowExceptions', 'denyExceptions', 'dataMaskPolicyItems', 'rowFilterPolicyItems'];

/** The resource signature Ranger keys policies by: every resource's values, excludes and recursive flags. */
export function signature(resources: unknown): string {
  const r = (resources ?? {}) as Record<string, { values?: string[]; isExcludes?: boolean; isRecursive?: boolean }>;
  return JSON.stringify(
    Object.keys(r)
      .sort()
      .map((k) => [k, [...(r[k]!.values ?? [])].sort(), r[k]!.isExcludes === true, r[k]!.isRecursive === true]),
  );
}

export function resourcesOf(resource: Record<string, string>): Json {
  return Object.fromEntries(Object.entries(resource).map(([k, v]) => [k, { values: [v], isExcludes: false, isRecursive: false }]));
}

/** The access policy on exactly this resource (policyType 0, not in a zone). */
export function findPolicy(policies: Json[], resource: Record<string, string>): Json | undefined {
  const sig = signature(resourcesOf(resource));
  return policies.find((p) => (p['policyType'] ?? 0) === 0 && !p['zoneName'] && signature(p['resources']) === sig);
}

const onlyGrantee = (item: Item, g: Grantee): boolean => {
  const field = granteeField(g);
  const other = field === 'users' ? 'roles' : 'users';
  return (item[field] ?? []).length === 1 && item[field]![0] === g.name && (item[other] ?? []).length === 0 && (item.groups ?? []).length === 0 && (item.conditions ?? []).length === 0;
};

/**
 * Whether the policy on exactly this resource already gives the grantee every
 * one of these types, in an allow item naming it (users for a user, roles for
 * a role or group) without conditions, and no deny item of it takes one away:
 * writing them again would change nothing. Another policy covering the
 * resource (a wildcard, a role the user is in) does not count: a grant must
 * not depend on a policy it did not write staying there.
 */
export function holdsAt(policies: Json[], resource: Record<string, string>, grantee: Grantee, types: readonly string[]): boolean {
  const policy = findPolicy(policies, resource);
  if (!policy || policy['isEnabled'] === false) return false;
  const field = granteeField(grantee);
  const theirs = (list: string) => ((policy[list] as Item[] | undefined) ?? []).filter((i) => (i[field] ?? []).includes(grantee.name));
  const held = new Set(
    theirs('policyItems')
      .filter((i) => (i.conditions ?? []).length === 0)
      .flatMap((i) => (i.accesses ?? []).filter((a) => a.isAllowed !== false).map((a) => a.type)),
  );
  const denied = new Set(theirs('denyPolicyItems').flatMap((i) => (i.accesses ?? []).map((a) => a.type)));
  return types.every((t) => held.has(t) && !denied.has(t));
}

const labelsOf = (p: Json): string[] => ((p['policyLabels'] as string[] | undefined) ?? []).slice();

/** Merges one level's grant into the policy list; returns the policy written (new or changed). */
export function applyGrant(policies: Json[], c: Change, now: number, newName: () => string): Json {
  let policy = findPolicy(policies, c.write.resource);
  if (!policy) {
    policy = {
      name: newName(),
      isEnabled: true,
      isAuditEnabled: true,
      policyType: 0,
      description: `created by lakegate GRANT (${c.write.display})`,
      resources: resourcesOf(c.write.resource),
      policyItems: [],
      denyPolicyItems: [],
      allowExceptions: [],
      denyExceptions: [],
      dataMaskPolicyItems: [],
      rowFilterPolicyItems: [],
      policyLabels: [],
      createTime: now,
    };
    policies.push(policy);
  }
  const listName = c.effect === 'deny' ? 'denyPolicyItems' : 'policyItems';
  const items = ((policy[listName] as Item[] | undefined) ?? []).slice();
  let item = items.find((i) => onlyGrantee(i, c.grantee));
  if (!item) {
    item = { accesses: [], users: [], groups: [], roles: [], conditions: [], delegateAdmin: false };
    item[granteeField(c.grantee)] = [c.grantee.name];
    items.push(item);
  }
  const have = new Set((item.accesses ?? []).filter((a) => a.isAllowed !== false).map((a) => a.type));
  item.accesses = [...(item.accesses ?? []).filter((a) => a.isAllowed !== false), ...c.write.types.filter((t) => !have.has(t)).map((type) => ({ type, isAllowed: true }))];
  item.delegateAdmin = (item.delegateAdmin ?? false) || c.delegateAdmin;
  policy[listName] = items;
  const labels = labelsOf(policy);
  for (const l of [grantLabel(c.grantee, c.write.privilege, c.write.kind, c.effect === 'deny'), grantorLabel(c.grantee, c.grantor)]) if (!labels.includes(l)) labels.push(l);
  policy['policyLabels'] = labels;
  policy['updateTime'] = now;
  return policy;
}

export interface RevokeOutcome {
  /** The policy changed (undefined: nothing held on that resource). */
  policy?: Json;
  /** The policy has no item left and should be deleted. */
  empty: boolean;
  /** Types removed. */
  removed: string[];
  /** Types kept because another labelled privilege of the grantee needs them. */
  heldBack: string[];
  /** The grantee had no label on the policy: the named types were removed as they were. */
  unlabelled: boolean;
}

/**
 * Which access types a labelled privilege holds on a policy of this service:
 * allow items hold what a grant writes, deny items what a DENY writes. The
 * polaris service's own by default; the data gate's for its projection.
 */
export interface TypeRules {
  types(privilege: Privilege, level: Level, kind: TargetKind, deny: boolean): readonly string[] | null;
}

export const POLARIS_TYPES: TypeRules = {
  types: (p, level, kind, deny) => (deny ? denyTypes(p, level, kind) : ownTypes(p, level, kind)),
};

/**
 * Removes one privilege of one grantee from the policy on exactly the write's
 * resource: from allow items the types the write names, from deny items the
 * types a DENY of it writes.
 */
export function applyRevoke(policies: Json[], write: LevelWrite, grantee: Grantee, now: number, rules: TypeRules = POLARIS_TYPES): RevokeOutcome {
  const policy = findPolicy(policies, write.resource);
  const out: RevokeOutcome = { empty: false, removed: [], heldBack: [], unlabelled: false };
  if (!policy) return out;
  const mine = labelsOf(policy)
    .map((l) => ({ l, p: parseLabel(l) }))
    .filter((x) => x.p && granteeField(x.p.grantee) === granteeField(grantee) && x.p.grantee.name === grantee.name);
  out.unlabelled = mine.length === 0;
  const revoked = (p: { privilege: Privilege; kind: TargetKind }) => p.privilege === write.privilege && (write.privilege === 'USAGE' || p.kind === write.kind);
  const remaining = mine.filter((x) => !revoked(x.p!));
  const needed = (deny: boolean) => {
    const s = new Set<string>();
    for (const x of remaining) if (x.p!.deny === deny) for (const t of rules.types(x.p!.privilege, write.level, x.p!.kind, deny) ?? []) s.add(t);
    return s;
  };
  for (const [listName, deny] of [['policyItems', false], ['denyPolicyItems', true]] as const) {
    const keep = needed(deny);
    // A DENY written before deny types were narrowed held the grant's types: a labelled one is
    // cleared whole; an unlabelled deny item loses only what a DENY of this privilege writes now.
    const denied = rules.types(write.privilege, write.level, write.kind, true) ?? [];
    const labelledDeny = mine.some((x) => x.p!.deny && revoked(x.p!));
    const named = deny ? [...new Set([...denied, ...(labelledDeny ? write.types : [])])] : write.types;
    const field = granteeField(grantee);
    const all = (policy[listName] as Item[] | undefined) ?? [];
    const added: Item[] = [];
    for (const item of all) {
      if (!(item[field] ?? []).includes(grantee.name)) continue;
      const accesses = (item.accesses ?? []).filter((a) => {
        if (!named.includes(a.type)) return true;
        if (keep.has(a.type)) {
          if (!out.heldBack.includes(a.type)) out.heldBack.push(a.type);
          return true;
        }
        if (!out.removed.includes(a.type)) out.removed.push(a.type);
        return false;
      });
      if (onlyGrantee(item, grantee)) {
        item.accesses = accesses;
      } else if (accesses.length !== (item.accesses ?? []).length) {
        // A shared item: take this grantee out of it, keeping what it still holds in an item of its own.
        item[field] = (item[field] ?? []).filter((n) => n !== grantee.name);
        if (accesses.length > 0) added.push({ ...item, users: [], groups: [], roles: [], [field]: [grantee.name], accesses });
      }
    }
    policy[listName] = [...all, ...added];
    policy[listName] = ((policy[listName] as Item[] | undefined) ?? []).filter(
      (i) => (i.accesses ?? []).length > 0 && (i.users ?? []).length + (i.roles ?? []).length + (i.groups ?? []).length > 0,
    );
  }
  const field = granteeField(grantee);
  // The grantee's grantors go with the last thing it held here; another grantee's, and an unattributed
  // (earlier lakegate) grantor label, stay.
  const stillHeld = ITEM_LISTS.some((k) => ((policy[k] as Item[] | undefined) ?? []).some((i) => (i[field] ?? []).includes(grantee.name)));
  policy['policyLabels'] = labelsOf(policy).filter((l) => {
    if (mine.some((x) => x.l === l && revoked(x.p!))) return false;
    const g = parseGrantorLabel(l)?.grantee;
    return stillHeld || !g || g.field !== field || g.name !== grantee.name;
  });
  policy['updateTime'] = now;
  out.policy = policy;
  out.empty = ITEM_LISTS.every((k) => ((policy[k] as unknown[] | undefined) ?? []).length === 0);
  return out;
}
