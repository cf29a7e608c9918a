/**
 * The policy engine for one service: access, data-mask and row-filter decisions
 * exactly as Ranger makes them (reference/ranger.md §4, §6), from a compiled
 * bundle of resource policies, tag policies, security zones, roles and tags.
 *
 * An engine is immutable; a new bundle builds a new engine.
 */
import { ADMIN_ACCESS, ANY_ACCESS, AccessTypes, SUPER_USER_ACCESS, accessTypeForComponent } from './accessTypes.js';
import { type EvalRequest, forTag, prepareRequest } from './evalRequest.js';
import type { MatchType } from './matchers/types.js';
import type { Policy, ServiceDef, ServicePolicies, UserStore } from './model.js';
import { type AccessInfo, compareForAccess, type PolicyEvaluator } from './policyEvaluator.js';
import { Repository } from './repository.js';
import type { AccessRequest, AccessResult, DataMaskResult, RowFilterResult, TagForEval } from './request.js';
import { RoleStore } from './roles.js';
import { type TagStore, tagIsValid } from './tags.js';
import { ZoneMatcher } from './zones.js';
import { expandRequestExpressions } from './conditions/requestExpression.js';
import { AuditFilters, resourceFilterMatch, tagFilterMatch } from './auditFilters.js';
import { DecisionCache, requestKey } from './decisionCache.js';

export type AuditMode = 'audit-all' | 'audit-none' | 'audit-default';

/**
 * Which policies a mask or row-filter decision is taken from: Ranger's own order
 * (tag policies first, a resource policy only with a strictly higher priority),
 * or one kind alone, for callers that combine the two themselves.
 */
export type PolicyScope = 'all' | 'resource' | 'tag';

export interface EngineOptions {
  roles?: RoleStore;
  tags?: TagStore | null;
  userStore?: UserStore | null;
  superUsers?: readonly string[];
  superGroups?: readonly string[];
  auditExcludedUsers?: readonly string[];
  auditExcludedGroups?: readonly string[];
  auditExcludedRoles?: readonly string[];
  /** Conditions on client addresses trust X-Forwarded-For from these proxies. */
  trustedProxies?: readonly string[];
  useForwardedFor?: boolean;
  /** Zone that schedule recurrences are read in (Ranger: the JVM default zone); default the host's. */
  localTimeZone?: string;
  /** Decisions remembered per engine (0 turns the cache off). Default 10,000 per kind. */
  decisionCacheSize?: number;
}

const MAX_PRIORITY = 2 ** 31 - 1;

interface ZoneRepos {
  resource: Repository;
  tag: Repository | null;
}

export class PolicyEngine {
  readonly serviceName: string;
  readonly serviceDef: ServiceDef;
  readonly policyVersion: number | null;
  private readonly accessTypes: AccessTypes;
  private readonly auditMode: AuditMode;
  private readonly roles: RoleStore;
  private readonly tags: TagStore | null;
  private readonly userStore: UserStore | null;
  private readonly superUsers: ReadonlySet<string>;
  private readonly superGroups: ReadonlySet<string>;
  private readonly auditExcluded: { users: ReadonlySet<string>; groups: ReadonlySet<string>; roles: ReadonlySet<string> };
  private readonly unzoned: ZoneRepos;
  private readonly zones = new Map<string, ZoneRepos>();
  private readonly zoneMatcher: ZoneMatcher;
  private readonly localTimeZone: string | undefined;
  private readonly auditFilters: AuditFilters;
  private readonly tagAuditFilters: AuditFilters | null;
  /** Null when some policy or tag can answer differently for the same request (conditions, schedules). */
  private readonly caches: { access: DecisionCache<AccessResult>; mask: DecisionCache<DataMaskResult>; filter: DecisionCache<RowFilterResult> } | null;
  private readonly unzonedRepos: ZoneRepos & { zoneName: null };
  private readonly policyNames = new Map<number, string>();
  private readonly contextDependent: boolean;

