/**
 * Drives Ranger's plugin-level fixtures through lakegate's engine, the way the
 * Java tests drive RangerBasePlugin:
 *
 * - plugin/test_base_plugin_hive.json (TestRangerBasePlugin): the plugin gets the
 *   policies, tags, roles, user store and GDS info named by the file (a
 *   RangerPlugin: the policy engine plus the GDS engine). Asserted strictly:
 *   isAllowed, isAccessDetermined, policyId, isAudited, isAuditedDetermined; the
 *   data mask (maskType, and maskedValue / maskCondition when a mask is expected)
 *   and the row filter; and, for `acls` cases, the whole resource ACLs with the
 *   datasets and projects.
 * - policyengine/test_base_plugin_hbase.json (RangerBasePluginTest): the policies
 *   come from the test's admin client, i.e. policyengine/hbase-test-policies.json
 *   with ranger-servicedef-hbase.json and ranger-servicedef-tag.json as defs; the
 *   test asserts isAllowed, isAccessDetermined and policyId only.
 */
import { PolicyEngine } from '../../policy/ranger/engine.js';
import { GdsPolicyEngine } from '../../policy/ranger/gds/engine.js';
import { parseServiceGdsInfo } from '../../policy/ranger/gds/model.js';
import { RangerPlugin } from '../../policy/ranger/plugin.js';
import { parseRangerRoles, parseServicePolicies, parseServiceTags, parseUserStore } from '../../policy/ranger/model.js';
import { RoleStore } from '../../policy/ranger/roles.js';
import { TagStore } from '../../policy/ranger/tags.js';
import { type AclExpectation, compareAcls } from './acls.js';
import { type CaseResult, type Driver, type FileResult, readFixture } from './harness.js';
import { JVM_ZONE, toRequest, TRUSTED_PROXIES } from './policyEngine.js';
import { skipReason } from './skips.js';

type Json = Record<string, unknown>;

const HIVE = 'plugin/test_base_plugin_hive.json';
const HBASE = 'policyengine/test_base_plugin_hbase.json';

