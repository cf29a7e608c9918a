/**
 * Resource ACLs: who may do what on one resource, summarised from the policies
 * rather than decided for one user (Ranger's getResourceACLs / RangerResourceACLs).
 *
 * Per policy, a static summary of its items (Ranger's PolicyACLSummary): each
 * user, group and role gets ALLOWED, DENIED or CONDITIONAL per access type, the
 * mask and row-filter items become lists. Across policies, in evaluation order:
 * a later unconditional answer replaces an earlier one unless that one is final
 * (a deny, or anything decided at a higher priority); a conditional answer never
 * replaces. Conditions are never evaluated: a policy or item that has them, a
 * validity schedule, a temporal tag, or a resource matched only once its macros
 * are read as wildcards, makes the answer CONDITIONAL.
 */
import { AccessTypes, ADMIN_ACCESS, ANY_ACCESS, accessTypeForComponent } from './accessTypes.js';
import type { EvalRequest } from './evalRequest.js';
import type { MatchType } from './matchers/types.js';
import type { DataMaskPolicyItem, Policy, PolicyItem, RowFilterPolicyItem, ServiceDef } from './model.js';
import type { PolicyEngine } from './engine.js';
import { compareForAccess, type PolicyEvaluator, RESOURCE_OWNER, USER_CURRENT } from './policyEvaluator.js';
import { policyMatcher, type PolicyMatcher } from './resourceMatching.js';
import type { AccessRequest, TagForEval } from './request.js';
import { GROUP_PUBLIC } from './roles.js';

// The numeric codes are Ranger's; the per-policy arithmetic below relies on them.
export const ACCESS_DENIED = -1;
export const ACCESS_UNDETERMINED = 0;
export const ACCESS_ALLOWED = 1;
export const ACCESS_CONDITIONAL = 2;

export interface AclResult {
  result: number;
  isFinal: boolean;
  policyId: number;
}

/** principal → access type → result */
export type AclMap = Map<string, Map<string, AclResult>>;

export interface MaskAcl {
  users: Set<string>;
  groups: Set<string>;
  roles: Set<string>;
  accessTypes: Set<string>;
  maskInfo: { dataMaskType: string | null; conditionExpr: string | null; valueExpr: string | null };
  isConditional: boolean;
}

export interface RowFilterAcl {
  users: Set<string>;
  groups: Set<string>;
  roles: Set<string>;
  accessTypes: Set<string>;
  filterInfo: { filterExpr: string | null };
  isConditional: boolean;
}

export interface ResourceACLs {
  userACLs: AclMap;
  groupACLs: AclMap;
  roleACLs: AclMap;
  rowFilters: RowFilterAcl[];
  dataMasks: MaskAcl[];
}

// ------------------------------------------------------------------ one policy

type ItemKind = 'allow' | 'allowException' | 'deny' | 'denyException';

interface SummaryEntry {
  result: number;
}

interface PolicySummary {
  users: Map<string, Map<string, SummaryEntry>>;
  groups: Map<string, Map<string, SummaryEntry>>;
  roles: Map<string, Map<string, SummaryEntry>>;
  rowFilters: RowFilterAcl[];
  dataMasks: MaskAcl[];
}

interface SummaryContext {
  /** Access types as this component sees them (tag policies: `hive:select` → `select`), implied grants added. */
  mapAccesses: (item: PolicyItem) => string[];
  mapMaskType: (t: string | null) => string | null;
  /** Every access type of the def but `all`, for deny-all-else policies. */
  allAccessTypeNames: readonly string[];
}

function hasConditionsOrNonPublicGroups(items: readonly PolicyItem[]): boolean {
  return items.some((i) => i.conditions.length > 0 || (i.groups.length > 0 && !i.groups.includes(GROUP_PUBLIC)));
}

function grantsEveryone(i: PolicyItem): boolean {
  return i.groups.includes(GROUP_PUBLIC) || i.users.includes(USER_CURRENT);
}

/** An exception list that cannot carve users out of an item granting everyone. */
function publicGrantWithUserExceptions(grants: readonly PolicyItem[], exceptions: readonly PolicyItem[]): boolean {
  return exceptions.length > 0 && grants.some(grantsEveryone) && !exceptions.some(grantsEveryone);
}

function isContextSensitive(i: PolicyItem): boolean {
  return i.conditions.length > 0 || i.users.includes(RESOURCE_OWNER);
}

