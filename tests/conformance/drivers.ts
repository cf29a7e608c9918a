/** Every conformance driver, in the order the runner prints them. */
import type { Driver } from './harness.js';
import { policyEngineDriver } from './policyEngine.js';
import { policyResourceMatcherDriver } from './policyResourceMatcher.js';
import { resourceMatcherDriver } from './resourceMatcher.js';
import { validityDriver } from './validity.js';
import { aclDriver } from './acls.js';
import { gdsDriver } from './gds.js';
import { basePluginDriver } from './basePlugin.js';
import { tagEnricherDriver } from './tagEnricher.js';
import { inlinePoliciesDriver } from './inlinePolicies.js';
import { polarisDriver } from './polaris.js';
import { authzEmbeddedDriver } from './authzEmbedded.js';

export const drivers: readonly Driver[] = [
  resourceMatcherDriver,
  policyResourceMatcherDriver,
  validityDriver,
  policyEngineDriver,
  aclDriver,
  gdsDriver,
  basePluginDriver,
  tagEnricherDriver,
  inlinePoliciesDriver,
  polarisDriver,
  authzEmbeddedDriver,
];