  constructor(bundle: ServicePolicies, opts: EngineOptions = {}) {
    this.serviceName = bundle.serviceName;
    this.serviceDef = bundle.serviceDef;
    this.policyVersion = bundle.policyVersion ?? null;
    this.accessTypes = AccessTypes.of(bundle.serviceDef);
    this.auditMode = (bundle.auditMode as AuditMode | null | undefined) ?? 'audit-default';
    this.roles = opts.roles ?? new RoleStore(null);
    this.tags = opts.tags ?? null;
    this.userStore = opts.userStore ?? null;
    const cfg = bundle.serviceConfig;
    this.superUsers = new Set([...(opts.superUsers ?? []), ...splitList(cfg['ranger.plugin.super.users'])]);
    this.superGroups = new Set([...(opts.superGroups ?? []), ...splitList(cfg['ranger.plugin.super.groups'])]);
    this.auditExcluded = {
      users: new Set([...(opts.auditExcludedUsers ?? []), ...splitList(cfg['ranger.plugin.audit.exclude.users'])]),
      groups: new Set([...(opts.auditExcludedGroups ?? []), ...splitList(cfg['ranger.plugin.audit.exclude.groups'])]),
      roles: new Set([...(opts.auditExcludedRoles ?? []), ...splitList(cfg['ranger.plugin.audit.exclude.roles'])]),
    };
    const conditionOptions = {
      trustedProxies: [...(opts.trustedProxies ?? [])],
      useForwardedFor: opts.useForwardedFor ?? false,
    };
    const tz = opts.localTimeZone ? { localTimeZone: opts.localTimeZone } : {};
    this.localTimeZone = opts.localTimeZone;
    const denyEnabled = bundle.serviceDef.options['enableDenyAndExceptionsInPolicies'] !== 'false';
    const resourceRepo = (policies: readonly Policy[]) =>
      new Repository(policies, { serviceDef: bundle.serviceDef, accessTypes: this.accessTypes, denyEnabled, conditionOptions, ...tz });

    const tagDef = bundle.tagPolicies?.serviceDef ?? null;
    const tagPolicies = bundle.tagPolicies?.policies ?? [];
    const tagRepo = (policies: readonly Policy[]) => {
      if (!tagDef || policies.length === 0) return null;
      const component = bundle.serviceDef.name;
      const normalized = normalizeTagDef(tagDef, component);
      return new Repository(policies, {
        serviceDef: normalized,
        accessTypes: AccessTypes.of(normalized),
        denyEnabled: tagDef.options['enableDenyAndExceptionsInPolicies'] !== 'false',
        conditionOptions,
        mapAccess: (t) => accessTypeForComponent(t, component),
        // Another component's mask type stays as named: a mask this component cannot apply, never "no mask".
        mapMaskType: (t) => accessTypeForComponent(t, component) ?? t,
        ...tz,
      });
    };

    this.unzoned = {
      resource: resourceRepo(bundle.policies.filter((p) => !p.zoneName)),
      tag: tagRepo(tagPolicies.filter((p) => !p.zoneName)),
    };
    for (const [name, zone] of Object.entries(bundle.securityZones)) {
      this.zones.set(name, {
        resource: resourceRepo(zone.policies),
        tag: zone.containsAssociatedTagService ? tagRepo(tagPolicies.filter((p) => p.zoneName === name)) : this.unzoned.tag,
      });
    }
    this.zoneMatcher = new ZoneMatcher(bundle.serviceDef, bundle.securityZones);
    this.unzonedRepos = { ...this.unzoned, zoneName: null };
    const repos = [this.unzoned, ...this.zones.values()];
    const dependent = repos.some((r) => r.resource.isContextDependent || (r.tag?.isContextDependent ?? false)) || (this.tags?.hasValidityPeriods ?? false);
    this.contextDependent = dependent;
    const zonePolicies = Object.values(bundle.securityZones).flatMap((z) => z.policies);
    for (const p of [...bundle.policies, ...tagPolicies, ...zonePolicies]) if (p.id !== null && p.id !== undefined) this.policyNames.set(p.id, p.name);
    const capacity = opts.decisionCacheSize ?? 10_000;
    this.caches =
      dependent || capacity === 0
        ? null
        : { access: new DecisionCache(capacity), mask: new DecisionCache(capacity), filter: new DecisionCache(capacity) };
    this.auditFilters = new AuditFilters(bundle.serviceDef, cfg['ranger.plugin.audit.filters']);
    this.tagAuditFilters = tagDef ? new AuditFilters(tagDef, bundle.tagPolicies?.serviceConfig['ranger.plugin.audit.filters']) : null;
  }

