/**
 * Ranger's TestInlinePolicyEvaluator fixture (policyevaluator/test_inline_policies_ozone.json).
 * Inline policies travel with the request and are applied by RangerBasePlugin around
 * the engine; lakegate has no counterpart yet, so every case is reported as skipped
 * with the reason in skips.ts rather than silently left out of the counts.
 */
import type { Driver } from './harness.js';
import { skippedFile } from './basePlugin.js';

const FILE = 'policyevaluator/test_inline_policies_ozone.json';

export const inlinePoliciesDriver: Driver = {
  name: 'inline policies (TestInlinePolicyEvaluator)',
  run: () => [skippedFile(FILE, (raw) => ((raw.tests as { name?: unknown }[] | undefined) ?? []).map((t) => String(t.name)))],
};
