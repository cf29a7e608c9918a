/**
 * Drives Ranger's GDS fixtures (policyengine/gds/test_gds_policy_hive_*.json with
 * their gds_info_hive_*.json) through lakegate's GdsPolicyEngine the way
 * TestGdsPolicyEngine.java drives Ranger's: the embedded hive service def, the
 * embedded gds def (the info files carry none), zones from the fixture's
 * securityZones (resource and children), access time now.
 *
 * Asserted as Ranger asserts (assertEquals on whole objects): a `result` is the
 * whole GdsAccessResult (null when nothing is shared); `acls` the user/group/role
 * ACLs (result and finality, not the policy) plus datasets and projects;
 * `sharedWith` the dataset / project ids; `resourceIds` the reachable resources.
 */
import { GdsPolicyEngine, type GdsRequest } from '../../policy/ranger/gds/engine.js';
import { parseServiceGdsInfo } from '../../policy/ranger/gds/model.js';
import type { GdsAccessResult } from '../../policy/ranger/gds/result.js';
import type { AclMap } from '../../policy/ranger/gds/acls.js';
import { parseServiceDef, parseServicePolicies } from '../../policy/ranger/model.js';
import { type CaseResult, type Driver, type FileResult, readFixture } from './harness.js';
import { skipReason } from './skips.js';

type Json = Record<string, unknown>;

const FILES = ['access', 'data_mask', 'row_filter'].map((k) => `policyengine/gds/test_gds_policy_hive_${k}.json`);

const show = (v: unknown) => JSON.stringify(v);
const sorted = (v: Iterable<unknown> | null | undefined) => (v == null ? null : [...v].map(String).sort());
/** Ranger's result sets are null until something is added; an empty set here compares as null. */
const setOrNull = (v: Iterable<unknown> | null | undefined) => {
  const s = sorted(v);
  return s && s.length > 0 ? s : null;
};

function toRequest(r: Json): GdsRequest {
  const resource = (r.resource as Json | undefined) ?? {};
  return {
    resource: ((resource.elements as Json | undefined) ?? {}) as Record<string, string | string[]>,
    accessType: String(r.accessType ?? ''),
    user: String(r.user ?? ''),
    userGroups: new Set((r.userGroups as string[] | undefined) ?? []),
  };
}

function resultShape(r: GdsAccessResult | Json | null): unknown {
  if (r === null) return null;
  const x = r as Json;
  return {
    isAllowed: x.isAllowed ?? false,
    isAudited: x.isAudited ?? false,
    policyId: x.policyId ?? -1,
    policyVersion: x.policyVersion ?? null,
    maskType: x.maskType ?? null,
    maskedValue: x.maskedValue ?? null,
    maskCondition: x.maskCondition ?? null,
    rowFilters: x.rowFilters ?? null,
    datasets: setOrNull(x.datasets as Iterable<unknown>),
    projects: setOrNull(x.projects as Iterable<unknown>),
    datasetIds: setOrNull(x.datasetIds as Iterable<unknown>),
    allowedByDatasets: setOrNull(x.allowedByDatasets as Iterable<unknown>),
    allowedByProjects: setOrNull(x.allowedByProjects as Iterable<unknown>),
  };
}

function aclShape(m: AclMap | Json | undefined): unknown {
  const out: Record<string, Record<string, unknown>> = {};
  const entries = m instanceof Map ? [...m.entries()].map(([k, v]) => [k, Object.fromEntries(v)] as const) : Object.entries(m ?? {});
  for (const [name, byType] of entries.sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    out[name] = {};
    for (const [t, e] of Object.entries(byType as Record<string, Json>).sort((a, b) => (a[0] < b[0] ? -1 : 1)))
      out[name][t] = { result: e.result, isFinal: e.isFinal ?? false };
  }
  return out;
}