  /**
   * True when some policy or tag can answer the same request differently over time
   * (conditions, validity schedules, tag validity periods): its decisions must not
   * be remembered, nor plans built on them reused.
   */
  get isContextDependent(): boolean {
    return this.contextDependent;
  }

  /** The name of a policy of this bundle (resource, tag or zone policy) by id. */
  policyName(id: number): string | undefined {
    return this.policyNames.get(id);
  }

  /** The role store this engine resolves roles with (also what logins read roles from). */
  get roleStore(): RoleStore {
    return this.roles;
  }

  // ------------------------------------------------------------------ access

  isAccessAllowed(req: AccessRequest): AccessResult {
    return cached(this.caches?.access, req, () => this.decideAccess(req));
  }

  private decideAccess(req: AccessRequest): AccessResult {
    const accessType = req.accessType === '' ? ANY_ACCESS : req.accessType;
    const isAny = accessType === ANY_ACCESS || req.context?.ISANYACCESS === true;
    const roles = this.rolesOf(req);
    const tags = this.tagsFor(req, isAny);
    const ev = prepareRequest(req, roles, accessType, tags, this.userStore);
    const ignoreDescendantDeny = req.isDescendantDenyIgnored ?? true;
    const requested = this.requestedAccessTypes(req, accessType);
    const ctx: AccessEval = {
      req,
      ev,
      tags,
      isAny,
      accessType,
      // Only a real `_any` request reaches policies below its level; ISANYACCESS in the
      // context changes how access types combine, not which policies match.
      descendantScope: accessType === ANY_ACCESS || req.resourceMatchingScope === 'SELF_OR_DESCENDANTS',
      ignoreDescendantDeny,
      requested,
      // `_any` with descendant denies honoured: every type must be decided on its own.
      groups: req.allAccessTypeGroups ?? (isAny && !ignoreDescendantDeny ? requested.map((t) => [t]) : null),
    };

    return this.applyAuditFilters(this.evaluateZones(ctx), ctx);
  }

  /** After the decision, the first matching audit filter (tag filters first) settles isAudited. */
  private applyAuditFilters(result: AccessResult, ctx: AccessEval): AccessResult {
    let audited: boolean | undefined;
    if (this.tagAuditFilters && this.tagAuditFilters.size > 0 && ctx.tags.length > 0)
      audited = this.tagAuditFilters.decide(result, ctx.ev, ctx.accessType, ctx.req.action, tagFilterMatch(ctx.tags));
    if (audited === undefined && this.auditFilters.size > 0)
      audited = this.auditFilters.decide(result, ctx.ev, ctx.accessType, ctx.req.action, resourceFilterMatch(ctx.ev, ctx.descendantScope));
    if (audited !== undefined) {
      result.isAudited = audited;
      result.isAuditedDetermined = true;
    }
    return result;
  }

  /** Zones (RangerPolicyEngineImpl.zoneAwareAccessEvaluationWithNoAudit). */
  private evaluateZones(ctx: AccessEval): AccessResult {
    const req = ctx.req;
    const isAny = ctx.accessType === ANY_ACCESS;
    if (this.zones.size === 0) return this.evaluateAccessIn(ctx, this.unzoned, null);
    const names = this.zoneMatcher.zonesFor(req.resource, isAny);
    let result: AccessResult;
    if (names.length === 0 || (names.length > 1 && !isAny)) result = this.evaluateAccessIn(ctx, this.unzoned, null);
    else {
      result = this.evaluateAccessIn(ctx, this.zones.get(names[0]!)!, names[0]!);
      for (const name of names.slice(1)) {
        if (result.isAllowed) break;
        result = this.evaluateAccessIn(ctx, this.zones.get(name)!, name);
      }
    }
    if (isAny && Object.keys(req.resource).length === 0 && !result.isAllowed) {
      for (const [name, repos] of this.zones) {
        const r = this.evaluateAccessIn(ctx, repos, name);
        if (r.isAllowed) return r;
      }
    }
    return result;
  }

  /** evaluatePoliciesForOneAccessTypeNoAudit: super user, then tag policies, then resource policies. */
  private evaluateAccessIn(ctx: AccessEval, repos: ZoneRepos, zoneName: string | null): AccessResult {
    const result = this.newAccessResult(ctx.req, ctx.ev.roles);
    result.zoneName = zoneName;
    const superUser = this.isSuperUser(ctx.req);
    if (superUser || ctx.accessType === SUPER_USER_ACCESS) {
      // Decided here with the highest priority: the policies below only settle the audit flag.
      Object.assign(result, { isAllowed: superUser, isAccessDetermined: true, policyId: -1, policyPriority: MAX_PRIORITY, reason: 'superuser' });
    }
    if (repos.tag && ctx.tags.length > 0) this.evaluateTagAccess(ctx, repos.tag, ctx.tags, result);
    if (repos.resource.size > 0) this.evaluateResourceAccess(ctx, repos.resource, result);
    return result;
  }

