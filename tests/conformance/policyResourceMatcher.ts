/**
 * Conformance driver for Ranger's whole-policy resource matcher fixtures
 * (resourcematcher/test_defaultpolicyresourcematcher*.json, driven in Java by
 * TestDefaultPolicyResourceMatcher and ...ForPolicy). A test names either a request
 * `resource {elements}` or another `policy` whose resources must fall within the matcher's,
 * and a scope by its fixture name.
 */
import { readFixture, type CaseResult, type Driver, type FileResult } from './harness.js';
import { fixtureFiles, matchContextOf } from './resourceMatcher.js';
import { createPolicyResourceMatcher } from '../../policy/ranger/matchers/policyResourceMatcher.js';
import type { MatchScope, PolicyResourcesLike, PolicyType, RequestResource, ServiceDefLike } from '../../policy/ranger/matchers/types.js';

const SCOPES: Record<string, MatchScope> = {
  exactmatch: 'SELF',
  descendantmatch: 'DESCENDANT',
  ancestormatch: 'ANCESTOR',
  selfordescendantmatch: 'SELF_OR_DESCENDANT',
  selforancestormatch: 'SELF_OR_ANCESTOR',
  selfandalldescendants: 'SELF_AND_ALL_DESCENDANTS',
  anymatch: 'ANY',
};

interface OneTest {
  name: string;
  type: string;
  resource?: { elements?: RequestResource };
  policy?: { resources?: PolicyResourcesLike; policyType?: number | null };
  evalContext?: Record<string, unknown>;
  result: boolean;
}

interface Fixture {
  serviceDef: ServiceDefLike;
  testCases: { name: string; policyResources: PolicyResourcesLike; tests: OneTest[] }[];
}

function runFile(file: string): FileResult {
  const { serviceDef, testCases } = readFixture(file) as Fixture;
  const cases: CaseResult[] = [];
  for (const tc of testCases) {
    const matcher = createPolicyResourceMatcher(serviceDef, tc.policyResources ?? {});
    for (const t of tc.tests) {
      const name = `${tc.name} / ${t.name}`;
      const scope = SCOPES[t.type.toLowerCase()];
      if (!scope) {
        // The Java driver skips a test whose type it does not know.
        cases.push({ name, status: 'skip', detail: `unknown match type ${t.type}` });
        continue;
      }
      const ctx = matchContextOf(t.evalContext);
      const got = t.policy
        ? matcher.isMatchForPolicy(t.policy.resources ?? {}, scope, ctx, (t.policy.policyType ?? 0) as PolicyType)
        : matcher.isMatch(t.resource?.elements ?? {}, scope, ctx);
      const what = t.policy ? `policy=${JSON.stringify(t.policy.resources)}` : `resource=${JSON.stringify(t.resource?.elements)}`;
      cases.push(
        got === t.result
          ? { name, status: 'pass' }
          : { name, status: 'fail', detail: `${t.type} ${what} expected ${t.result}, got ${got} (${matcher.getMatchType(t.resource?.elements ?? {}, ctx)})` },
      );
    }
  }
  return { file, cases };
}

export const policyResourceMatcherDriver: Driver = {
  name: 'policy resource matcher',
  run: () => fixtureFiles('test_defaultpolicyresourcematcher').map(runFile),
};
