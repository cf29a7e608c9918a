/**
 * One policy, compiled once per bundle: its resource matcher, conditions, validity
 * schedules, items and evaluation order (reference/ranger.md §4.3–4.6, §6).
 *
 * The evaluator answers three questions for an engine: how the policy's resources
 * relate to the request, which item (if any) decides one access type, and which
 * mask / row-filter item applies. Combining answers across policies is the
 * engine's job.
 */
import { type AccessTypes, ADMIN_ACCESS, ANY_ACCESS } from './accessTypes.js';
import type { EvalRequest } from './evalRequest.js';
import { compileConditions, type CompiledCondition, type FailClosed } from './conditionSet.js';
import type { Condition, DataMaskPolicyItem, Policy, PolicyItem, RowFilterPolicyItem, ServiceDef } from './model.js';
import { GROUP_PUBLIC } from './roles.js';
import { isScheduleApplicable } from './conditions/validity.js';
import { policyMatcher, type PolicyMatcher } from './resourceMatching.js';
import type { MatchType } from './matchers/types.js';

export const USER_CURRENT = '{USER}';
export const RESOURCE_OWNER = '{OWNER}';

export class ItemEvaluator {
  private readonly users: ReadonlySet<string>;
  private readonly groups: ReadonlySet<string>;
  readonly userNames: readonly string[];
  readonly groupNames: readonly string[];
  private readonly roles: ReadonlySet<string>;
  private readonly anyUser: boolean;
  private readonly owner: boolean;
  private readonly publicGroup: boolean;
  /** Allowed access names after implied-grant expansion, lower-cased. */
  readonly accesses: ReadonlySet<string>;
  readonly delegateAdmin: boolean;
  private readonly conditions: readonly CompiledCondition[];

  constructor(item: PolicyItem, accessTypes: AccessTypes, conditions: readonly CompiledCondition[], mapAccess: (t: string) => string | null) {
    this.users = new Set(item.users);
    this.groups = new Set(item.groups);
    this.userNames = item.users;
    this.groupNames = item.groups;
    this.roles = new Set(item.roles);
    this.anyUser = this.users.has(USER_CURRENT);
    this.owner = this.users.has(RESOURCE_OWNER);
    this.publicGroup = this.groups.has(GROUP_PUBLIC);
    const allowed: string[] = [];
    for (const a of item.accesses) {
      if (!a.isAllowed) continue;
      const t = mapAccess(a.type);
      if (t !== null) allowed.push(t);
    }
    this.accesses = accessTypes.expand(allowed);
    this.delegateAdmin = item.delegateAdmin;
    this.conditions = conditions;
  }

  get hasAccesses(): boolean {
    return this.accesses.size > 0;
  }

  matchesSubject(req: EvalRequest): boolean {
    if (this.anyUser || this.users.has(req.user)) return true;
    if (this.publicGroup) return true;
    for (const g of req.groups) if (this.groups.has(g)) return true;
    if (this.roles.size > 0) for (const r of req.roles) if (this.roles.has(r)) return true;
    return this.owner && req.ownerUser !== undefined && req.user === req.ownerUser;
  }

  matchesAccess(accessType: string): boolean {
    if (accessType === ADMIN_ACCESS) return this.delegateAdmin;
    if (accessType === ANY_ACCESS) return this.accesses.size > 0;
    return this.accesses.has(accessType.toLowerCase());
  }

  matchesConditions(req: EvalRequest): boolean {
    for (const c of this.conditions) if (!c.isMatch(req)) return false;
    return true;
  }

  isMatch(req: EvalRequest, accessType: string): boolean {
    return this.matchesSubject(req) && this.matchesAccess(accessType) && this.matchesConditions(req);
  }
}

export interface AccessInfo {
  allowedUsers: Set<string>;
  allowedGroups: Set<string>;
  deniedUsers: Set<string>;
  deniedGroups: Set<string>;
}

export interface MaskItem {
  item: ItemEvaluator;
  maskType: string | null;
  conditionExpr: string | null;
  valueExpr: string | null;
}

export interface FilterItem {
  item: ItemEvaluator;
  filterExpr: string;
}

export interface EvaluatorOptions {
  serviceDef: ServiceDef;
  accessTypes: AccessTypes;
  /** For tag policies: maps `hive:select` to `select` for this component, null for others. */
  mapAccess?: (t: string) => string | null;
  /** For tag policies: maps `hive:MASK` to `MASK` for this component. */
  mapMaskType?: (t: string) => string | null;
  /** Whether deny items and exceptions are honoured (service-def option). */
  denyEnabled: boolean;
  conditionOptions: { trustedProxies: string[]; useForwardedFor: boolean };
  /** Zone that recurrence fields are read in (Ranger: the JVM default zone). */
  localTimeZone?: string;
}