  private evaluateTagAccess(ctx: AccessEval, repo: Repository, tags: readonly TagForEval[], result: AccessResult): void {
    const candidates = this.tagCandidates(repo, tags, ctx.ev.accessTime, 0);
    candidates.sort((a, b) => compareForAccess(a.policy, b.policy));

    for (const { policy, tag } of candidates) {
      if (!policy.isApplicable(ctx.ev.accessTime)) continue;
      const tagResult: AccessResult = { ...result };
      this.evaluatePolicy(policy, { ...ctx, ev: forTag(ctx.ev, tag) }, tagResult, new Map(), tag.matchType, true);
      if (tagResult.isAllowed && !policy.hasDeny) tagResult.isAccessDetermined = true;
      if (tagResult.isAudited) copyAudit(result, tagResult);
      if (!result.isAccessDetermined) {
        if (tagResult.isAccessDetermined || (!result.isAllowed && tagResult.isAllowed)) copyAccess(result, tagResult);
      }
      if (result.isAuditedDetermined && result.isAccessDetermined) break;
    }
    if (result.isAllowed) result.isAccessDetermined = true;
  }

  private evaluateResourceAccess(ctx: AccessEval, repo: Repository, result: AccessResult): void {
    const allowedByTags = result.isAccessDetermined && result.isAllowed;
    const deniedByTags = result.isAccessDetermined && !result.isAllowed;
    result.isAccessDetermined = false; // a resource policy may still override the tags' answer
    const typeResults = new Map<string, AccessResult>();

    for (const policy of repo.candidates(ctx.ev, 0)) {
      if (!policy.isApplicable(ctx.ev.accessTime)) continue;
      // Ranger's candidate list comes from its resource trie, which never holds a policy
      // whose resources miss the request; such a policy must not settle the decision below.
      const matchType = policy.matchType(ctx.ev);
      if (matchType === 'NONE') continue;
      if (deniedByTags) {
        if (result.policyPriority >= policy.priority) result.isAccessDetermined = true;
      } else if (result.isAllowed && result.policyPriority > policy.priority) result.isAccessDetermined = true;

      this.evaluatePolicy(policy, ctx, result, typeResults, matchType, false);
      if (result.isAllowed && !policy.hasDeny) result.isAccessDetermined = true;
      if (result.isAuditedDetermined && result.isAccessDetermined) break;
    }

    if (!result.isAccessDetermined) {
      if (deniedByTags) result.isAllowed = false;
      else if (allowedByTags) result.isAllowed = true;
      if (!result.isAllowed) result.isAccessDetermined = true;
    }
    if (result.isAllowed) result.isAccessDetermined = true;
  }

  /** RangerDefaultPolicyEvaluator.evaluate for one policy. */
  private evaluatePolicy(
    policy: PolicyEvaluator,
    ctx: AccessEval,
    result: AccessResult,
    typeResults: Map<string, AccessResult>,
    matchType: MatchType,
    viaTag: boolean,
  ): void {
    if (result.isAccessDetermined && result.isAuditedDetermined) return;
    if (!isMatched(matchType, ctx.descendantScope, viaTag)) return;
    if (!policy.matchesPolicyConditions(ctx.ev)) return;
    if (!result.isAuditedDetermined && policy.isAuditEnabled) {
      result.isAudited = true;
      result.isAuditedDetermined = true;
    }
    if (!result.isAccessDetermined) this.evaluateItems(policy, ctx, matchType, result, typeResults);
  }