/** Fixture paths are written as classpath resources (`/plugin/x.json`). */
function resource(path: unknown): unknown {
  return readFixture(String(path).replace(/^\//, ''));
}

function hivePlugin(raw: Json): { plugin: RangerPlugin; tags: TagStore } {
  const bundle = parseServicePolicies({ policyVersion: 100, ...(resource(raw.policiesFilename) as Json) }, String(raw.policiesFilename));
  const tags = new TagStore(bundle.serviceDef, parseServiceTags(resource(raw.tagsFilename), String(raw.tagsFilename)));
  const engine = new PolicyEngine(bundle, {
    roles: new RoleStore(parseRangerRoles(resource(raw.rolesFilename), String(raw.rolesFilename))),
    tags,
    userStore: parseUserStore(resource(raw.userStoreFilename), String(raw.userStoreFilename)),
    trustedProxies: TRUSTED_PROXIES,
    useForwardedFor: true,
    localTimeZone: JVM_ZONE,
  });
  const gdsFile = String(raw.gdsInfoFilename).replace(/^\//, '');
  const gds = raw.gdsInfoFilename
    ? new GdsPolicyEngine(parseServiceGdsInfo(readFixture(gdsFile), gdsFile), bundle.serviceDef, { roles: engine.roleStore, securityZones: bundle.securityZones })
    : null;
  return { plugin: new RangerPlugin(engine, { gds, policies: bundle }), tags };
}

/** RangerAdminClientImpl: the policy file with the hbase and tag service defs set on it. */
function hbaseEngine(): PolicyEngine {
  const sp = readFixture('policyengine/hbase-test-policies.json') as Json;
  const tagPolicies = { ...((sp.tagPolicies as Json | undefined) ?? {}), serviceDef: readFixture('policyengine/ranger-servicedef-tag.json') };
  const bundle = parseServicePolicies({ ...sp, serviceDef: readFixture('policyengine/ranger-servicedef-hbase.json'), tagPolicies }, 'hbase-test-policies.json');
  return new PolicyEngine(bundle, { trustedProxies: TRUSTED_PROXIES, useForwardedFor: true, localTimeZone: JVM_ZONE });
}

function asBool(v: unknown): boolean | undefined {
  return v === undefined || v === null ? undefined : v === true || v === 'true';
}

function show(v: unknown): string {
  return JSON.stringify(v);
}

type Evaluator = Pick<PolicyEngine, 'isAccessAllowed' | 'evalDataMask' | 'evalRowFilter'>;

function checkAccess(engine: Evaluator, t: Json, strict: boolean): string[] {
  const exp = t.result as Json;
  const req = toRequest(t.request as Json);
  const got = engine.isAccessAllowed(req);
  const problems: string[] = [];
  const want: Record<string, unknown> = { isAllowed: asBool(exp.isAllowed), isAccessDetermined: asBool(exp.isAccessDetermined), policyId: exp.policyId ?? -1 };
  const have: Record<string, unknown> = { isAllowed: got.isAllowed, isAccessDetermined: got.isAccessDetermined, policyId: got.policyId };
  if (strict) {
    Object.assign(want, { isAudited: asBool(exp.isAudited), isAuditedDetermined: asBool(exp.isAuditedDetermined) });
    Object.assign(have, { isAudited: got.isAudited, isAuditedDetermined: got.isAuditedDetermined });
  }
  if (show(want) !== show(have)) problems.push(`access expected ${show(want)} got ${show(have)}`);
  if (!strict) return problems;

  // RangerAccessResult keeps mask and filter answers in additionalInfo.
  const info = (exp.additionalInfo as Json | null | undefined) ?? {};
  const mask = engine.evalDataMask(req);
  const wantMask = (info.maskType as string | undefined) ?? null;
  if (wantMask !== null) {
    const w = { maskType: wantMask, maskedValue: info.maskedValue ?? null, maskCondition: info.maskCondition ?? null };
    const h = { maskType: mask.maskType, maskedValue: mask.maskedValue, maskCondition: mask.maskCondition };
    if (show(w) !== show(h)) problems.push(`mask expected ${show(w)} got ${show(h)}`);
  } else if (mask.maskType !== null) problems.push(`mask expected none got ${show(mask.maskType)} (policy ${mask.policyId})`);
  const filter = engine.evalRowFilter(req);
  const wantFilter = (info.filterExpr as string | undefined) ?? null;
  if (wantFilter !== filter.filterExpr) problems.push(`filterExpr expected ${show(wantFilter)} got ${show(filter.filterExpr)} (policy ${filter.policyId})`);
  return problems;
}

function runCases(file: string, tests: Json[], run: (t: Json) => string[]): FileResult {
  const cases: CaseResult[] = [];
  for (const t of tests) {
    const name = String(t.name);
    const reason = skipReason(file, name) ?? skipReason(file, '*');
    if (reason) {
      cases.push({ name, status: 'skip', detail: reason });
      continue;
    }
    try {
      const problems = run(t);
      cases.push(problems.length > 0 ? { name, status: 'fail', detail: problems.join('; ') } : { name, status: 'pass' });
    } catch (e) {
      cases.push({ name, status: 'fail', detail: `threw: ${(e as Error).message}` });
    }
  }
  return { file, cases };
}

function runHive(): FileResult {
  const raw = readFixture(HIVE) as Json;
  const { plugin, tags } = hivePlugin(raw);
  return runCases(HIVE, (raw.tests as Json[] | undefined) ?? [], (t) => {
    const problems: string[] = [];
    if (t.result) problems.push(...checkAccess(plugin, t, true));
    if (t.acls) {
      // TestRangerBasePlugin: the request's resource, `_any`, no user.
      const res = (((t.request as Json).resource as Json | undefined)?.elements ?? {}) as Record<string, string>;
      const acls = plugin.getResourceACLs({ resource: res, accessType: '_any', user: '', userGroups: new Set(), tags: tags.tagsFor(res, true, '') });
      problems.push(...compareAcls(t.acls as AclExpectation, acls).problems);
      // RangerResourceACLs.equals compares the datasets and projects too.
      const exp = t.acls as Json;
      for (const [key, got] of [['datasets', acls.datasets], ['projects', acls.projects]] as const) {
        const want = [...((exp[key] as string[] | undefined) ?? [])].sort();
        if (show(want) !== show([...got].sort())) problems.push(`${key} expected ${show(want)} got ${show([...got].sort())}`);
      }
    }
    return problems;
  });
}

function runHbase(): FileResult {
  const raw = readFixture(HBASE) as Json;
  const engine = hbaseEngine();
  return runCases(HBASE, (raw.tests as Json[] | undefined) ?? [], (t) => (t.result ? checkAccess(engine, t, false) : []));
}

/** Plugin-level fixture files that cannot run at all: every case reported as skipped (reason in skips.ts). */
export function skippedFile(file: string, caseNames: (raw: Json) => string[]): FileResult {
  const raw = readFixture(file) as Json;
  return { file, cases: caseNames(raw).map((name) => ({ name, status: 'skip' as const, detail: skipReason(file, name) ?? skipReason(file, '*') ?? 'not run' })) };
}

const COMPARE = 'policyengine/test_compare_policyengines.json';

export const basePluginDriver: Driver = {
  name: 'base plugin (TestRangerBasePlugin, RangerBasePluginTest)',
  run: () => [runHive(), runHbase(), skippedFile(COMPARE, (raw) => ((raw.testCases as Json[] | undefined) ?? []).map((t) => String(t.name)))],
};