function summarise(policy: Policy, ctx: SummaryContext): PolicySummary {
  const s: PolicySummary = { users: new Map(), groups: new Map(), roles: new Map(), rowFilters: [], dataMasks: [] };
  // Exceptions that depend on groups or conditions cannot be resolved statically:
  // their grants become conditional and the exceptions themselves are dropped.
  const allowExceptionsUnknown = hasConditionsOrNonPublicGroups(policy.allowExceptions) || publicGrantWithUserExceptions(policy.policyItems, policy.allowExceptions);
  const denyExceptionsUnknown = hasConditionsOrNonPublicGroups(policy.denyExceptions) || publicGrantWithUserExceptions(policy.denyPolicyItems, policy.denyExceptions);

  for (const i of policy.denyPolicyItems) processItem(s, ctx, i, 'deny', denyExceptionsUnknown);
  if (!denyExceptionsUnknown) for (const i of policy.denyExceptions) processItem(s, ctx, i, 'denyException', false);
  for (const i of policy.policyItems) processItem(s, ctx, i, 'allow', allowExceptionsUnknown);
  if (!allowExceptionsUnknown) for (const i of policy.allowExceptions) processItem(s, ctx, i, 'allowException', false);
  for (const i of policy.rowFilterPolicyItems) s.rowFilters.push(rowFilterAcl(i, ctx));
  for (const i of policy.dataMaskPolicyItems) s.dataMasks.push(maskAcl(i, ctx));
  finalizeSummary(s, policy.policyType === 0 && policy.isDenyAllElse, ctx.allAccessTypeNames);
  return s;
}

function processItem(s: PolicySummary, ctx: SummaryContext, item: PolicyItem, kind: ItemKind, conditional: boolean): void {
  const uncertain = conditional || item.conditions.length > 0;
  const result: number | null =
    kind === 'allow' ? (uncertain ? ACCESS_CONDITIONAL : ACCESS_ALLOWED)
    : kind === 'deny' ? (uncertain ? ACCESS_CONDITIONAL : ACCESS_DENIED)
    : kind === 'allowException' ? (uncertain ? null : ACCESS_DENIED)
    : uncertain ? null : ACCESS_ALLOWED;
  if (result === null) return;
  const accesses = [...(item.delegateAdmin ? [ADMIN_ACCESS] : []), ...ctx.mapAccesses(item)];
  let everyone = false;
  for (const access of accesses) {
    for (const u of item.users) {
      if (u === USER_CURRENT) everyone = true;
      else if (u.trim() !== '') addAccess(s.users, u, access, result, kind);
    }
    for (const g of item.groups) {
      if (g === GROUP_PUBLIC) everyone = true;
      else addAccess(s.groups, g, access, result, kind);
    }
    if (everyone) addAccess(s.groups, GROUP_PUBLIC, access, result, kind);
    for (const r of item.roles) addAccess(s.roles, r, access, result, kind);
  }
}

/** Combines one item's answer with what earlier items said for the same principal and type. */
function addAccess(map: Map<string, Map<string, SummaryEntry>>, name: string, accessType: string, access: number, kind: ItemKind): void {
  let byType = map.get(name);
  if (!byType) map.set(name, (byType = new Map()));
  const current = byType.get(accessType);
  if (!current) {
    // Exceptions only carve out of what an item granted or denied.
    if (kind === 'allow' || kind === 'deny') byType.set(accessType, { result: access });
    return;
  }
  if (access === ACCESS_DENIED) {
    if (current.result === ACCESS_CONDITIONAL) current.result = access;
    else {
      const sum = current.result + access;
      current.result = kind === 'deny' ? Math.max(sum, ACCESS_DENIED) : Math.max(sum, ACCESS_UNDETERMINED);
    }
  } else if (access === ACCESS_ALLOWED) {
    if (current.result === ACCESS_CONDITIONAL) {
      if (kind === 'allow') current.result = access;
    } else {
      const sum = current.result + access;
      current.result = kind === 'allow' ? Math.min(sum, ACCESS_ALLOWED) : Math.min(sum, ACCESS_UNDETERMINED);
    }
  } else if (current.result === ACCESS_UNDETERMINED) current.result = access;
}

