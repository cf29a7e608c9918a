/**
 * Drives Ranger's authz-embedded fixtures (authz-embedded/test_hive and test_s3:
 * tests_authz, tests_multi_authz, tests_resource_permissions) through lakegate's
 * plugin the way TestEmbeddedAuthorizer.java drives RangerEmbeddedAuthorizer:
 * the service's policies (dev_<svc>.json, tag policies inline), its tags, roles
 * and GDS info (dev_<svc>_gds.json) files, combined in a RangerPlugin; each
 * resource name read as RangerAuthzPlugin reads it; one plugin
 * call per permission (and per sub-resource), a row filter / data mask where the
 * service def supports them at that level.
 *
 * Asserted as the Java test asserts: the whole result (decision, every
 * permission's access decision and policy id/version, row filter, data mask and
 * sub-resource results) equals the expected one; where a test lists audits,
 * each audit event's user, access, action, repo, resource type, resource,
 * result, policy, agent and enforcer. `{comment}` entries are separators.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { leafResourceType, parseResourceName, resourcePath } from '../../policy/ranger/resourceName.js';
import { ACCESS_ALLOWED, ACCESS_CONDITIONAL, ACCESS_DENIED, type AclMap } from '../../policy/ranger/acls.js';
import { PolicyEngine } from '../../policy/ranger/engine.js';
import { GdsPolicyEngine } from '../../policy/ranger/gds/engine.js';
import { parseServiceGdsInfo } from '../../policy/ranger/gds/model.js';
import { RangerPlugin } from '../../policy/ranger/plugin.js';
import { parseRangerRoles, parseServicePolicies, parseServiceTags, type ServiceDef, type ServicePolicies } from '../../policy/ranger/model.js';
import type { AccessRequest, AccessResult } from '../../policy/ranger/request.js';
import { RoleStore } from '../../policy/ranger/roles.js';
import { TagStore } from '../../policy/ranger/tags.js';
import { type CaseResult, conformanceDir, type Driver, type FileResult, readFixture } from './harness.js';
import { skipReason } from './skips.js';

type Json = Record<string, unknown>;

const SERVICES = [
  { dir: 'authz-embedded/test_hive', service: 'dev_hive' },
  { dir: 'authz-embedded/test_s3', service: 'dev_s3' },
];
/** TestEmbeddedAuthorizer's audit handler is created for app type "test". */
const AUDIT_AGENT = 'test';
const AUDIT_ENFORCER = 'ranger-acl';

// ---------------------------------------------------------------- fixture shapes

const UserSchema = z.object({ name: z.string(), groups: z.array(z.string()).nullish(), roles: z.array(z.string()).nullish() });
const ResourceInfoSchema = z.object({
  name: z.string(),
  subResources: z.array(z.string()).nullish(),
  attributes: z.record(z.string(), z.unknown()).nullish(),
});
const AccessInfoSchema = z.object({ resource: ResourceInfoSchema, action: z.string().nullish(), permissions: z.array(z.string()) });
const ContextSchema = z.object({
  serviceName: z.string(),
  accessTime: z.number().nullish(),
  clientIpAddress: z.string().nullish(),
  additionalInfo: z.record(z.string(), z.unknown()).nullish(),
});
const AuditSchema = z.record(z.string(), z.unknown());
const AuthzTestSchema = z.object({
  request: z.object({ requestId: z.string().nullish(), user: UserSchema, access: AccessInfoSchema, context: ContextSchema }),
  result: z.record(z.string(), z.unknown()),
  audits: z.array(AuditSchema).nullish(),
});
const MultiAuthzTestSchema = z.object({
  request: z.object({ requestId: z.string().nullish(), user: UserSchema, accesses: z.array(AccessInfoSchema), context: ContextSchema }),
  result: z.record(z.string(), z.unknown()),
  audits: z.array(AuditSchema).nullish(),
});
const PermissionsTestSchema = z.object({ resource: ResourceInfoSchema, context: ContextSchema, permissions: z.record(z.string(), z.unknown()) });

type UserInfo = z.infer<typeof UserSchema>;
type AccessInfo = z.infer<typeof AccessInfoSchema>;
type AccessContext = z.infer<typeof ContextSchema>;

// ---------------------------------------------------------------- the service

interface Service {
  name: string;
  engine: RangerPlugin;
  def: ServiceDef;
  /** policy id → version (resource, tag and GDS policies), for results that carry only the id (ACLs). */
  versions: Map<number, number | null>;
}

