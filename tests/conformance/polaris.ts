/**
 * Drives Apache Polaris's Ranger-authorizer fixtures
 * (polaris/test/resources/authz_tests/tests_authz_*.json against dev_polaris.json)
 * through policy/polaris/rangerAuthorizer.ts and lakegate's engine, the way
 * RangerPolarisAuthorizerTest.java does: each test's target and secondary are
 * read as `<ENTITY_TYPE>:<name>/<name>…` paths (the entity types along the path
 * fixed per leaf type), the principal carries no roles, and the test asserts
 * only whether the operation is allowed (a refusal must be a refusal, not an error).
 */
import { z } from 'zod';
import type { PolarisEntityType, PolarisPath } from '../../catalog/polaris/authorization.js';
import { authorizePolaris } from '../../policy/polaris/rangerAuthorizer.js';
import { PolicyEngine } from '../../policy/ranger/engine.js';
import { parseServicePolicies } from '../../policy/ranger/model.js';
import type { CaseResult, Driver, FileResult } from './harness.js';
import { readFixture } from './harness.js';
import { skipReason } from './skips.js';

const DIR = 'polaris/test/resources/authz_tests';
const SUITES = ['root', 'catalog', 'principal', 'namespace', 'table', 'policy', 'unsupported'];

const TestFileSchema = z.object({
  tests: z.array(
    z.object({
      request: z.object({
        authzOp: z.string(),
        principal: z.object({ name: z.string() }),
        target: z.string().nullish(),
        secondary: z.string().nullish(),
      }),
      result: z.object({ isAllowed: z.boolean() }),
    }),
  ),
});

/** Entity types along a path, per leaf type (the test's deserializer). */
const PATH_TYPES: Record<string, number> = {
  ROOT: 1,
  PRINCIPAL: 2,
  PRINCIPAL_ROLE: 2,
  CATALOG: 2,
  CATALOG_ROLE: 2,
  NAMESPACE: 3,
  TABLE_LIKE: 4,
  TASK: 2,
  FILE: 5,
  POLICY: 4,
};

/** Java's `split(sep, limit)`: at most `limit` parts, the last keeps the rest. */
function splitLimit(s: string, sep: string, limit: number): string[] {
  const parts: string[] = [];
  let rest = s;
  while (parts.length < limit - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    parts.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  parts.push(rest);
  return parts;
}

function toPath(target: string): PolarisPath {
  const [type, names] = splitLimit(target, ':', 2);
  if (names === undefined) throw new Error(`${target}: invalid resource`);
  const length = PATH_TYPES[type!];
  if (length === undefined) throw new Error(`${target}: unsupported resource type`);
  const parts = splitLimit(names, '/', length);
  if (parts.length !== length) throw new Error(`${target}: expected ${length} path elements, found ${parts.length}`);
  return { leafType: type as PolarisEntityType, names: parts };
}

function runFile(engine: PolicyEngine, suite: string): FileResult {
  const file = `${DIR}/tests_authz_${suite}.json`;
  const { tests } = TestFileSchema.parse(readFixture(file));
  const cases: CaseResult[] = tests.map((t, i) => {
    const r = t.request;
    const name = `#${i + 1} ${r.authzOp} ${r.principal.name} ${r.target ?? ''}${r.secondary ? ` + ${r.secondary}` : ''}`;
    const skip = skipReason(file, name);
    if (skip) return { name, status: 'skip', detail: skip };
    try {
      const decision = authorizePolaris(engine, {
        principal: { name: r.principal.name },
        operation: r.authzOp,
        targets: r.target ? [toPath(r.target)] : [],
        secondaries: r.secondary ? [toPath(r.secondary)] : [],
      });
      if (decision.allowed === t.result.isAllowed) return { name, status: 'pass' };
      const got = decision.checks.map((c) => `${c.resourceName} ${c.accessType}=${c.result.isAllowed ? 'allow' : 'deny'}(policy ${c.result.policyId})`);
      return { name, status: 'fail', detail: `expected isAllowed=${t.result.isAllowed}, got ${decision.allowed} [${got.join('; ') || 'unmapped operation'}]` };
    } catch (e) {
      return { name, status: 'fail', detail: `expected isAllowed=${t.result.isAllowed}, got error ${(e as Error).message}` };
    }
  });
  return { file, cases };
}

export const polarisDriver: Driver = {
  name: 'Polaris Ranger authorizer (RangerPolarisAuthorizerTest)',
  run(): FileResult[] {
    const engine = new PolicyEngine(parseServicePolicies(readFixture(`${DIR}/dev_polaris.json`), `${DIR}/dev_polaris.json`));
    return SUITES.map((s) => runFile(engine, s));
  },
};