function finalizeSummary(s: PolicySummary, isDenyAllElse: boolean, allAccessTypeNames: readonly string[]): void {
  // A definite answer for `public` makes the same answer for any one user or group redundant.
  const pub = s.groups.get(GROUP_PUBLIC);
  if (pub) {
    for (const [accessType, r] of pub) {
      if (r.result !== ACCESS_DENIED && r.result !== ACCESS_ALLOWED) continue;
      dropAccessType(s.users, accessType, null);
      dropAccessType(s.groups, accessType, GROUP_PUBLIC);
    }
  }
  if (!isDenyAllElse) return;
  for (const map of [s.users, s.groups])
    for (const byType of map.values()) {
      for (const r of byType.values()) if (r.result === ACCESS_UNDETERMINED) r.result = ACCESS_DENIED;
      for (const t of allAccessTypeNames) if (!byType.has(t)) byType.set(t, { result: ACCESS_DENIED });
    }
  let publicTypes = s.groups.get(GROUP_PUBLIC);
  if (!publicTypes) s.groups.set(GROUP_PUBLIC, (publicTypes = new Map()));
  for (const t of allAccessTypeNames) {
    if (publicTypes.has(t)) continue;
    const deniedToAll = (map: Map<string, Map<string, SummaryEntry>>, skip: string | null) =>
      [...map].every(([name, byType]) => name === skip || byType.get(t)?.result === ACCESS_DENIED);
    const denied = deniedToAll(s.users, null) && deniedToAll(s.groups, GROUP_PUBLIC);
    publicTypes.set(t, { result: denied ? ACCESS_DENIED : ACCESS_CONDITIONAL });
  }
}

function dropAccessType(map: Map<string, Map<string, SummaryEntry>>, accessType: string, keep: string | null): void {
  for (const [name, byType] of [...map]) {
    if (name === keep) continue;
    byType.delete(accessType);
    if (byType.size === 0) map.delete(name);
  }
}

function subjects(i: PolicyItem): { users: Set<string>; groups: Set<string>; roles: Set<string> } {
  const users = new Set(i.users);
  const groups = new Set(i.groups);
  // `{USER}` is every user: listed as the public group.
  if (users.delete(USER_CURRENT)) groups.add(GROUP_PUBLIC);
  return { users, groups, roles: new Set(i.roles) };
}

function rowFilterAcl(i: RowFilterPolicyItem, ctx: SummaryContext): RowFilterAcl {
  return {
    ...subjects(i),
    accessTypes: new Set(ctx.mapAccesses(i)),
    filterInfo: { filterExpr: i.rowFilterInfo?.filterExpr ?? null },
    isConditional: isContextSensitive(i),
  };
}

function maskAcl(i: DataMaskPolicyItem, ctx: SummaryContext): MaskAcl {
  return {
    ...subjects(i),
    accessTypes: new Set(ctx.mapAccesses(i)),
    maskInfo: {
      dataMaskType: ctx.mapMaskType(i.dataMaskInfo?.dataMaskType ?? null),
      conditionExpr: i.dataMaskInfo?.conditionExpr ?? null,
      valueExpr: i.dataMaskInfo?.valueExpr ?? null,
    },
    isConditional: isContextSensitive(i),
  };
}

// ------------------------------------------------------------------ the engine

interface AclContexts {
  resource: SummaryContext;
  tag: SummaryContext;
  resourceAccessTypes: AccessTypes;
}

const summaries = new WeakMap<PolicyEvaluator, PolicySummary>();
const wildcardMatchers = new WeakMap<PolicyEvaluator, PolicyMatcher>();

function contexts(def: ServiceDef): AclContexts {
  const accessTypes = AccessTypes.of(def);
  const allAccessTypeNames = def.accessTypes.map((a) => a.name).filter((n) => n.toLowerCase() !== 'all');
  const resource: SummaryContext = {
    mapAccesses: (i) => [...accessTypes.expand(i.accesses.map((a) => a.type))],
    mapMaskType: (t) => t,
    allAccessTypeNames,
  };
  const component = def.name;
  const tag: SummaryContext = {
    mapAccesses: (i) => [...accessTypes.expand(i.accesses.map((a) => accessTypeForComponent(a.type, component)).filter((t): t is string => t !== null))],
    mapMaskType: (t) => (t === null ? null : (accessTypeForComponent(t, component) ?? t)),
    allAccessTypeNames,
  };
  return { resource, tag, resourceAccessTypes: accessTypes };
}

function summaryOf(p: PolicyEvaluator, ctx: SummaryContext): PolicySummary {
  let s = summaries.get(p);
  if (!s) summaries.set(p, (s = summarise(p.policy, ctx)));
  return s;
}

/**
 * The policy's resources with every macro read as a wildcard: a resource that
 * matches only this way may match for some users, so its grants are conditional.
 */
function wildcardMatcher(p: PolicyEvaluator, def: ServiceDef): PolicyMatcher {
  let m = wildcardMatchers.get(p);
  if (!m) {
    const widen = (values: readonly string[]) => values.map((v) => v.replace(/\$\{\{.*?\}\}/g, '*').replace(/\{[^{}]*\}/g, '*'));
    const mapRes = (r: Policy['resources']) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, { ...v, values: widen(v.values) }]));
    const policy: Policy = { ...p.policy, resources: mapRes(p.policy.resources), additionalResources: p.policy.additionalResources.map(mapRes) };
    wildcardMatchers.set(p, (m = policyMatcher(wildcardDef(def), policy)));
  }
  return m;
}

