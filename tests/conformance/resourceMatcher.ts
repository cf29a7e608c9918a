/**
 * Conformance driver for Ranger's single-value resource matcher fixtures
 * (resourcematcher/test_resourcematcher_*.json, driven in Java by TestResourceMatcher):
 * each test is `isMatch(input, SELF, evalContext)` against one policy resource.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { conformanceDir, readFixture, type CaseResult, type Driver, type FileResult } from './harness.js';
import { createResourceMatcher } from '../../policy/ranger/matchers/resourceMatcher.js';
import type { MatchContext, PolicyResourceLike, ResourceDefLike } from '../../policy/ranger/matchers/types.js';

interface OneTest {
  name: string;
  input: string | null;
  evalContext?: Record<string, unknown>;
  result: boolean;
}

interface TestCase {
  name: string;
  resourceDef: ResourceDefLike;
  policyResource: PolicyResourceLike;
  tests: OneTest[];
}

/** Ranger keeps tokens in the evaluation context as `token:NAME`; other keys are not tokens. */
export function matchContextOf(evalContext: Record<string, unknown> | undefined): MatchContext {
  const tokens: Record<string, string> = {};
  for (const [k, v] of Object.entries(evalContext ?? {}))
    if (k.startsWith('token:') && v !== null && v !== undefined) tokens[k.slice('token:'.length)] = String(v);
  return { tokens };
}

export function fixtureFiles(prefix: string): string[] {
  return readdirSync(join(conformanceDir(), 'resourcematcher'))
    .filter((f) => f.startsWith(prefix) && f.endsWith('.json'))
    .sort()
    .map((f) => `resourcematcher/${f}`);
}

function runFile(file: string): FileResult {
  const { testCases } = readFixture(file) as { testCases: TestCase[] };
  const cases: CaseResult[] = [];
  for (const tc of testCases) {
    // The fixtures name no resource; the matcher does not need one.
    const matcher = createResourceMatcher({ ...tc.resourceDef, name: tc.resourceDef.name ?? 'resource' }, tc.policyResource);
    for (const t of tc.tests) {
      const name = `${tc.name} / ${t.name}`;
      const got = matcher.isMatch(t.input, 'SELF', matchContextOf(t.evalContext));
      cases.push(
        got === t.result
          ? { name, status: 'pass' }
          : { name, status: 'fail', detail: `input=${JSON.stringify(t.input)} expected ${t.result}, got ${got}` },
      );
    }
  }
  return { file, cases };
}

export const resourceMatcherDriver: Driver = {
  name: 'resource matcher',
  run: () => fixtureFiles('test_resourcematcher_').map(runFile),
};
