/**
 * Who may do what on a resource through GDS (Ranger's RangerResourceACLs as the
 * GDS engine fills it): per user / group / role and access type an access result
 * (allowed, denied, conditional), plus the datasets and projects involved.
 *
 * Later policies overwrite earlier answers until one is final; a deny is final at
 * once, and finalize() makes every surviving answer final.
 */
import { GROUP_PUBLIC } from '../roles.js';

export const ACCESS_DENIED = -1;
export const ACCESS_ALLOWED = 1;
export const ACCESS_CONDITIONAL = 2;

export interface AclEntry {
  result: number;
  isFinal: boolean;
  policyId: number;
}

export type AclMap = Map<string, Map<string, AclEntry>>;

export class ResourceAcls {
  readonly userACLs: AclMap = new Map();
  readonly groupACLs: AclMap = new Map();
  readonly roleACLs: AclMap = new Map();
  readonly datasets = new Set<string>();
  readonly projects = new Set<string>();

  set(kind: 'user' | 'group' | 'role', name: string, accessType: string, result: number, policyId: number): void {
    const acls = kind === 'user' ? this.userACLs : kind === 'group' ? this.groupACLs : this.roleACLs;
    let byType = acls.get(name);
    if (!byType) acls.set(name, (byType = new Map()));
    const entry = byType.get(accessType);
    if (!entry) byType.set(accessType, { result, isFinal: result === ACCESS_DENIED, policyId });
    else if (!entry.isFinal) {
      entry.result = result;
      entry.isFinal = result === ACCESS_DENIED;
      entry.policyId = policyId;
    }
  }

  /** A decided `public` answer supersedes non-final answers for everyone else; then all become final. */
  finalize(): void {
    const pub = this.groupACLs.get(GROUP_PUBLIC);
    if (pub)
      for (const [accessType, e] of pub) {
        if (e.result !== ACCESS_DENIED && e.result !== ACCESS_ALLOWED) continue;
        for (const byType of this.userACLs.values()) if (byType.get(accessType)?.isFinal === false) byType.delete(accessType);
        for (const [g, byType] of this.groupACLs) if (g !== GROUP_PUBLIC && byType.get(accessType)?.isFinal === false) byType.delete(accessType);
      }
    for (const acls of [this.userACLs, this.groupACLs, this.roleACLs])
      for (const [name, byType] of acls) {
        if (byType.size === 0) acls.delete(name);
        else for (const e of byType.values()) e.isFinal = true;
      }
  }
}