const wildcardDefs = new WeakMap<ServiceDef, ServiceDef>();

/** The def with wildcard matching forced on, as Ranger's wildcard-macro matcher does (mask defs turn it off). */
function wildcardDef(def: ServiceDef): ServiceDef {
  let out = wildcardDefs.get(def);
  if (!out) {
    const force = <T extends { matcherOptions?: Record<string, string> | null }>(r: T): T => ({ ...r, matcherOptions: { ...(r.matcherOptions ?? {}), wildCard: 'true' } });
    out = {
      ...def,
      resources: def.resources.map(force),
      dataMaskDef: def.dataMaskDef ? { ...def.dataMaskDef, resources: def.dataMaskDef.resources.map(force) } : def.dataMaskDef,
      rowFilterDef: def.rowFilterDef ? { ...def.rowFilterDef, resources: def.rowFilterDef.resources.map(force) } : def.rowFilterDef,
    };
    wildcardDefs.set(def, out);
  }
  return out;
}

function inScope(t: MatchType, descendants: boolean): boolean {
  return t === 'SELF' || t === 'SELF_AND_ALL_DESCENDANTS' || (descendants && t === 'DESCENDANT');
}

const TAG_MATCH_ORDER: Record<TagForEval['matchType'], number> = { SELF: 0, SELF_AND_ALL_DESCENDANTS: 1, ANCESTOR: 2, DESCENDANT: 3 };

/**
 * Resource names that make up a whole hierarchy for a policy type: masks need a
 * complete column path, row filters a table; access ACLs any part of a path.
 */
function isValidHierarchy(def: ServiceDef, policyType: 0 | 1 | 2, keys: readonly string[]): boolean {
  const typeDef = policyType === 1 ? def.dataMaskDef : policyType === 2 ? def.rowFilterDef : null;
  if (policyType !== 0 && (!typeDef || typeDef.resources.length === 0)) return false;
  const names = new Set(policyType === 0 ? def.resources.map((r) => r.name) : typeDef!.resources.map((r) => r.name));
  const parentOf = new Map(def.resources.map((r) => [r.name, r.parent ?? null]));
  const hasChild = new Set([...names].map((n) => parentOf.get(n)).filter((p): p is string => p != null && names.has(p)));
  const paths: Set<string>[] = [];
  for (const leaf of names) {
    if (hasChild.has(leaf)) continue;
    const path = new Set<string>();
    for (let n: string | null = leaf; n !== null && names.has(n); n = parentOf.get(n) ?? null) path.add(n);
    paths.push(path);
  }
  if (policyType === 0) return keys.length === 0 || paths.some((p) => keys.every((k) => p.has(k)));
  return paths.some((p) => p.size === keys.length && keys.every((k) => p.has(k)));
}

interface Candidate {
  policy: PolicyEvaluator;
  viaTag: boolean;
  /** Tag policies: how the tag that brought the policy relates to the resource. */
  tagMatch?: MatchType;
  temporalTag: boolean;
}

/**
 * Ranger's RangerPolicyEngine.getResourceACLs for one resource. The request's
 * user and access type are ignored (as `_any`); `req.tags`, when given, are used
 * as they are, temporal tags included (they make their policies conditional).
 */
export function getResourceACLs(engine: PolicyEngine, req: AccessRequest): ResourceACLs {
  const acls: ResourceACLs = { userACLs: new Map(), groupACLs: new Map(), roleACLs: new Map(), rowFilters: [], dataMasks: [] };
  const anyReq: AccessRequest = { ...req, accessType: ANY_ACCESS };
  const pf = engine.policiesFor(anyReq);
  const tags = req.tags ?? pf.tags;
  const descendants = req.resourceMatchingScope === 'SELF_OR_DESCENDANTS';
  const ctxs = contexts(engine.serviceDef);
  const keys = Object.keys(req.resource);

  for (const policyType of [0, 1, 2] as const) {
    if (!isValidHierarchy(engine.serviceDef, policyType, keys)) continue;
    const candidates = collect(pf.resource.candidates(pf.ev, policyType), pf.tag, tags, policyType);
    candidates.sort((a, b) => compareForAccess(a.policy, b.policy));
    let priority: number | null = null;
    for (const c of candidates) {
      if (priority !== null && priority !== c.policy.priority && policyType === 0) finalizeAcls(acls);
      priority = c.policy.priority;
      applyPolicy(acls, c, pf.ev, engine.serviceDef, descendants, c.viaTag ? ctxs.tag : ctxs.resource);
    }
    finalizeAcls(acls);
  }
  return acls;
}