function loadService(dir: string, service: string): Service {
  const file = `${dir}/${service}.json`;
  const bundle: ServicePolicies = parseServicePolicies(readFixture(file), file);
  const optional = (suffix: string) => (existsSync(join(conformanceDir(), dir, `${service}${suffix}`)) ? `${dir}/${service}${suffix}` : null);
  const tagFile = optional('_tag.json');
  const rolesFile = optional('_roles.json');
  const gdsFile = optional('_gds.json');
  const policyEngine = new PolicyEngine(bundle, {
    tags: tagFile ? new TagStore(bundle.serviceDef, parseServiceTags(readFixture(tagFile), tagFile)) : null,
    roles: new RoleStore(rolesFile ? parseRangerRoles(readFixture(rolesFile), rolesFile) : null),
  });
  const gdsInfo = gdsFile ? parseServiceGdsInfo(readFixture(gdsFile), gdsFile) : null;
  const gds = gdsInfo
    ? new GdsPolicyEngine(gdsInfo, bundle.serviceDef, { roles: policyEngine.roleStore, securityZones: bundle.securityZones })
    : null;
  const engine = new RangerPlugin(policyEngine, { gds, policies: bundle });
  const versions = new Map<number, number | null>();
  const gdsPolicies = [...(gdsInfo?.datasets ?? []), ...(gdsInfo?.projects ?? [])].flatMap((x) => x.policies);
  for (const p of [...bundle.policies, ...(bundle.tagPolicies?.policies ?? []), ...gdsPolicies]) if (typeof p.id === 'number') versions.set(p.id, p.version ?? null);
  return { name: service, engine, def: bundle.serviceDef, versions };
}

// ---------------------------------------------------------------- results in the fixtures' shape

type Decision = 'ALLOW' | 'DENY' | 'NOT_DETERMINED';
interface PolicyInfo {
  id: number;
  version?: number;
}
interface AccessOut {
  decision?: Decision;
  policy?: PolicyInfo;
}
interface ResultInfo {
  permission?: string;
  access: AccessOut;
  dataMask?: { maskType: string; maskedValue?: string; policy: PolicyInfo };
  rowFilter?: { filterExpr: string; policy: PolicyInfo };
  subResources?: Record<string, ResultInfo>;
}
interface AuditEvent {
  reqUser: string;
  access: string;
  action: string | undefined;
  repo: string;
  resType: string | null;
  resource: string;
  result: number;
  policy: number;
  agent: string;
  enforcer: string;
}

function policyInfo(svc: Service, id: number, version?: number | null): PolicyInfo {
  const v = version ?? (id === -1 ? null : (svc.versions.get(id) ?? null));
  return v === null ? { id } : { id, version: v };
}

function decisionOf(r: AccessResult): Decision {
  return r.isAccessDetermined ? (r.isAllowed ? 'ALLOW' : 'DENY') : 'NOT_DETERMINED';
}

/** Ranger's RangerServiceDefHelper.is{RowFilter,DataMask}Supported: some hierarchy of that kind holds every key. */
function supports(def: ServiceDef, kind: 'rowFilterDef' | 'dataMaskDef', keys: readonly string[]): boolean {
  const resources = def[kind]?.resources ?? [];
  if (resources.length === 0) return false;
  const byName = new Map(resources.map((r) => [r.name, r]));
  const parents = new Set(resources.map((r) => r.parent).filter((p): p is string => !!p));
  for (const leaf of resources.filter((r) => !parents.has(r.name))) {
    const chain = new Set<string>();
    for (let r: (typeof resources)[number] | undefined = leaf; r; r = r.parent ? byName.get(r.parent) : undefined) chain.add(r.name);
    if (keys.every((k) => chain.has(k))) return true;
  }
  return false;
}

function baseRequest(user: UserInfo, access: AccessInfo, context: AccessContext, resource: Record<string, string>, accessType: string): AccessRequest {
  const req: AccessRequest = {
    resource,
    accessType,
    user: user.name,
    userGroups: new Set(user.groups ?? []),
    accessTime: context.accessTime ? new Date(context.accessTime) : new Date(),
    context: { ...(context.additionalInfo ?? {}) },
  };
  if (user.roles && user.roles.length > 0) req.userRoles = new Set(user.roles);
  if (access.action) req.action = access.action;
  if (context.clientIpAddress) req.clientIPAddress = context.clientIpAddress;
  const owner = access.resource.attributes?.['OWNER'];
  if (owner !== undefined && owner !== null) req.ownerUser = String(owner);
  return req;
}

