/**
 * Drives Ranger's TestPolicyACLs fixtures (policyengine/test_aclprovider_*.json):
 * one engine per test case from its ServicePolicies, then getResourceACLs for each
 * resource as `_any` with no user, compared the way the Java test compares.
 *
 * Ranger's RangerResourceACLs.AccessResult.equals has an operator-precedence slip
 * (`a && b && policy == null ? x : y`): when both sides carry a policy only the
 * policy ids are compared. The driver compares exactly that; a difference in
 * result or isFinal that Ranger's equality cannot see is reported in the case's
 * detail as "lenient".
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type AclMap, getResourceACLs, type MaskAcl, type ResourceACLs, type RowFilterAcl } from '../../policy/ranger/acls.js';
import { PolicyEngine } from '../../policy/ranger/engine.js';
import { parseServicePolicies, parseServiceTags } from '../../policy/ranger/model.js';
import type { AccessRequest } from '../../policy/ranger/request.js';
import { RoleStore } from '../../policy/ranger/roles.js';
import { TagStore } from '../../policy/ranger/tags.js';
import { type CaseResult, conformanceDir, type Driver, type FileResult, readFixture } from './harness.js';
import { JVM_ZONE, tagFileOf, TRUSTED_PROXIES } from './policyEngine.js';
import { skipReason } from './skips.js';

type Json = Record<string, unknown>;

export interface BuiltForAcls {
  engine: PolicyEngine;
  tags: TagStore | null;
}

/** An engine from a ServicePolicies document, with its file-based tags when the defs declare them. */
export function engineFromServicePolicies(sp: Json, opts: { roles?: RoleStore } = {}): BuiltForAcls {
  const bundle = parseServicePolicies({ policyVersion: 100, ...sp }, 'fixture');
  const tagInfo = sp.tagPolicies as Json | undefined;
  const tagFile = tagFileOf(sp.serviceDef as Json | undefined) ?? tagFileOf(tagInfo?.serviceDef as Json | undefined);
  const tags = tagFile ? new TagStore(bundle.serviceDef, parseServiceTags(readFixture(tagFile), tagFile)) : null;
  const engine = new PolicyEngine(bundle, {
    roles: opts.roles ?? new RoleStore(null),
    tags,
    trustedProxies: TRUSTED_PROXIES,
    useForwardedFor: true,
    localTimeZone: JVM_ZONE,
  });
  return { engine, tags };
}

/**
 * The ACL request Ranger's tests build: the resource, `_any`, no user. Tags come
 * from the tag store as the enricher attaches them for `_any` (descendants too),
 * validity periods kept: a temporal tag makes its policies conditional.
 */
export function aclRequest(built: BuiltForAcls, resource: Record<string, string | string[]>, scope?: string): AccessRequest {
  const req: AccessRequest = { resource, accessType: '_any', user: '', userGroups: new Set() };
  if (scope === 'SELF_OR_DESCENDANTS') req.resourceMatchingScope = 'SELF_OR_DESCENDANTS';
  if (built.tags) req.tags = built.tags.tagsFor(resource, true, '');
  return req;
}

// ------------------------------------------------------------------ comparison as Ranger's equals()

interface ExpectedAcl {
  result?: number;
  isFinal?: boolean;
  policy?: { id?: number } | null;
}

function sorted<T>(xs: Iterable<T>): T[] {
  return [...xs].sort();
}

/** Compares one principal map; returns [ranger-visible problems, strict-only problems]. */
function compareAclMap(label: string, expected: Record<string, Record<string, ExpectedAcl>> | undefined, got: AclMap): [string[], string[]] {
  const problems: string[] = [];
  const lenient: string[] = [];
  const exp = expected ?? {};
  const names = new Set([...Object.keys(exp), ...got.keys()]);
  for (const name of sorted(names)) {
    const e = exp[name];
    const g = got.get(name);
    if (!e || !g) {
      problems.push(`${label}.${name}: expected ${JSON.stringify(e ?? null)} got ${g ? JSON.stringify(Object.fromEntries(g)) : 'null'}`);
      continue;
    }
    for (const t of sorted(new Set([...Object.keys(e), ...g.keys()]))) {
      const ea = e[t];
      const ga = g.get(t);
      if (!ea || !ga) {
        problems.push(`${label}.${name}.${t}: expected ${JSON.stringify(ea ?? null)} got ${JSON.stringify(ga ?? null)}`);
        continue;
      }
      const eId = ea.policy?.id ?? null;
      const strict = (ea.result ?? -1) === ga.result && (ea.isFinal ?? false) === ga.isFinal && eId === ga.policyId;
      // Ranger: with a policy on the expected side only the policy ids count.
      const ranger = ea.policy == null ? false : eId === ga.policyId;
      const show = `${label}.${name}.${t}: expected ${JSON.stringify({ result: ea.result, isFinal: ea.isFinal, policyId: eId })} got ${JSON.stringify(ga)}`;
      if (!ranger) problems.push(show);
      else if (!strict) lenient.push(show);
    }
  }
  return [problems, lenient];
}