export class PolicyEvaluator {
  readonly id: number;
  readonly name: string;
  readonly version: number | null;
  readonly priority: number;
  readonly policyType: 0 | 1 | 2;
  readonly zoneName: string | null;
  readonly isAuditEnabled: boolean;
  readonly isDenyAllElse: boolean;
  readonly evalOrder: number;
  readonly matcher: PolicyMatcher;
  readonly allow: readonly ItemEvaluator[];
  readonly deny: readonly ItemEvaluator[];
  readonly allowExceptions: readonly ItemEvaluator[];
  readonly denyExceptions: readonly ItemEvaluator[];
  readonly masks: readonly MaskItem[];
  readonly filters: readonly FilterItem[];
  private readonly conditions: readonly CompiledCondition[];
  private readonly schedules: Policy['validitySchedules'];
  private readonly scheduleOptions: { localTimeZone?: string };

  constructor(
    readonly policy: Policy,
    opts: EvaluatorOptions,
  ) {
    const mapAccess = opts.mapAccess ?? ((t: string) => t);
    const mapMaskType = (t: string | null) => (t === null || !opts.mapMaskType ? t : opts.mapMaskType(t));
    // A condition that cannot be evaluated answers whichever way gives less access.
    const conds = (c: readonly Condition[], onError: FailClosed) => compileConditions(c, opts.serviceDef, opts.conditionOptions, onError);
    const items = (list: readonly PolicyItem[], onError: FailClosed) =>
      list.map((i) => new ItemEvaluator(i, opts.accessTypes, conds(i.conditions, onError), mapAccess)).filter((i) => i.hasAccesses || i.delegateAdmin);

    this.id = policy.id ?? -1;
    this.name = policy.name;
    this.version = policy.version ?? null;
    this.priority = policy.policyPriority;
    this.policyType = policy.policyType;
    this.zoneName = policy.zoneName ?? null;
    this.isAuditEnabled = policy.isAuditEnabled;
    this.isDenyAllElse = policy.policyType === 0 && policy.isDenyAllElse;
    this.matcher = policyMatcher(opts.serviceDef, policy);
    this.conditions = conds(policy.conditions, policy.denyPolicyItems.length > 0 || policy.isDenyAllElse ? 'match' : 'no-match');
    this.schedules = policy.validitySchedules;
    this.scheduleOptions = opts.localTimeZone ? { localTimeZone: opts.localTimeZone } : {};
    this.allow = items(policy.policyItems, 'no-match');
    this.deny = opts.denyEnabled ? items(policy.denyPolicyItems, 'match') : [];
    this.allowExceptions = opts.denyEnabled ? items(policy.allowExceptions, 'match') : [];
    this.denyExceptions = opts.denyEnabled ? items(policy.denyExceptions, 'no-match') : [];
    this.masks = policy.dataMaskPolicyItems.map((i: DataMaskPolicyItem) => ({
      item: new ItemEvaluator(i, opts.accessTypes, conds(i.conditions, 'match'), mapAccess),
      maskType: mapMaskType(i.dataMaskInfo?.dataMaskType ?? null),
      conditionExpr: i.dataMaskInfo?.conditionExpr ?? null,
      valueExpr: i.dataMaskInfo?.valueExpr ?? null,
    }));
    this.filters = policy.rowFilterPolicyItems
      .filter((i: RowFilterPolicyItem) => i.rowFilterInfo?.filterExpr != null && i.rowFilterInfo.filterExpr !== '')
      .map((i: RowFilterPolicyItem) => ({
        item: new ItemEvaluator(i, opts.accessTypes, conds(i.conditions, 'match'), mapAccess),
        filterExpr: i.rowFilterInfo!.filterExpr!,
      }));
    this.evalOrder = computeEvalOrder(policy, opts.serviceDef, this.matcher.isDynamic);
  }

  /**
   * Whether its answer can depend on more than user, groups, roles and resource:
   * conditions (policy or item level) or validity schedules.
   */
  get isContextDependent(): boolean {
    const p = this.policy;
    const itemHas = (items: readonly { conditions: readonly unknown[] }[]) => items.some((i) => i.conditions.length > 0);
    return (
      p.conditions.length > 0 ||
      p.validitySchedules.length > 0 ||
      itemHas(p.policyItems) ||
      itemHas(p.denyPolicyItems) ||
      itemHas(p.allowExceptions) ||
      itemHas(p.denyExceptions) ||
      itemHas(p.dataMaskPolicyItems) ||
      itemHas(p.rowFilterPolicyItems)
    );
  }

  /** Deny items or deny-all-else: such a policy can still deny after an allow. */
  get hasDeny(): boolean {
    return this.deny.length > 0 || this.isDenyAllElse;
  }

  /** Outside its validity schedules a policy is skipped; an unreadable schedule skips it too. */
  isApplicable(at: Date): boolean {
    if (this.schedules.length === 0) return true;
    try {
      return isScheduleApplicable(this.schedules, at, this.scheduleOptions);
    } catch {
      return false;
    }
  }

  matchType(req: EvalRequest): MatchType {
    return this.matcher.getMatchType(req);
  }

  matchesPolicyConditions(req: EvalRequest): boolean {
    for (const c of this.conditions) if (!c.isMatch(req)) return false;
    return true;
  }

