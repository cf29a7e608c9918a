/**
 * Ranger's audit filters (`ranger.plugin.audit.filters` in a service's config,
 * reference/ranger.md §5): after a decision, the first filter that matches the
 * request and its result decides whether it is audited. Filters of the tag
 * service (matched against the request's tags) come before the resource
 * service's own; a request no filter matches keeps the audit flag the policies
 * gave it.
 *
 * Ranger writes the filter list as lenient JSON with single-quoted strings.
 */
import { z } from 'zod';
import type { EvalRequest } from './evalRequest.js';
import type { MatchType } from './matchers/types.js';
import { ResourceMapSchema, type ServiceDef } from './model.js';
import { type PolicyMatcher, resourcesMatcher } from './resourceMatching.js';
import type { AccessResult, TagForEval } from './request.js';

const AuditFilterSchema = z.object({
  accessResult: z.enum(['ALLOWED', 'DENIED', 'NOT_DETERMINED']).nullish(),
  resources: ResourceMapSchema,
  accessTypes: z.array(z.string()).nullish(),
  actions: z.array(z.string()).nullish(),
  users: z.array(z.string()).nullish(),
  groups: z.array(z.string()).nullish(),
  roles: z.array(z.string()).nullish(),
  isAudited: z.boolean(),
});

/** Rewrites single-quoted JSON strings as double-quoted ones (Gson's lenient reading). */
export function lenientJson(text: string): unknown {
  let out = '';
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') {
        out += c + (text[++i] ?? '');
      } else if (c === quote) {
        out += '"';
        quote = null;
      } else if (c === '"') out += '\\"';
      else out += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      out += '"';
    } else out += c;
  }
  return JSON.parse(out);
}

interface CompiledFilter {
  accessResult: 'ALLOWED' | 'DENIED' | 'NOT_DETERMINED' | null;
  matcher: PolicyMatcher | null;
  accessTypes: ReadonlySet<string> | null;
  actions: ReadonlySet<string> | null;
  users: ReadonlySet<string> | null;
  groups: ReadonlySet<string> | null;
  roles: ReadonlySet<string> | null;
  isAudited: boolean;
}

export class AuditFilters {
  private readonly filters: CompiledFilter[];

  /** Throws on a filter list that does not parse: an audit setting must not be silently dropped. */
  constructor(def: ServiceDef, text: string | undefined) {
    this.filters = [];
    if (!text || text.trim() === '') return;
    const parsed = z.array(AuditFilterSchema).safeParse(lenientJson(text));
    if (!parsed.success) throw new Error(`invalid ranger.plugin.audit.filters: ${parsed.error.issues[0]?.message ?? ''}`);
    for (const f of parsed.data) {
      const set = (v: string[] | null | undefined) => (v && v.length > 0 ? new Set(v) : null);
      this.filters.push({
        accessResult: f.accessResult ?? null,
        matcher: Object.keys(f.resources).length > 0 ? resourcesMatcher(def, [f.resources], 0) : null,
        accessTypes: set(f.accessTypes?.map((t) => t.toLowerCase())),
        actions: set(f.actions),
        users: set(f.users),
        groups: set(f.groups),
        roles: set(f.roles),
        isAudited: f.isAudited,
      });
    }
  }

  get size(): number {
    return this.filters.length;
  }

  /**
   * The audit decision of the first matching filter, or undefined. `resourceMatch`
   * says how a filter's resources relate to the request (for tag filters: whether
   * the request carries the tag).
   */
  decide(
    result: AccessResult,
    ev: EvalRequest,
    accessType: string,
    action: string | undefined,
    resourceMatch: (m: PolicyMatcher) => boolean,
  ): boolean | undefined {
    const outcome = result.isAllowed ? 'ALLOWED' : result.isAccessDetermined ? 'DENIED' : 'NOT_DETERMINED';
    for (const f of this.filters) {
      if (f.accessResult && f.accessResult !== outcome) continue;
      // Given both, access types and actions are alternatives: either one selects the request
      // (test_policyengine_audit_filter_hdfs: listStatus/getfileinfo actions or execute access).
      const byType = f.accessTypes ? f.accessTypes.has(accessType.toLowerCase()) : null;
      const byAction = f.actions ? action !== undefined && f.actions.has(action) : null;
      if (byType === false && byAction !== true) continue;
      if (byAction === false && byType !== true) continue;
      if ((f.users || f.groups || f.roles) && !subjectMatches(f, ev)) continue;
      if (f.matcher && !resourceMatch(f.matcher)) continue;
      return f.isAudited;
    }
    return undefined;
  }
}

function subjectMatches(f: CompiledFilter, ev: EvalRequest): boolean {
  if (f.users?.has(ev.user)) return true;
  if (f.groups) for (const g of ev.groups) if (f.groups.has(g)) return true;
  if (f.roles) for (const r of ev.roles) if (f.roles.has(r)) return true;
  return false;
}

/** A resource filter applies where an access policy with the same resources would. */
export function resourceFilterMatch(ev: EvalRequest, descendantScope: boolean): (m: PolicyMatcher) => boolean {
  return (m) => {
    const t: MatchType = m.getMatchType(ev);
    return t === 'SELF' || t === 'SELF_AND_ALL_DESCENDANTS' || (descendantScope && t === 'DESCENDANT');
  };
}

/** A tag filter applies when the request carries one of its tags. */
export function tagFilterMatch(tags: readonly TagForEval[]): (m: PolicyMatcher) => boolean {
  return (m) => tags.some((t) => m.matchesTag(t.type));
}
