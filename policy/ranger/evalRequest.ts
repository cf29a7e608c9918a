/**
 * An access request prepared once for evaluation: roles resolved, access time
 * fixed, and the contexts the resource matchers and the condition evaluators read.
 */
import type { ConditionContext } from './conditions/context.js';
import { evaluateRequestExpression } from './conditions/requestExpression.js';
import type { MatchContext } from './matchers/types.js';
import type { AccessRequest, ElementMatchingScope, ResourceValue, TagForEval } from './request.js';
import type { UserStore } from './model.js';

export interface EvalRequest {
  readonly user: string;
  readonly groups: ReadonlySet<string>;
  readonly roles: ReadonlySet<string>;
  readonly ownerUser: string | undefined;
  readonly accessTime: Date;
  readonly resource: Readonly<Record<string, ResourceValue>>;
  readonly elementScopes: Readonly<Record<string, ElementMatchingScope>> | undefined;
  readonly match: MatchContext;
  readonly condition: ConditionContext;
  /** Set while a tag policy is evaluated: the tag it was reached through. */
  readonly tag?: TagForEval;
}

export function prepareRequest(
  req: AccessRequest,
  roles: ReadonlySet<string>,
  accessType: string,
  tags: readonly TagForEval[],
  userStore: UserStore | null,
): EvalRequest {
  const accessTime = req.accessTime ?? new Date();
  // The condition and match contexts are built on first use: most decisions never read
  // them (no conditions, no dynamic values), and building them is most of a request's setup.
  let condition: ConditionContext | undefined;
  let match: MatchContext | undefined;
  const conditionContext = (): ConditionContext =>
    (condition ??= {
      user: req.user,
      userGroups: req.userGroups,
      userRoles: roles,
      accessTime,
      accessType,
      action: req.action,
      requestData: req.requestData,
      clientIPAddress: req.clientIPAddress,
      remoteIPAddress: req.remoteIPAddress,
      forwardedAddresses: req.forwardedAddresses,
      clusterName: req.clusterName,
      clusterType: req.clusterType,
      resource: { elements: toElements(req.resource), ownerUser: req.ownerUser },
      context: req.context ?? {},
      tags: tags.map((t) => ({ type: t.type, attributes: t.attributes, matchType: t.matchType })),
      userAttributes: userStore ? (u: string) => userStore.userAttrMapping[u] : undefined,
      groupAttributes: userStore ? (g: string) => userStore.groupAttrMapping[g] : undefined,
    });
  return {
    user: req.user,
    groups: req.userGroups,
    roles,
    ownerUser: req.ownerUser,
    accessTime,
    resource: req.resource,
    elementScopes: req.resourceElementMatchingScopes,
    // Own enumerable getters, so a spread copy of the request still carries both contexts.
    get match(): MatchContext {
      if (match === undefined) {
        const tokens: Record<string, string> = { USER: req.user };
        if (req.ownerUser !== undefined) tokens.OWNER = req.ownerUser;
        match = { tokens, resolveExpression: (expr: string) => evaluateRequestExpression(expr, conditionContext()) };
      }
      return match;
    },
    get condition(): ConditionContext {
      return conditionContext();
    },
  };
}

/** The same request seen through one of its tags, for tag-policy evaluation. */
export function forTag(req: EvalRequest, tag: TagForEval): EvalRequest {
  return {
    ...req,
    tag,
    condition: { ...req.condition, currentTag: { type: tag.type, attributes: tag.attributes, matchType: tag.matchType } },
  };
}

function toElements(resource: Readonly<Record<string, ResourceValue>>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(resource)) out[k] = typeof v === 'string' ? v : [...v];
  return out;
}
