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
  return new PreparedRequest(req, roles, accessType, tags, userStore, undefined);
}

/**
 * The condition and match contexts are built on first use: most decisions never
 * read them (no conditions, no dynamic values), and building them would be most of
 * a request's set-up. A class keeps that laziness without closures per request.
 */
class PreparedRequest implements EvalRequest {
  readonly user: string;
  readonly groups: ReadonlySet<string>;
  readonly ownerUser: string | undefined;
  readonly accessTime: Date;
  readonly resource: Readonly<Record<string, ResourceValue>>;
  readonly elementScopes: Readonly<Record<string, ElementMatchingScope>> | undefined;
  private matchContext: MatchContext | undefined;
  private conditionContext: ConditionContext | undefined;

  constructor(
    private readonly req: AccessRequest,
    readonly roles: ReadonlySet<string>,
    private readonly accessType: string,
    private readonly tags: readonly TagForEval[],
    private readonly userStore: UserStore | null,
    readonly tag: TagForEval | undefined,
    accessTime?: Date,
  ) {
    this.user = req.user;
    this.groups = req.userGroups;
    this.ownerUser = req.ownerUser;
    this.accessTime = accessTime ?? req.accessTime ?? new Date();
    this.resource = req.resource;
    this.elementScopes = req.resourceElementMatchingScopes;
  }

  get match(): MatchContext {
    if (this.matchContext === undefined) {
      const tokens: Record<string, string> = { USER: this.req.user };
      if (this.req.ownerUser !== undefined) tokens.OWNER = this.req.ownerUser;
      this.matchContext = { tokens, resolveExpression: (expr: string) => evaluateRequestExpression(expr, this.condition) };
    }
    return this.matchContext;
  }

  get condition(): ConditionContext {
    if (this.conditionContext === undefined) {
      const req = this.req;
      const userStore = this.userStore;
      const tag = this.tag;
      this.conditionContext = {
        user: req.user,
        userGroups: req.userGroups,
        userRoles: this.roles,
        accessTime: this.accessTime,
        accessType: this.accessType,
        action: req.action,
        requestData: req.requestData,
        clientIPAddress: req.clientIPAddress,
        remoteIPAddress: req.remoteIPAddress,
        forwardedAddresses: req.forwardedAddresses,
        clusterName: req.clusterName,
        clusterType: req.clusterType,
        resource: { elements: toElements(req.resource), ownerUser: req.ownerUser },
        context: req.context ?? {},
        tags: this.tags.map((t) => ({ type: t.type, attributes: t.attributes, matchType: t.matchType })),
        ...(tag ? { currentTag: { type: tag.type, attributes: tag.attributes, matchType: tag.matchType } } : {}),
        // user and group names come from logins and tokens: only the store's own entries, never Object.prototype's members
        userAttributes: userStore ? (u: string) => (Object.hasOwn(userStore.userAttrMapping, u) ? userStore.userAttrMapping[u] : undefined) : undefined,
        groupAttributes: userStore ? (g: string) => (Object.hasOwn(userStore.groupAttrMapping, g) ? userStore.groupAttrMapping[g] : undefined) : undefined,
      };
    }
    return this.conditionContext;
  }

  /** The same request seen through one of its tags (same access time). */
  withTag(tag: TagForEval): PreparedRequest {
    return new PreparedRequest(this.req, this.roles, this.accessType, this.tags, this.userStore, tag, this.accessTime);
  }

  /** The same principal and access asking about another resource (same access time). */
  withResource(resource: Readonly<Record<string, ResourceValue>>): PreparedRequest {
    const req: AccessRequest = { ...this.req, resource };
    delete req.resourceElementMatchingScopes;
    return new PreparedRequest(req, this.roles, this.accessType, this.tags, this.userStore, this.tag, this.accessTime);
  }
}

/** The same request about another resource, e.g. a GDS dataset id. */
export function withResource(req: EvalRequest, resource: Readonly<Record<string, ResourceValue>>): EvalRequest {
  if (req instanceof PreparedRequest) return req.withResource(resource);
  return { ...req, resource, elementScopes: undefined };
}

/** The same request seen through one of its tags, for tag-policy evaluation. */
export function forTag(req: EvalRequest, tag: TagForEval): EvalRequest {
  if (req instanceof PreparedRequest) return req.withTag(tag);
  return { ...req, tag, condition: { ...req.condition, currentTag: { type: tag.type, attributes: tag.attributes, matchType: tag.matchType } } };
}

function toElements(resource: Readonly<Record<string, ResourceValue>>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(resource)) out[k] = typeof v === 'string' ? v : [...v];
  return out;
}