function setEq(a: readonly string[] | undefined, b: Set<string>): boolean {
  const x = sorted(a ?? []);
  const y = sorted(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

function compareMasks(expected: Json[] | undefined, got: MaskAcl[]): string[] {
  const exp = expected ?? [];
  const same = (e: Json, g: MaskAcl) => {
    const info = (e.maskInfo as Json | undefined) ?? {};
    return (
      setEq(e.users as string[], g.users) &&
      setEq(e.groups as string[], g.groups) &&
      setEq(e.roles as string[], g.roles) &&
      setEq(e.accessTypes as string[], g.accessTypes) &&
      (info.dataMaskType ?? null) === g.maskInfo.dataMaskType &&
      (info.conditionExpr ?? null) === g.maskInfo.conditionExpr &&
      (info.valueExpr ?? null) === g.maskInfo.valueExpr &&
      Boolean(e.isConditional) === g.isConditional
    );
  };
  return listProblems('dataMasks', exp, got, same);
}

function compareRowFilters(expected: Json[] | undefined, got: RowFilterAcl[]): string[] {
  const exp = expected ?? [];
  const same = (e: Json, g: RowFilterAcl) =>
    setEq(e.users as string[], g.users) &&
    setEq(e.groups as string[], g.groups) &&
    setEq(e.roles as string[], g.roles) &&
    setEq(e.accessTypes as string[], g.accessTypes) &&
    (((e.filterInfo as Json | undefined)?.filterExpr as string | undefined) ?? null) === g.filterInfo.filterExpr &&
    Boolean(e.isConditional) === g.isConditional;
  return listProblems('rowFilters', exp, got, same);
}

/** Java List.equals: same length, pairwise equal, in order. */
function listProblems<T>(label: string, exp: Json[], got: T[], same: (e: Json, g: T) => boolean): string[] {
  const show = (g: T) => JSON.stringify(g, (_, v: unknown) => (v instanceof Set ? [...(v as Set<string>)] : v));
  if (exp.length === got.length && exp.every((e, i) => same(e, got[i]!))) return [];
  return [`${label}: expected ${JSON.stringify(exp)} got [${got.map(show).join(',')}]`];
}

export interface AclExpectation {
  userACLs?: Record<string, Record<string, ExpectedAcl>>;
  groupACLs?: Record<string, Record<string, ExpectedAcl>>;
  roleACLs?: Record<string, Record<string, ExpectedAcl>>;
  rowFilters?: Json[];
  dataMasks?: Json[];
}

/** null when Ranger's assertEquals would pass; lenient lists what only a strict comparison sees. */
export function compareAcls(exp: AclExpectation, got: ResourceACLs): { problems: string[]; lenient: string[] } {
  const [u, ul] = compareAclMap('user', exp.userACLs, got.userACLs);
  const [g, gl] = compareAclMap('group', exp.groupACLs, got.groupACLs);
  const [r, rl] = compareAclMap('role', exp.roleACLs, got.roleACLs);
  return {
    problems: [...u, ...g, ...r, ...compareRowFilters(exp.rowFilters, got.rowFilters), ...compareMasks(exp.dataMasks, got.dataMasks)],
    lenient: [...ul, ...gl, ...rl],
  };
}

// ------------------------------------------------------------------ driver

function fixtureFiles(): string[] {
  return readdirSync(join(conformanceDir(), 'policyengine'))
    .filter((f) => /^test_aclprovider_.*\.json$/.test(f))
    .sort()
    .map((f) => `policyengine/${f}`);
}

function runFile(file: string): FileResult {
  const raw = readFixture(file) as { testCases: Json[] };
  const cases: CaseResult[] = [];
  for (const tc of raw.testCases) {
    let built: BuiltForAcls | null = null;
    let buildError: string | null = null;
    try {
      built = engineFromServicePolicies(tc.servicePolicies as Json);
    } catch (e) {
      buildError = (e as Error).message;
    }
    for (const t of (tc.tests as Json[] | undefined) ?? []) {
      const name = String(t.name);
      const reason = skipReason(file, name) ?? skipReason(file, '*');
      if (reason) {
        cases.push({ name, status: 'skip', detail: reason });
        continue;
      }
      if (!built) {
        cases.push({ name, status: 'fail', detail: `engine: ${buildError}` });
        continue;
      }
      try {
        const resource = ((t.resource as Json | undefined)?.elements ?? {}) as Record<string, string>;
        const acls = getResourceACLs(built.engine, aclRequest(built, resource, t.resourceMatchingScope as string | undefined));
        const { problems, lenient } = compareAcls(
          {
            userACLs: t.userPermissions as never,
            groupACLs: t.groupPermissions as never,
            roleACLs: t.rolePermissions as never,
            rowFilters: t.rowFilters as Json[] | undefined,
            dataMasks: t.dataMasks as Json[] | undefined,
          },
          acls,
        );
        if (problems.length > 0) cases.push({ name, status: 'fail', detail: problems.join('; ') });
        else cases.push(lenient.length > 0 ? { name, status: 'pass', detail: `lenient: ${lenient.join('; ')}` } : { name, status: 'pass' });
      } catch (e) {
        cases.push({ name, status: 'fail', detail: `threw: ${(e as Error).stack ?? (e as Error).message}` });
      }
    }
  }
  return { file, cases };
}

export const aclDriver: Driver = {
  name: 'resource ACLs (TestPolicyACLs)',
  run: () => fixtureFiles().map(runFile),
};