/** RangerAuthzPlugin.evaluate: access, then row filter and data mask where the def supports them. */
function evaluate(svc: Service, req: AccessRequest, audits: AuditEvent[]): ResultInfo {
  const keys = Object.keys(req.resource);
  const audit = (result: number, policy: number) =>
    audits.push({
      reqUser: req.user,
      access: req.accessType,
      action: req.action,
      repo: svc.name,
      resType: leafResourceType(svc.def, req.resource),
      resource: resourcePath(svc.def, req.resource),
      result,
      policy,
      agent: AUDIT_AGENT,
      enforcer: AUDIT_ENFORCER,
    });
  const r = svc.engine.isAccessAllowed(req);
  if (r.isAudited) audit(r.isAllowed ? 1 : 0, r.policyId);
  const out: ResultInfo = { access: { decision: decisionOf(r), policy: policyInfo(svc, r.policyId, r.policyVersion) } };
  if (supports(svc.def, 'rowFilterDef', keys)) {
    const f = svc.engine.evalRowFilter(req);
    if (f.isAudited) audit(1, f.policyId);
    if (f.policyId !== -1 && f.filterExpr && f.filterExpr.trim() !== '') out.rowFilter = { filterExpr: f.filterExpr, policy: policyInfo(svc, f.policyId, f.policyVersion) };
  }
  if (supports(svc.def, 'dataMaskDef', keys)) {
    const m = svc.engine.evalDataMask(req);
    if (m.isAudited) audit(1, m.policyId);
    if (m.policyId !== -1 && m.maskType && m.maskType.trim() !== '')
      out.dataMask = { maskType: m.maskType, ...(m.maskedValue !== null ? { maskedValue: m.maskedValue } : {}), policy: policyInfo(svc, m.policyId, m.policyVersion) };
  }
  return out;
}

/** RangerAuthzPlugin.updateResult: the first sub-resource sets the decision; a later DENY or undetermined one overrides an ALLOW. */
function mergeSubResult(from: AccessOut, to: AccessOut): void {
  if (from.decision === undefined || to.decision === from.decision || to.decision === 'DENY') return;
  if (to.decision === undefined || from.decision === 'DENY' || from.decision === 'NOT_DETERMINED') {
    to.decision = from.decision;
    if (from.policy) to.policy = from.policy;
    else delete to.policy;
  }
}

/** RangerAuthzPlugin.authorize for one access. */
function authorize(svc: Service, requestId: string | null | undefined, user: UserInfo, access: AccessInfo, context: AccessContext, audits: AuditEvent[]): Json {
  const { resource } = parseResourceName(svc.def, access.resource.name);
  const permissions: Record<string, ResultInfo> = {};
  let hasDeny = false;
  let hasAllow = false;
  let hasUndetermined = false;
  for (const permission of access.permissions) {
    const perm: ResultInfo = { permission, ...evaluate(svc, baseRequest(user, access, context, resource, permission), audits) };
    const subs = access.resource.subResources ?? [];
    if (subs.length > 0) {
      // With sub-resources, the permission's access is derived from theirs.
      perm.access = {};
      perm.subResources = {};
      for (const sub of subs) {
        const at = sub.indexOf(':');
        const subResource = { ...resource, ...(sub.trim() === '' ? {} : at < 0 ? { [sub]: '' } : { [sub.slice(0, at)]: sub.slice(at + 1) }) };
        const subResult: ResultInfo = { permission, ...evaluate(svc, baseRequest(user, access, context, subResource, permission), audits) };
        mergeSubResult(subResult.access, perm.access);
        perm.subResources[sub] = subResult;
      }
    }
    if (perm.access.decision === 'DENY') {
      delete perm.dataMask;
      delete perm.rowFilter;
    }
    permissions[permission] = perm;
    if (perm.access.decision === 'DENY') hasDeny = true;
    else if (perm.access.decision === 'ALLOW') hasAllow = true;
    else hasUndetermined = true;
  }
  const decision = hasDeny ? 'DENY' : hasUndetermined ? 'NOT_DETERMINED' : hasAllow ? 'ALLOW' : undefined;
  return { requestId, decision, permissions };
}

/** RangerEmbeddedAuthorizer.authorize(multi): ALLOW / DENY / NOT_DETERMINED when all agree, else PARTIAL. */
function authorizeMulti(svc: Service, req: z.infer<typeof MultiAuthzTestSchema>['request'], audits: AuditEvent[]): Json {
  const accesses = req.accesses.map((a) => authorize(svc, null, req.user, a, req.context, audits));
  const all = (d: string) => accesses.every((a) => a.decision === d);
  const decision = all('ALLOW') ? 'ALLOW' : all('DENY') ? 'DENY' : all('NOT_DETERMINED') ? 'NOT_DETERMINED' : 'PARTIAL';
  return { requestId: req.requestId, decision, accesses };
}

function aclDecision(result: number, isFinal: boolean): Decision {
  if (!isFinal) return 'NOT_DETERMINED';
  if (result === ACCESS_ALLOWED) return 'ALLOW';
  // Ranger has no CONDITIONAL decision yet and reports it as DENY.
  if (result === ACCESS_DENIED || result === ACCESS_CONDITIONAL) return 'DENY';
  return 'NOT_DETERMINED';
}