  /** Per requested access type, then combined (RangerDefaultPolicyEvaluator.evaluatePolicyItems). */
  private evaluateItems(
    policy: PolicyEvaluator,
    ctx: AccessEval,
    matchType: MatchType,
    result: AccessResult,
    typeResults: Map<string, AccessResult>,
  ): void {
    for (const accessType of ctx.requested) {
      const one: AccessResult = { ...result, isAllowed: false, isAccessDetermined: false };
      const decided = policy.decidingItem(ctx.ev, accessType);
      if (decided !== undefined) updateAccessResult(one, policy, matchType, decided === 'allow', ctx.ignoreDescendantDeny);
      else if (policy.isDenyAllElse) updateAccessResult(one, policy, matchType, false, ctx.ignoreDescendantDeny);

      const allow = one.isAllowed ? one : null;
      const deny = !one.isAllowed && one.isAccessDetermined ? one : null;
      if (!allow && !deny) continue;

      const old = typeResults.get(accessType);
      if (!old) typeResults.set(accessType, (allow ?? deny)!);
      else if (old.isAllowed) {
        if (deny) {
          if (policy.priority >= old.policyPriority) typeResults.set(accessType, deny);
        } else if (policy.priority > old.policyPriority) typeResults.set(accessType, allow!);
      } else if (policy.priority >= old.policyPriority && allow && ctx.isAny) typeResults.set(accessType, allow);
      else if (policy.priority > old.policyPriority) typeResults.set(accessType, (allow ?? deny)!);

      if (ctx.isAny) {
        if (ctx.ignoreDescendantDeny && allow) break;
        if (!ctx.ignoreDescendantDeny && deny) break;
      }
    }
    const composite = compositeResult(ctx.requested, ctx.groups, typeResults);
    if (composite) copyAccess(result, composite);
  }

  /** Users and groups the policies let in or keep out (Ranger's getResourceAccessInfo). */
  resourceAccessInfo(req: AccessRequest): AccessInfo {
    const accessType = req.accessType === '' ? ANY_ACCESS : req.accessType;
    const roles = this.rolesOf(req);
    const isAny = accessType === ANY_ACCESS;
    const tags = this.tagsFor(req, isAny);
    const ev = prepareRequest(req, roles, accessType, tags, this.userStore);
    const out: AccessInfo = { allowedUsers: new Set(), allowedGroups: new Set(), deniedUsers: new Set(), deniedGroups: new Set() };
    const repos = this.reposFor(req, accessType);
    if (repos.tag)
      for (const { policy, tag } of this.tagCandidates(repos.tag, tags, ev.accessTime, 0))
        policy.collectAccessInfo(forTag(ev, tag), accessType, tag.matchType, out);
    for (const policy of repos.resource.candidates(ev, 0)) {
      const t = policy.matchType(ev);
      if (t !== 'NONE') policy.collectAccessInfo(ev, accessType, t, out);
    }
    for (const u of out.deniedUsers) out.allowedUsers.delete(u);
    for (const g of out.deniedGroups) out.allowedGroups.delete(g);
    return out;
  }

  // ------------------------------------------------------------------ masks and row filters

  evalDataMask(req: AccessRequest, scope: PolicyScope = 'all'): DataMaskResult {
    if (scope !== 'all') return this.decideMask(req, scope);
    return cached(this.caches?.mask, req, () => this.decideMask(req, scope));
  }

  private decideMask(req: AccessRequest, scope: PolicyScope): DataMaskResult {
    const found = this.evaluateFirstItem(req, 1, scope, (policy, ev, accessType) => {
      const m = policy.matchingMask(ev, accessType);
      if (!m) return null;
      return {
        maskType: m.maskType,
        maskCondition: m.conditionExpr === null ? null : expandRequestExpressions(m.conditionExpr, ev.condition),
        maskedValue: m.valueExpr === null ? null : expandRequestExpressions(m.valueExpr, ev.condition),
      };
    });
    const maskType = found?.value.maskType ?? null;
    return {
      maskType,
      maskCondition: found?.value.maskCondition ?? null,
      maskedValue: found?.value.maskedValue ?? null,
      transformer: maskType ? (this.serviceDef.dataMaskDef?.maskTypes.find((t) => t.name === maskType)?.transformer ?? null) : null,
      policyId: found?.policy.id ?? -1,
      policyPriority: found?.policy.priority ?? 0,
      isAudited: found?.audited ?? false,
    };
  }

  evalRowFilter(req: AccessRequest, scope: PolicyScope = 'all'): RowFilterResult {
    if (scope !== 'all') return this.decideRowFilter(req, scope);
    return cached(this.caches?.filter, req, () => this.decideRowFilter(req, scope));
  }

