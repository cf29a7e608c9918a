/**
 * Drives Ranger's TestPolicyEngine fixtures (policyengine/test_policyengine_*.json
 * and hbase-agent/policyengine/*.json) through lakegate's PolicyEngine the way
 * TestPolicyEngine.java drives Ranger's: policyVersion 100, roles from the three
 * role maps, X-Forwarded-For trusted from the harness's proxies, the JVM zone PST,
 * context TAGS used as given, file-based tags through the tag enricher's file.
 *
 * Asserted as Ranger asserts: `result` → isAllowed and isAudited; data mask →
 * maskType, maskCondition, maskedValue and policyId; row filter → filterExpr and
 * policyId; resourceAccessInfo → the allowed/denied users and groups.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { effectiveClientIp } from '../../policy/ranger/conditions/ipMatcher.js';
import { parseRangerAccessTime } from '../../policy/ranger/conditions/rangerDates.js';
import { GeolocationTable } from '../../policy/ranger/geolocation.js';
import { lenientJson } from '../../policy/ranger/auditFilters.js';
import { PolicyEngine } from '../../policy/ranger/engine.js';
import { parseServicePolicies, parseServiceTags, parseUserStore, type Policy, PolicySchema } from '../../policy/ranger/model.js';
import type { AccessRequest, TagForEval } from '../../policy/ranger/request.js';
import { RoleStore } from '../../policy/ranger/roles.js';
import { TagStore } from '../../policy/ranger/tags.js';
import { type CaseResult, conformanceDir, type Driver, type FileResult, readFixture } from './harness.js';
import { skipReason } from './skips.js';

type Json = Record<string, unknown>;

export const TRUSTED_PROXIES = ['255.255.255.255', '128.101.101.101', '128.101.101.99'];
export const JVM_ZONE = 'PST';

function fixtureFiles(): string[] {
  const root = conformanceDir();
  const pe = readdirSync(join(root, 'policyengine'))
    .filter((f) => /^test_policyengine_.*\.json$/.test(f))
    .map((f) => `policyengine/${f}`);
  const hbase = readdirSync(join(root, 'hbase-agent', 'policyengine'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => `hbase-agent/policyengine/${f}`);
  return [...pe.sort(), ...hbase.sort()];
}

export function tagFileOf(serviceDef: Json | undefined): string | null {
  for (const e of (serviceDef?.contextEnrichers as Json[] | undefined) ?? []) {
    const name = (e.enricherOptions as Json | undefined)?.serviceTagsFileName;
    if (typeof name === 'string' && String(e.enricher).endsWith('RangerTagEnricher')) return name.replace(/^\//, '');
  }
  return null;
}

interface Built {
  engine: PolicyEngine;
  geo: GeolocationTable[];
}

/** The file-based geolocation enrichers the service def declares (geo data under etc/ranger/geo). */
function geoTablesOf(serviceDef: Json | undefined): GeolocationTable[] {
  const out: GeolocationTable[] = [];
  for (const e of (serviceDef?.contextEnrichers as Json[] | undefined) ?? []) {
    if (!String(e.enricher).endsWith('RangerFileBasedGeolocationProvider')) continue;
    const o = (e.enricherOptions as Record<string, string> | undefined) ?? {};
    const text = readFileSync(join(conformanceDir(), String(o.FilePath).replace(/^\//, '')), 'utf8');
    out.push(new GeolocationTable(text, { ipInDotFormat: String(o.IPInDotFormat) !== 'false', prefix: o['geolocation.meta.prefix'] ?? '' }));
  }
  return out;
}

function buildEngine(raw: Json, policies: readonly unknown[], zones: unknown, userAttrs: { users: Json; groups: Json }): Built {
  const tagInfo = raw.tagPolicyInfo as Json | undefined;
  const serviceConfig = { ...((raw.serviceConfig as Json | undefined) ?? {}) };
  const bundle = parseServicePolicies(
    {
      serviceName: raw.serviceName,
      serviceDef: raw.serviceDef,
      policies,
      policyVersion: 100,
      auditMode: raw.auditMode,
      securityZones: zones,
      serviceConfig,
      tagPolicies: tagInfo
        ? { serviceName: tagInfo.serviceName, serviceDef: tagInfo.serviceDef, policies: tagInfo.tagPolicies, serviceConfig: tagInfo.serviceConfig }
        : undefined,
    },
    'fixture',
  );
  // The harness declares the file-based tag enricher on either def.
  const tagFile = tagFileOf(raw.serviceDef as Json | undefined) ?? tagFileOf(tagInfo?.serviceDef as Json | undefined);
  const tags = tagFile ? new TagStore(bundle.serviceDef, parseServiceTags(readFixture(tagFile), tagFile)) : null;
  const userStore =
    Object.keys(userAttrs.users).length + Object.keys(userAttrs.groups).length > 0
      ? parseUserStore({ userAttrMapping: userAttrs.users, groupAttrMapping: userAttrs.groups }, 'fixture')
      : null;
  const engine = new PolicyEngine(bundle, {
    roles: RoleStore.fromMaps(raw.userRoles as never, raw.groupRoles as never, raw.roleRoles as never),
    tags,
    userStore,
    superUsers: (raw.superUsers as string[] | undefined) ?? [],
    superGroups: (raw.superGroups as string[] | undefined) ?? [],
    auditExcludedUsers: (raw.auditExcludedUsers as string[] | undefined) ?? [],
    auditExcludedGroups: (raw.auditExcludedGroups as string[] | undefined) ?? [],
    auditExcludedRoles: (raw.auditExcludedRoles as string[] | undefined) ?? [],
    trustedProxies: TRUSTED_PROXIES,
    useForwardedFor: true,
    localTimeZone: JVM_ZONE,
  });
  return { engine, geo: geoTablesOf(raw.serviceDef as Json | undefined) };
}

export function parseTags(text: unknown): TagForEval[] {
  if (text === '' || text == null) return [];
  const list = (typeof text === 'string' ? lenientJson(text) : text) as Json[];
  return list.map((t) => {
    const options = (t.options as Json | undefined) ?? {};
    const periods = options.TAG_VALIDITY_PERIODS;
    return {
      type: String(t.type),
      attributes: (t.attributes as Record<string, string> | undefined) ?? {},
      matchType: ((t.matchType as string | undefined) ?? 'SELF') as TagForEval['matchType'],
      ...(periods ? { validityPeriods: (typeof periods === 'string' ? JSON.parse(periods) : periods) as unknown[] } : {}),
    };
  });
}

export function toRequest(r: Json): AccessRequest {
  const resource = (r.resource as Json | undefined) ?? {};
  const context = { ...((r.context as Json | undefined) ?? {}) };
  const req: AccessRequest = {
    resource: ((resource.elements as Json | undefined) ?? {}) as Record<string, string | string[]>,
    accessType: String(r.accessType ?? ''),
    user: String(r.user ?? ''),
    userGroups: new Set((r.userGroups as string[] | undefined) ?? []),
  };
  if (typeof resource.ownerUser === 'string') req.ownerUser = resource.ownerUser;
  if (Array.isArray(r.userRoles) && r.userRoles.length > 0) req.userRoles = new Set(r.userRoles as string[]);
  if (typeof r.accessTime === 'string') {
    const t = parseRangerAccessTime(r.accessTime);
    if (!t) throw new Error(`unreadable accessTime ${r.accessTime}`);
    req.accessTime = t;
  }
  for (const k of ['action', 'requestData', 'clientIPAddress', 'remoteIPAddress', 'clusterName', 'clusterType'] as const)
    if (typeof r[k] === 'string') req[k] = r[k] as string;
  if (Array.isArray(r.forwardedAddresses)) req.forwardedAddresses = r.forwardedAddresses as string[];
  if (r.resourceMatchingScope === 'SELF_OR_DESCENDANTS') req.resourceMatchingScope = 'SELF_OR_DESCENDANTS';
  if (r.resourceElementMatchingScopes) req.resourceElementMatchingScopes = r.resourceElementMatchingScopes as never;
  // Gson reads "false" into a boolean field too.
  if (r.isDescendantDenyIgnored !== undefined) req.isDescendantDenyIgnored = String(r.isDescendantDenyIgnored) === 'true';
  if (context.TAGS !== undefined) {
    req.tags = parseTags(context.TAGS);
    delete context.TAGS;
  }
  if (Array.isArray(context.ALLACCESSTYPES)) req.allAccessTypes = context.ALLACCESSTYPES as string[];
  if (Array.isArray(context.ALLACCESSTYPEGROUPS)) req.allAccessTypeGroups = context.ALLACCESSTYPEGROUPS as string[][];
  req.context = context;
  return req;
}

function show(v: unknown): string {
  return JSON.stringify(v);
}

function runCase({ engine, geo }: Built, test: Json): string | null {
  const req = toRequest(test.request as Json);
  if (geo.length > 0) {
    // The enricher looks up the client address as the harness computes it (X-Forwarded-For trusted from its proxies).
    const ip = effectiveClientIp(
      { clientIPAddress: req.clientIPAddress, remoteIPAddress: req.remoteIPAddress, forwardedAddresses: req.forwardedAddresses } as never,
      { forwardedAddressesTrusted: true, trustedProxies: TRUSTED_PROXIES },
    );
    req.context = { ...req.context, ...Object.assign({}, ...geo.map((g) => g.attributesFor(ip))) };
  }
  const problems: string[] = [];
  if (test.result) {
    const exp = test.result as Json;
    const got = engine.isAccessAllowed(req);
    if (exp.isAllowed !== undefined && got.isAllowed !== exp.isAllowed) problems.push(`isAllowed expected ${show(exp.isAllowed)} got ${got.isAllowed} (policy ${got.policyId})`);
    if (exp.isAudited !== undefined && got.isAudited !== exp.isAudited) problems.push(`isAudited expected ${show(exp.isAudited)} got ${got.isAudited}`);
  }
  if (test.dataMaskResult) {
    const exp = test.dataMaskResult as Json;
    const info = (exp.additionalInfo as Json | undefined) ?? {};
    const got = engine.evalDataMask(req);
    const want = {
      maskType: (info.maskType as string | null | undefined) ?? null,
      maskCondition: (info.maskCondition as string | null | undefined) ?? null,
      // "maskValue" in some fixtures is a key Ranger's test never reads: the real key is maskedValue.
      maskedValue: (info.maskedValue as string | null | undefined) ?? null,
      policyId: exp.policyId ?? -1,
    };
    const have = { maskType: got.maskType, maskCondition: got.maskCondition, maskedValue: got.maskedValue, policyId: got.policyId };
    if (show(want) !== show(have)) problems.push(`mask expected ${show(want)} got ${show(have)}`);
  }
  if (test.rowFilterResult) {
    const exp = test.rowFilterResult as Json;
    const info = (exp.additionalInfo as Json | undefined) ?? {};
    const got = engine.evalRowFilter(req);
    const want = { filterExpr: (info.filterExpr as string | null | undefined) ?? null, policyId: exp.policyId ?? -1 };
    const have = { filterExpr: got.filterExpr, policyId: got.policyId };
    if (show(want) !== show(have)) problems.push(`row filter expected ${show(want)} got ${show(have)}`);
  }
  if (test.resourceAccessInfo) {
    const exp = test.resourceAccessInfo as Json;
    const got = engine.resourceAccessInfo(req);
    for (const k of ['allowedUsers', 'allowedGroups', 'deniedUsers', 'deniedGroups'] as const) {
      const want = [...((exp[k] as string[] | undefined) ?? [])].sort();
      const have = [...got[k]].sort();
      if (show(want) !== show(have)) problems.push(`${k} expected ${show(want)} got ${show(have)}`);
    }
  }
  return problems.length > 0 ? problems.join('; ') : null;
}

function applyDeltas(policies: readonly unknown[], deltas: Json[]): unknown[] {
  let out = [...policies];
  for (const d of deltas) {
    const p = PolicySchema.parse(d.policy) as Policy;
    const id = p.id;
    if (d.changeType === 0) out.push(d.policy);
    else if (d.changeType === 1) out = out.map((x) => ((x as Json).id === id ? d.policy : x));
    else if (d.changeType === 2) out = out.filter((x) => (x as Json).id !== id);
  }
  return out;
}

function runFile(file: string): FileResult {
  const raw = readFixture(file) as Json;
  const cases: CaseResult[] = [];
  const fileSkip = skipReason(file, '*');
  const allTests = [...((raw.tests as Json[] | undefined) ?? []), ...((raw.updatedTests as Json[] | undefined) ?? [])];
  const testsInfo = raw.testsInfo as Json | undefined;
  if (testsInfo) allTests.push(...((testsInfo.tests as Json[] | undefined) ?? []), ...((testsInfo.updatedTests as Json[] | undefined) ?? []));
  if (fileSkip) {
    for (const t of allTests) cases.push({ name: String(t.name), status: 'skip', detail: fileSkip });
    return { file, cases };
  }

  const run = (tests: Json[], policies: readonly unknown[], zones: unknown, phase: string) => {
    for (const t of tests) {
      const name = `${phase}${String(t.name)}`;
      const reason = skipReason(file, String(t.name));
      if (reason) {
        cases.push({ name, status: 'skip', detail: reason });
        continue;
      }
      try {
        const users = (t.userAttributes as Json | undefined) ?? {};
        const groups = (t.groupAttributes as Json | undefined) ?? {};
        const problem = runCase(buildEngine(raw, policies, zones, { users, groups }), t);
        cases.push(problem ? { name, status: 'fail', detail: problem } : { name, status: 'pass' });
      } catch (e) {
        cases.push({ name, status: 'fail', detail: `threw: ${(e as Error).message}` });
      }
    }
  };

  const policies = (raw.policies as unknown[] | undefined) ?? [];
  run((raw.tests as Json[] | undefined) ?? [], policies, raw.securityZones, '');
  const updated = raw.updatedPolicies as Json | undefined;
  if (updated) {
    const after = applyDeltas(policies, (updated.policyDeltas as Json[] | undefined) ?? []);
    run((raw.updatedTests as Json[] | undefined) ?? [], after, updated.securityZones ?? raw.securityZones, 'after deltas: ');
  }
  if (testsInfo) {
    run((testsInfo.tests as Json[] | undefined) ?? [], policies, raw.securityZones, '');
    const info = testsInfo.updatedPolicies as Json | undefined;
    if (info) run((testsInfo.updatedTests as Json[] | undefined) ?? [], applyDeltas(policies, (info.policyDeltas as Json[] | undefined) ?? []), raw.securityZones, 'after deltas: ');
  }
  return { file, cases };
}

export const policyEngineDriver: Driver = {
  name: 'policy engine (TestPolicyEngine)',
  run: () => fixtureFiles().map(runFile),
};
