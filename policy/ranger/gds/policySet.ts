/**
 * The policies of one dataset or project, evaluated the way Ranger evaluates
 * them there: each policy on its own (RangerDefaultPolicyEvaluator.evaluate), in
 * the order Admin listed them, against a request whose only resource is the
 * dataset's (or project's) id. No repository, no zones, no tags: the first policy
 * that decides access wins, the first audited one sets the audit flag.
 *
 * Item matching, implied grants and conditions are lakegate's PolicyEvaluator.
 */
import { ANY_ACCESS, type AccessTypes } from '../accessTypes.js';
import type { EvalRequest } from '../evalRequest.js';
import type { Policy, PolicyItem, ServiceDef } from '../model.js';
import { PolicyEvaluator } from '../policyEvaluator.js';
import { ACCESS_ALLOWED, ACCESS_CONDITIONAL, ACCESS_DENIED, type ResourceAcls } from './acls.js';

export interface PolicyVerdict {
  isAllowed: boolean;
  isAudited: boolean;
  policyId: number;
  policyVersion: number | null;
}

export interface GdsDefs {
  def: ServiceDef;
  accessTypes: AccessTypes;
}

export class GdsPolicySet {
  private readonly evaluators: readonly PolicyEvaluator[];
  private readonly accessTypes: AccessTypes;
  private readonly denyEnabled: boolean;

  constructor(policies: readonly Policy[], defs: GdsDefs) {
    const denyEnabled = defs.def.options['enableDenyAndExceptionsInPolicies'] !== 'false';
    this.accessTypes = defs.accessTypes;
    this.denyEnabled = denyEnabled;
    this.evaluators = policies
      .filter((p) => p.isEnabled)
      .map(
        (p) =>
          new PolicyEvaluator(p, {
            serviceDef: defs.def,
            accessTypes: defs.accessTypes,
            denyEnabled,
            conditionOptions: { trustedProxies: [], useForwardedFor: false },
          }),
      );
  }

  get isEmpty(): boolean {
    return this.evaluators.length === 0;
  }

  /** `req.resource` is `{dataset-id: "<id>"}` (or project-id); `accessType` is the original request's. */
  evaluate(req: EvalRequest, accessType: string, isAny: boolean): PolicyVerdict {
    const out: PolicyVerdict = { isAllowed: false, isAudited: false, policyId: -1, policyVersion: null };
    let accessDecided = false;
    let auditDecided = false;
    for (const p of this.evaluators) {
      if (accessDecided && auditDecided) break;
      // Ranger's repository skips a policy outside its validity schedules; so do we.
      if (!p.isApplicable(req.accessTime)) continue;
      const t = p.matchType(req);
      const matched = isAny ? t !== 'NONE' : t === 'SELF' || t === 'SELF_AND_ALL_DESCENDANTS' || t === 'ANCESTOR';
      if (!matched || !p.matchesPolicyConditions(req)) continue;
      if (!auditDecided && p.isAuditEnabled) {
        out.isAudited = true;
        auditDecided = true;
      }
      if (accessDecided) continue;
      const decided = p.decidingItem(req, isAny ? ANY_ACCESS : accessType) ?? (p.isDenyAllElse ? 'deny' : undefined);
      if (decided === undefined) continue;
      accessDecided = true;
      out.isAllowed = decided === 'allow';
      out.policyId = p.id;
      out.policyVersion = p.version;
    }
    return out;
  }

  /**
   * RangerAbstractPolicyEvaluator.getResourceACLs with match type SELF: each
   * policy's ACL summary, limited to the shared resource's access types, every
   * answer conditional when something on the path (or the policy) is.
   */
  collectAcls(req: EvalRequest, acls: ResourceAcls, isConditional: boolean, targetAccessTypes: ReadonlySet<string>): void {
    for (const p of this.evaluators) {
      if (p.matchType(req) !== 'SELF' && p.matchType(req) !== 'SELF_AND_ALL_DESCENDANTS') continue;
      const conditional = isConditional || p.policy.conditions.length > 0 || p.policy.validitySchedules.length > 0;
      const summary = aclSummary(p.policy, this.accessTypes, this.denyEnabled, targetAccessTypes);
      for (const [key, result] of summary) {
        const [kind, name, accessType] = key.split('\u0000') as ['user' | 'group' | 'role', string, string];
        acls.set(kind, name, accessType, conditional ? ACCESS_CONDITIONAL : result, p.id);
      }
    }
  }

  /** Does any item of any policy name one of these users, groups or roles? */
  hasReference(users: ReadonlySet<string>, groups: ReadonlySet<string>, roles: ReadonlySet<string>): boolean {
    for (const p of this.evaluators) {
      const pol = p.policy;
      const items = [...pol.policyItems, ...pol.denyPolicyItems, ...pol.allowExceptions, ...pol.denyExceptions, ...pol.dataMaskPolicyItems, ...pol.rowFilterPolicyItems];
      for (const i of items)
        if (i.users.some((u) => users.has(u)) || i.groups.some((g) => groups.has(g)) || i.roles.some((r) => roles.has(r))) return true;
    }
    return false;
  }
}

/**
 * A policy's answer per principal and access type, ignoring conditions (they make
 * the answer conditional instead): deny items minus deny exceptions deny, allow
 * items minus allow exceptions allow; a deny wins over an allow. Read from the
 * policy's items because ItemEvaluator does not expose an item's roles.
 */
function aclSummary(policy: Policy, accessTypes: AccessTypes, denyEnabled: boolean, targets: ReadonlySet<string>): Map<string, number> {
  const out = new Map<string, number>();
  const subjects = (items: readonly PolicyItem[], type: string) => {
    const s = new Set<string>();
    for (const i of items) {
      const granted = accessTypes.expand(i.accesses.filter((a) => a.isAllowed).map((a) => a.type));
      if (!granted.has(type)) continue;
      for (const u of i.users) s.add(`user\u0000${u}`);
      for (const g of i.groups) s.add(`group\u0000${g}`);
      for (const r of i.roles) s.add(`role\u0000${r}`);
    }
    return s;
  };
  for (const type of targets) {
    const allowed = subjects(policy.policyItems, type);
    if (denyEnabled) for (const x of subjects(policy.allowExceptions, type)) allowed.delete(x);
    for (const x of allowed) out.set(`${x}\u0000${type}`, ACCESS_ALLOWED);
    if (!denyEnabled) continue;
    const denied = subjects(policy.denyPolicyItems, type);
    for (const x of subjects(policy.denyExceptions, type)) denied.delete(x);
    for (const x of denied) out.set(`${x}\u0000${type}`, ACCESS_DENIED);
  }
  return out;
}