function collect(resourcePolicies: readonly PolicyEvaluator[], tagRepo: ReturnType<PolicyEngine['policiesFor']>['tag'], tags: readonly TagForEval[], policyType: 0 | 1 | 2): Candidate[] {
  const out: Candidate[] = [];
  if (tagRepo) {
    const byPolicy = new Map<PolicyEvaluator, Candidate>();
    // The strongest match type wins when a policy is reached through several tags.
    const sorted = [...tags].sort((a, b) => TAG_MATCH_ORDER[a.matchType] - TAG_MATCH_ORDER[b.matchType]);
    for (const tag of sorted)
      for (const policy of tagRepo.forTag(tag.type, policyType)) {
        let c = byPolicy.get(policy);
        if (!c) {
          c = { policy, viaTag: true, tagMatch: tag.matchType === 'ANCESTOR' ? 'SELF' : tag.matchType, temporalTag: false };
          byPolicy.set(policy, c);
          out.push(c);
        }
        if ((tag.validityPeriods?.length ?? 0) > 0) c.temporalTag = true;
      }
  }
  for (const policy of resourcePolicies) out.push({ policy, viaTag: false, temporalTag: false });
  return out;
}

function applyPolicy(acls: ResourceACLs, c: Candidate, ev: EvalRequest, def: ServiceDef, descendants: boolean, ctx: SummaryContext): void {
  const p = c.policy;
  let matched: boolean;
  let conditional = false;
  if (c.viaTag) matched = inScope(c.tagMatch!, descendants);
  else {
    matched = inScope(p.matchType(ev), descendants);
    if (!matched && p.matcher.isDynamic) conditional = inScope(wildcardMatcher(p, def).getMatchType(ev), descendants);
  }
  if (!matched && !conditional) return;
  if (!conditional) conditional = c.temporalTag || p.policy.conditions.length > 0 || p.policy.validitySchedules.length > 0;

  const s = summaryOf(p, ctx);
  if (p.policyType === 0) {
    const copy = (from: Map<string, Map<string, SummaryEntry>>, to: AclMap) => {
      for (const [name, byType] of from)
        for (const [accessType, r] of byType) {
          const result = conditional ? ACCESS_CONDITIONAL : r.result === ACCESS_UNDETERMINED ? ACCESS_DENIED : r.result;
          setAccess(to, name, accessType, result, p.id);
        }
    };
    copy(s.users, acls.userACLs);
    copy(s.groups, acls.groupACLs);
    copy(s.roles, acls.roleACLs);
  } else if (p.policyType === 1) {
    for (const m of s.dataMasks) acls.dataMasks.push({ ...m, isConditional: m.isConditional || conditional });
  } else {
    for (const f of s.rowFilters) acls.rowFilters.push({ ...f, isConditional: f.isConditional || conditional });
  }
}

/** RangerResourceACLs.setUserAccessInfo: a conditional answer never replaces; a final one keeps its result. */
function setAccess(map: AclMap, name: string, accessType: string, result: number, policyId: number): void {
  let byType = map.get(name);
  if (!byType) map.set(name, (byType = new Map()));
  const existing = byType.get(accessType);
  if (!existing) {
    byType.set(accessType, { result, isFinal: result === ACCESS_DENIED, policyId });
    return;
  }
  if (result === ACCESS_CONDITIONAL) return;
  if (!existing.isFinal) {
    existing.result = result;
    if (result === ACCESS_DENIED) existing.isFinal = true;
  }
  // Ranger records the later policy even when the result itself was final.
  existing.policyId = policyId;
}

/** RangerResourceACLs.finalizeAcls: what is known so far is final; `public` settles non-final answers. */
function finalizeAcls(acls: ResourceACLs): void {
  const pub = acls.groupACLs.get(GROUP_PUBLIC);
  if (pub)
    for (const [accessType, r] of pub) {
      if (r.result !== ACCESS_DENIED && r.result !== ACCESS_ALLOWED) continue;
      for (const byType of acls.userACLs.values()) if (byType.get(accessType)?.isFinal === false) byType.delete(accessType);
      for (const [g, byType] of acls.groupACLs) if (g !== GROUP_PUBLIC && byType.get(accessType)?.isFinal === false) byType.delete(accessType);
    }
  for (const map of [acls.userACLs, acls.groupACLs, acls.roleACLs])
    for (const [name, byType] of [...map]) {
      if (byType.size === 0) map.delete(name);
      else for (const r of byType.values()) r.isFinal = true;
    }
}
