/** The resource-matching layer of the Ranger policy engine. */
export type {
  ElementMatch,
  ElementScope,
  MatchContext,
  MatchScope,
  MatchType,
  MatcherOptionValue,
  PolicyResourceLike,
  PolicyResourcesLike,
  PolicyType,
  RequestResource,
  RequestValue,
  ResourceDefLike,
  ServiceDefLike,
} from './types.js';
export { createResourceMatcher, type ResourceMatcher } from './resourceMatcher.js';
export {
  createPolicyResourceMatcher,
  scopeAccepts,
  type PolicyResourceMatcher,
  type PolicyResourceMatcherOptions,
} from './policyResourceMatcher.js';
export { createPolicyResourcesMatcher, betterMatchType } from './policyResourcesMatcher.js';
export { hierarchies, resourceDefsFor } from './hierarchy.js';
export { PolicyResourceIndex, type PolicyResourceIndexOptions } from './resourceIndex.js';
export { hasExpressions, hasTokens, replaceTokens } from './dynamicValue.js';