function runCase(engine: GdsPolicyEngine, t: Json): string | null {
  if (t.request) {
    const req = toRequest(t.request as Json);
    if (t.acls) {
      const exp = t.acls as Json;
      const got = engine.getResourceACLs(req);
      const want = { users: aclShape(exp.userACLs as Json), groups: aclShape(exp.groupACLs as Json), roles: aclShape(exp.roleACLs as Json), datasets: sorted((exp.datasets as string[]) ?? []), projects: sorted((exp.projects as string[]) ?? []) };
      const have = { users: aclShape(got.userACLs), groups: aclShape(got.groupACLs), roles: aclShape(got.roleACLs), datasets: sorted(got.datasets), projects: sorted(got.projects) };
      return show(want) === show(have) ? null : `acls expected ${show(want)} got ${show(have)}`;
    }
    const want = resultShape((t.result as Json | null | undefined) ?? null);
    const have = resultShape(engine.evaluate(req));
    return show(want) === show(have) ? null : `result expected ${show(want)} got ${show(have)}`;
  }
  // "principals:" (sic) in one case: Ranger reads no principals and so asserts nothing; we check its evident intent.
  const principals = (t.sharedWith ?? t['principals:']) as Record<string, string[]> | undefined;
  if (principals) {
    const problems: string[] = [];
    const args = [principals.users ?? [], principals.groups ?? [], principals.roles ?? []] as const;
    if (t.datasets) {
      const have = sorted(engine.datasetsSharedWith(...args));
      if (show(sorted(t.datasets as number[])) !== show(have)) problems.push(`datasets expected ${show(t.datasets)} got ${show(have)}`);
    }
    if (t.projects) {
      const have = sorted(engine.projectsSharedWith(...args));
      if (show(sorted(t.projects as number[])) !== show(have)) problems.push(`projects expected ${show(t.projects)} got ${show(have)}`);
    }
    return problems.length > 0 ? problems.join('; ') : null;
  }
  if (t.resourceIds) {
    const sel =
      t.datasetId != null
        ? { datasetIds: [t.datasetId as number] }
        : t.projectId != null
          ? { projectIds: [t.projectId as number] }
          : t.dataShareId != null
            ? { dataShareIds: [t.dataShareId as number] }
            : { projectIds: t.projectIds as number[] | undefined, datasetIds: t.datasetIds as number[] | undefined, dataShareIds: t.dataShareIds as number[] | undefined };
    const have = sorted(new Set(engine.resourceIds(sel)));
    return show(sorted(t.resourceIds as number[])) === show(have) ? null : `resourceIds expected ${show(t.resourceIds)} got ${show(have)}`;
  }
  return 'case of a kind TestGdsPolicyEngine does not run';
}

function runFile(file: string): FileResult {
  const raw = readFixture(file) as Json;
  const tests = (raw.tests as Json[] | undefined) ?? [];
  const cases: CaseResult[] = [];
  const fileSkip = skipReason(file, '*');
  if (fileSkip) return { file, cases: tests.map((t) => ({ name: String(t.name), status: 'skip' as const, detail: fileSkip })) };

  let engine: GdsPolicyEngine;
  try {
    const serviceDef = parseServiceDef(readFixture(`service-defs/ranger-servicedef-${String(raw.serviceType)}.json`), 'embedded service def');
    const zones = parseServicePolicies({ securityZones: raw.securityZones }, file).securityZones;
    const infoFile = String(raw.gdsInfoFilename).replace(/^\//, '');
    const info = parseServiceGdsInfo(raw.gdsInfo ?? readFixture(infoFile), infoFile);
    engine = new GdsPolicyEngine(info, serviceDef, { securityZones: zones });
  } catch (e) {
    return { file, cases: tests.map((t) => ({ name: String(t.name), status: 'fail' as const, detail: `engine: ${(e as Error).message}` })) };
  }
  for (const t of tests) {
    const name = String(t.name);
    const reason = skipReason(file, name);
    if (reason) {
      cases.push({ name, status: 'skip', detail: reason });
      continue;
    }
    try {
      const problem = runCase(engine, t);
      cases.push(problem ? { name, status: 'fail', detail: problem } : { name, status: 'pass' });
    } catch (e) {
      cases.push({ name, status: 'fail', detail: `threw: ${(e as Error).message}` });
    }
  }
  return { file, cases };
}

export const gdsDriver: Driver = {
  name: 'GDS policy engine (TestGdsPolicyEngine)',
  run: () => FILES.map(runFile),
};