  private decideRowFilter(req: AccessRequest, scope: PolicyScope): RowFilterResult {
    const found = this.evaluateFirstItem(req, 2, scope, (policy, ev, accessType) => {
      const f = policy.matchingFilter(ev, accessType);
      return f ? { filterExpr: expandRequestExpressions(f.filterExpr, ev.condition) } : null;
    });
    return {
      filterExpr: found?.value.filterExpr ?? null,
      policyId: found?.policy.id ?? -1,
      policyPriority: found?.policy.priority ?? 0,
      isAudited: found?.audited ?? false,
    };
  }

  /**
   * Mask policies that match the request's resource (or lie below it) with an
   * exclusion list on `resourceName` (`isExcludes`), whose policy conditions
   * hold and one of whose mask items applies to the requester: the ones a
   * caller that does not honour such an exclusion must fail closed on.
   */
  maskPoliciesExcluding(req: AccessRequest, resourceName: string): { policyId: number; isAudited: boolean }[] {
    const accessType = req.accessType === '' ? ANY_ACCESS : req.accessType;
    const tags = this.tagsFor(req, accessType === ANY_ACCESS);
    const ev = prepareRequest(req, this.rolesOf(req), accessType, tags, this.userStore);
    const out: { policyId: number; isAudited: boolean }[] = [];
    for (const policy of this.reposFor(req, accessType).resource.candidates(ev, 1)) {
      if (policy.policy.resources[resourceName]?.isExcludes !== true) continue;
      if (!policy.isApplicable(ev.accessTime) || policy.matchType(ev) === 'NONE') continue;
      if (!policy.matchesPolicyConditions(ev) || !policy.matchingMask(ev, accessType)) continue;
      out.push({ policyId: policy.id, isAudited: policy.isAuditEnabled });
    }
    return out;
  }

  /**
   * Masks and filters: the first matching item of the first matching policy wins.
   * Tag policies go first; a resource policy replaces a tag's answer only with a
   * strictly higher priority.
   */
  private evaluateFirstItem<T>(
    req: AccessRequest,
    policyType: 1 | 2,
    scope: PolicyScope,
    pick: (policy: PolicyEvaluator, ev: EvalRequest, accessType: string) => T | null,
  ): { policy: PolicyEvaluator; value: T; audited: boolean } | null {
    const accessType = req.accessType === '' ? ANY_ACCESS : req.accessType;
    const isAny = accessType === ANY_ACCESS;
    const roles = this.rolesOf(req);
    const tags = this.tagsFor(req, isAny);
    const ev = prepareRequest(req, roles, accessType, tags, this.userStore);
    const descendantScope = isAny || req.resourceMatchingScope === 'SELF_OR_DESCENDANTS';
    const repos = this.reposFor(req, accessType);
    let audited = false;
    let winner: { policy: PolicyEvaluator; value: T } | null = null;

    if (repos.tag && tags.length > 0 && scope !== 'resource') {
      const candidates = this.tagCandidates(repos.tag, tags, ev.accessTime, policyType);
      candidates.sort((a, b) =>
        policyType === 1
          ? MATCH_TYPE_ORDER[a.tag.matchType] - MATCH_TYPE_ORDER[b.tag.matchType] || b.policy.priority - a.policy.priority || compareNames(a.policy, b.policy)
          : b.policy.priority - a.policy.priority || compareNames(a.policy, b.policy),
      );
      for (const { policy, tag } of candidates) {
        if (!policy.isApplicable(ev.accessTime)) continue;
        if (!isMatched(tag.matchType, descendantScope, true)) continue;
        const tev = forTag(ev, tag);
        if (!policy.matchesPolicyConditions(tev)) continue;
        audited ||= policy.isAuditEnabled;
        const value = pick(policy, tev, accessType);
        if (value !== null) {
          winner = { policy, value };
          break;
        }
      }
    }

    for (const policy of scope === 'tag' ? [] : repos.resource.candidates(ev, policyType)) {
      if (winner && policy.priority <= winner.policy.priority) break;
      if (!policy.isApplicable(ev.accessTime)) continue;
      if (!isMatched(policy.matchType(ev), descendantScope, false)) continue;
      if (!policy.matchesPolicyConditions(ev)) continue;
      audited ||= policy.isAuditEnabled;
      const value = pick(policy, ev, accessType);
      if (value !== null) {
        winner = { policy, value };
        break;
      }
    }
    return winner ? { ...winner, audited } : null;
  }