/** RangerAuthzPlugin.getResourcePermissions: the resource's ACLs per user, group and role. */
function resourcePermissions(svc: Service, test: z.infer<typeof PermissionsTestSchema>): Json {
  const { resource } = parseResourceName(svc.def, test.resource.name);
  const acls = svc.engine.getResourceACLs({ resource, accessType: '', user: '', userGroups: new Set() });
  const out: Json = { resource: test.resource };
  const put = (key: string, map: AclMap) => {
    if (map.size === 0) return;
    const byPrincipal: Record<string, Record<string, ResultInfo>> = {};
    for (const [principal, byType] of map)
      for (const [permission, acl] of byType)
        (byPrincipal[principal] ??= {})[permission] = {
          permission,
          access: { decision: aclDecision(acl.result, acl.isFinal), policy: policyInfo(svc, acl.policyId) },
        };
    if (Object.keys(byPrincipal).length > 0) out[key] = byPrincipal;
  };
  put('users', acls.userACLs);
  put('groups', acls.groupACLs);
  put('roles', acls.roleACLs);
  return out;
}

// ---------------------------------------------------------------- comparison

/** Jackson-style equality: absent and null are the same; maps compare without order, lists with. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Json)[k];
      if (x !== null && x !== undefined) out[k] = canonical(x);
    }
    return out;
  }
  return v;
}

function diff(expected: unknown, got: unknown): string | null {
  const e = JSON.stringify(canonical(expected));
  const g = JSON.stringify(canonical(got));
  return e === g ? null : `expected ${e}\n      got ${g}`;
}

const AUDIT_FIELDS = ['reqUser', 'access', 'action', 'repo', 'resType', 'resource', 'result', 'policy', 'agent', 'enforcer'] as const;

function auditDiff(expected: readonly Json[] | null | undefined, got: readonly AuditEvent[]): string | null {
  if (!expected) return null;
  const pick = (a: Json | AuditEvent) => AUDIT_FIELDS.map((f) => (a as Json)[f] ?? null);
  return diff({ audits: expected.map(pick) }, { audits: got.map(pick) });
}

// ---------------------------------------------------------------- files

function entries(file: string): unknown[] {
  const raw = readFixture(file);
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON array of tests`);
  // A `{comment}` entry separates groups of tests; it is not a test.
  return raw.filter((e) => !(e && typeof e === 'object' && 'comment' in e && !('request' in e) && !('resource' in e)));
}

function runCases(file: string, tests: unknown[], name: (t: unknown, i: number) => string, run: (t: unknown) => string | null): FileResult {
  const cases: CaseResult[] = tests.map((t, i) => {
    const n = name(t, i);
    const skip = skipReason(file, n);
    if (skip) return { name: n, status: 'skip', detail: skip };
    try {
      const d = run(t);
      return d === null ? { name: n, status: 'pass' } : { name: n, status: 'fail', detail: d };
    } catch (e) {
      return { name: n, status: 'fail', detail: `error: ${(e as Error).message}` };
    }
  });
  return { file, cases };
}

const requestName = (t: unknown, i: number) => `#${i + 1} ${String(((t as Json).request as Json | undefined)?.requestId ?? '')}`;

function runService(dir: string, service: string): FileResult[] {
  const svc = loadService(dir, service);
  const out: FileResult[] = [];
  const present = (f: string) => existsSync(join(conformanceDir(), dir, f));

  if (present('tests_authz.json')) {
    const file = `${dir}/tests_authz.json`;
    out.push(
      runCases(file, entries(file), requestName, (raw) => {
        const t = AuthzTestSchema.parse(raw);
        const audits: AuditEvent[] = [];
        const got = authorize(svc, t.request.requestId, t.request.user, t.request.access, t.request.context, audits);
        return diff(t.result, got) ?? auditDiff(t.audits, audits);
      }),
    );
  }
  if (present('tests_multi_authz.json')) {
    const file = `${dir}/tests_multi_authz.json`;
    out.push(
      runCases(file, entries(file), requestName, (raw) => {
        const t = MultiAuthzTestSchema.parse(raw);
        const audits: AuditEvent[] = [];
        return diff(t.result, authorizeMulti(svc, t.request, audits)) ?? auditDiff(t.audits, audits);
      }),
    );
  }
  if (present('tests_resource_permissions.json')) {
    const file = `${dir}/tests_resource_permissions.json`;
    out.push(
      runCases(
        file,
        entries(file),
        (t, i) => `#${i + 1} ${String(((t as Json).resource as Json | undefined)?.name ?? '')}`,
        (raw) => {
          const t = PermissionsTestSchema.parse(raw);
          return diff(t.permissions, resourcePermissions(svc, t));
        },
      ),
    );
  }
  return out;
}

export const authzEmbeddedDriver: Driver = {
  name: 'Ranger authz-embedded (TestEmbeddedAuthorizer)',
  run(): FileResult[] {
    return SERVICES.flatMap((s) => runService(s.dir, s.service));
  },
};