  /**
   * The item that decides one access type: the first matching deny item unless a
   * deny exception matches, else the first matching allow item unless an allow
   * exception matches. `undefined` when neither applies.
   */
  decidingItem(req: EvalRequest, accessType: string): 'allow' | 'deny' | undefined {
    if (firstMatch(this.deny, req, accessType) && !firstMatch(this.denyExceptions, req, accessType)) return 'deny';
    if (firstMatch(this.allow, req, accessType) && !firstMatch(this.allowExceptions, req, accessType)) return 'allow';
    return undefined;
  }

  /**
   * Who this policy lets in or keeps out (Ranger's getResourceAccessInfo): allow
   * items minus allow exceptions, and, unless the policy sits below the request,
   * deny items minus deny exceptions.
   */
  collectAccessInfo(req: EvalRequest, accessType: string, matchType: MatchType, out: AccessInfo): void {
    const subjects = (items: readonly ItemEvaluator[]) => {
      const users = new Set<string>();
      const groups = new Set<string>();
      for (const i of items)
        if (i.matchesAccess(accessType) && i.matchesConditions(req)) {
          for (const u of i.userNames) users.add(u);
          for (const g of i.groupNames) groups.add(g);
        }
      return { users, groups };
    };
    const minus = (a: { users: Set<string>; groups: Set<string> }, b: { users: Set<string>; groups: Set<string> }) => {
      for (const u of b.users) a.users.delete(u);
      for (const g of b.groups) a.groups.delete(g);
      return a;
    };
    if (this.allow.length > 0) {
      const allowed = minus(subjects(this.allow), subjects(this.allowExceptions));
      for (const u of allowed.users) out.allowedUsers.add(u);
      for (const g of allowed.groups) out.allowedGroups.add(g);
    }
    if (matchType !== 'DESCENDANT' && this.deny.length > 0) {
      const denied = minus(subjects(this.deny), subjects(this.denyExceptions));
      for (const u of denied.users) out.deniedUsers.add(u);
      for (const g of denied.groups) out.deniedGroups.add(g);
    }
  }

  /** Mask items are tried in the policy's own order; the first match wins. */
  matchingMask(req: EvalRequest, accessType: string): MaskItem | undefined {
    return this.masks.find((m) => m.item.isMatch(req, accessType));
  }

  matchingFilter(req: EvalRequest, accessType: string): FilterItem | undefined {
    return this.filters.find((f) => f.item.isMatch(req, accessType));
  }
}

function firstMatch(items: readonly ItemEvaluator[], req: EvalRequest, accessType: string): boolean {
  for (const i of items) if (i.isMatch(req, accessType)) return true;
  return false;
}

/** Ranger's RangerOptimizedPolicyEvaluator.computeEvalOrder (reference/ranger.md §4.4). */
function computeEvalOrder(policy: Policy, def: ServiceDef, isDynamic: boolean): number {
  let order = 10000;
  if (isDynamic) order += 20;

  let resourceDiscount = 0;
  const defsByLevel = [...def.resources].sort((a, b) => (a.level ?? 0) - (b.level ?? 0));
  for (const rd of defsByLevel) {
    const r = policy.resources[rd.name];
    if (!r || r.values.length === 0) continue;
    if (r.values.some((v) => v === '*' || v === '')) resourceDiscount += 25;
    else if (r.values.some((v) => v.includes('*'))) resourceDiscount += 10;
    else if (r.values.some((v) => v.includes('?'))) resourceDiscount += 5;
    if (r.isExcludes) resourceDiscount += 5;
    if (r.isRecursive) resourceDiscount += 5;
  }
  order -= Math.min(100, resourceDiscount);

  const allItems: PolicyItem[] = [
    ...policy.policyItems,
    ...policy.denyPolicyItems,
    ...policy.allowExceptions,
    ...policy.denyExceptions,
    ...policy.dataMaskPolicyItems,
    ...policy.rowFilterPolicyItems,
  ];
  const everyone = policy.isDenyAllElse || allItems.some((i) => i.groups.includes(GROUP_PUBLIC) || i.users.includes(USER_CURRENT));
  if (everyone) order -= 25;
  else {
    const subjects = new Set<string>();
    for (const i of allItems) {
      for (const u of i.users) subjects.add(`u:${u}`);
      for (const g of i.groups) subjects.add(`g:${g}`);
    }
    order -= Math.min(subjects.size, 25);
  }

  const accessNames = new Set<string>();
  for (const i of allItems) for (const a of i.accesses) accessNames.add(a.type.toLowerCase());
  if (def.accessTypes.length > 0) order -= Math.round((25 * accessNames.size) / def.accessTypes.length);

  const declared = new Set(def.policyConditions.map((c) => c.name));
  let conditions = policy.conditions.filter((c) => declared.has(c.type)).length;
  for (const i of allItems) conditions += i.conditions.filter((c) => declared.has(c.type)).length;
  order -= Math.max(0, 25 - 5 * conditions);
  return order;
}

/** PolicyEvalOrderComparator: priority desc, deny-capable first, evalOrder asc, name asc. */
export function compareForAccess(a: PolicyEvaluator, b: PolicyEvaluator): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (a.hasDeny !== b.hasDeny) return a.hasDeny ? -1 : 1;
  if (a.evalOrder !== b.evalOrder) return a.evalOrder - b.evalOrder;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