  // ------------------------------------------------------------------ helpers

  private rolesOf(req: AccessRequest): ReadonlySet<string> {
    if (req.userRoles && req.userRoles.size > 0) return req.userRoles;
    return this.roles.rolesFor(req.user, req.userGroups);
  }

  private isSuperUser(req: AccessRequest): boolean {
    if (this.superUsers.has(req.user)) return true;
    for (const g of req.userGroups) if (this.superGroups.has(g)) return true;
    return false;
  }

  private newAccessResult(req: AccessRequest, roles: ReadonlySet<string>): AccessResult {
    const r: AccessResult = {
      isAllowed: false,
      isAccessDetermined: false,
      isAudited: false,
      isAuditedDetermined: false,
      policyId: -1,
      policyPriority: 0,
      policyVersion: null,
      zoneName: null,
      reason: null,
    };
    if (this.auditMode === 'audit-all') Object.assign(r, { isAudited: true, isAuditedDetermined: true });
    else if (this.auditMode === 'audit-none') r.isAuditedDetermined = true;
    else if (this.unzoned.resource.size === 0 && this.unzoned.tag === null && this.zones.size === 0)
      Object.assign(r, { isAudited: true, isAuditedDetermined: true });
    if (this.isAuditExcluded(req, roles)) Object.assign(r, { isAudited: false, isAuditedDetermined: true });
    return r;
  }

  private isAuditExcluded(req: AccessRequest, roles: ReadonlySet<string>): boolean {
    const ex = this.auditExcluded;
    if (ex.users.has(req.user)) return true;
    for (const g of req.userGroups) if (ex.groups.has(g)) return true;
    for (const r of roles) if (ex.roles.has(r)) return true;
    return false;
  }

  private requestedAccessTypes(req: AccessRequest, accessType: string): readonly string[] {
    if (req.allAccessTypes && req.allAccessTypes.length > 0) return req.allAccessTypes;
    if (accessType === ANY_ACCESS) return this.accessTypes.all;
    if (accessType === ADMIN_ACCESS) return [ADMIN_ACCESS];
    return [accessType];
  }

  /**
   * The policies (and attached tags) that can bear on a request, for callers that
   * summarise rather than decide, such as resource ACLs: the zone's resource
   * repository, its tag repository, the request's tags and the prepared request.
   */
  policiesFor(req: AccessRequest): { resource: Repository; tag: Repository | null; zoneName: string | null; tags: readonly TagForEval[]; ev: EvalRequest } {
    const accessType = req.accessType === '' ? ANY_ACCESS : req.accessType;
    const tags = this.tagsFor(req, accessType === ANY_ACCESS).filter((t) => this.tagApplies(t, req.accessTime ?? new Date()));
    const ev = prepareRequest(req, this.rolesOf(req), accessType, tags, this.userStore);
    return { ...this.reposFor(req, accessType), tags, ev };
  }

  private tagsFor(req: AccessRequest, isAny: boolean): readonly TagForEval[] {
    if (req.tags) return req.tags;
    if (!this.tags) return [];
    return this.tags.tagsFor(req.resource, isAny || req.resourceMatchingScope === 'SELF_OR_DESCENDANTS', req.user, req.ownerUser, req.resourceElementMatchingScopes);
  }

  /** Tag policies reached through the request's tags that are valid at `at`, each with its tag. */
  private tagCandidates(repo: Repository, tags: readonly TagForEval[], at: Date, policyType: 0 | 1 | 2): { policy: PolicyEvaluator; tag: TagForEval }[] {
    const out: { policy: PolicyEvaluator; tag: TagForEval }[] = [];
    for (const tag of tags) {
      if (!this.tagApplies(tag, at)) continue;
      for (const policy of repo.forTag(tag.type, policyType)) out.push({ policy, tag });
    }
    return out;
  }

  private tagApplies(tag: TagForEval, at: Date): boolean {
    return tagIsValid(tag, at, this.localTimeZone);
  }

  private reposFor(req: AccessRequest, accessType: string): ZoneRepos & { zoneName: string | null } {
    if (this.zones.size === 0) return this.unzonedRepos;
    const names = this.zoneMatcher.zonesFor(req.resource, accessType === ANY_ACCESS);
    if (names.length === 1) return { ...this.zones.get(names[0]!)!, zoneName: names[0]! };
    return { ...this.unzoned, zoneName: null };
  }
}

interface AccessEval {
  req: AccessRequest;
  ev: EvalRequest;
  tags: readonly TagForEval[];
  accessType: string;
  isAny: boolean;
  /** `_any` or SELF_OR_DESCENDANTS: a policy below the requested level also applies. */
  descendantScope: boolean;
  ignoreDescendantDeny: boolean;
  requested: readonly string[];
  groups: readonly (readonly string[])[] | null;
}

const MATCH_TYPE_ORDER: Record<TagForEval['matchType'], number> = {
  SELF: 0,
  SELF_AND_ALL_DESCENDANTS: 1,
  ANCESTOR: 2,
  DESCENDANT: 3,
};

/** The cached answer (a copy: callers may change theirs), else a fresh one, remembered if the request has a key. */
function cached<T extends object>(cache: DecisionCache<T> | undefined, req: AccessRequest, decide: () => T): T {
  const key = cache ? requestKey(req) : null;
  if (key === null) return decide();
  const hit = cache!.get(key);
  if (hit) return { ...hit };
  const result = decide();
  cache!.set(key, { ...result });
  return result;
}

function compareNames(a: PolicyEvaluator, b: PolicyEvaluator): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function isMatched(matchType: MatchType, descendantScope: boolean, viaTag: boolean): boolean {
  if (matchType === 'SELF' || matchType === 'SELF_AND_ALL_DESCENDANTS') return true;
  if (matchType === 'ANCESTOR') return viaTag;
  return matchType === 'DESCENDANT' && descendantScope;
}

function updateAccessResult(one: AccessResult, policy: PolicyEvaluator, matchType: MatchType, isAllowed: boolean, ignoreDescendantDeny: boolean): void {
  if (!isAllowed) {
    if (matchType !== 'DESCENDANT' || !ignoreDescendantDeny) {
      Object.assign(one, { isAllowed: false, isAccessDetermined: true, policyId: policy.id, policyPriority: policy.priority, policyVersion: policy.version });
    }
  } else if (!one.isAllowed) {
    Object.assign(one, { isAllowed: true, policyId: policy.id, policyPriority: policy.priority, policyVersion: policy.version });
  }
}

/** Combines per-type results (getCompositeAccessResult): any allowed type allows; a group is allowed by any member. */
function compositeResult(
  requested: readonly string[],
  groups: readonly (readonly string[])[] | null,
  typeResults: ReadonlyMap<string, AccessResult>,
): AccessResult | null {
  if (!groups || groups.length === 0) return fromGroup(requested, typeResults);
  let determined = true;
  let allowed: AccessResult | null = null;
  for (const g of groups) {
    const r = fromGroup(g, typeResults);
    if (r === null) determined = false;
    else if (!r.isAllowed) return r;
    else allowed ??= r;
  }
  return determined && allowed ? allowed : null;
}

function fromGroup(types: readonly string[], typeResults: ReadonlyMap<string, AccessResult>): AccessResult | null {
  let determined = true;
  let denied: AccessResult | null = null;
  for (const t of types) {
    const r = typeResults.get(t);
    if (!r) determined = false;
    else if (r.isAllowed) return r;
    else denied ??= r;
  }
  return determined && denied ? denied : null;
}

function copyAccess(to: AccessResult, from: AccessResult): void {
  to.isAllowed = from.isAllowed;
  to.isAccessDetermined = from.isAccessDetermined;
  to.policyId = from.policyId;
  to.policyPriority = from.policyPriority;
  to.policyVersion = from.policyVersion;
  to.reason = from.reason;
}

function copyAudit(to: AccessResult, from: AccessResult): void {
  to.isAudited = from.isAudited;
  to.isAuditedDetermined = from.isAuditedDetermined;
}

function splitList(v: string | undefined): string[] {
  return (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The tag service def as one component sees it: `hive:select` → `select`, others dropped. */
function normalizeTagDef(def: ServiceDef, component: string): ServiceDef {
  const mapType = (name: string) => accessTypeForComponent(name, component);
  const accessTypes = def.accessTypes
    .filter((a) => mapType(a.name) !== null)
    .map((a) => ({ ...a, name: mapType(a.name)!, impliedGrants: a.impliedGrants.map(mapType).filter((g): g is string => g !== null) }));
  return { ...def, accessTypes };
}
