/**
 * Tags attached to a requested resource (Ranger's RangerTagEnricher): each tagged
 * service resource is matched like a policy resource; a tag attaches when it sits
 * on the resource itself or above it, and also below it for `_any` requests
 * (reference/ranger.md §8). Each attached tag keeps how it matched.
 */
import { isTagValidAt, toAttachedTag } from './conditions/tagValidity.js';
import type { ServiceDef, ServiceTags } from './model.js';
import { type PolicyMatcher, resourcesMatcher } from './resourceMatching.js';
import type { ElementMatchingScope, ResourceValue, TagForEval } from './request.js';

interface TaggedResource {
  matcher: PolicyMatcher;
  tags: TagForEval[];
}

export class TagStore {
  private readonly resources: TaggedResource[] = [];

  constructor(def: ServiceDef, serviceTags: ServiceTags) {
    for (const sr of serviceTags.serviceResources) {
      const tags: TagForEval[] = [];
      for (const id of serviceTags.resourceToTagIds[String(sr.id)] ?? []) {
        const tag = serviceTags.tags[String(id)];
        if (!tag) continue;
        const attached = toAttachedTag({ type: tag.type, attributes: tag.attributes, options: tag.options, validityPeriods: tag.validityPeriods as never });
        tags.push({ type: attached.type, attributes: { ...attached.attributes }, matchType: 'SELF', ...(attached.validityPeriods ? { validityPeriods: [...attached.validityPeriods] } : {}) });
      }
      if (tags.length === 0) continue;
      this.resources.push({ matcher: resourcesMatcher(def, [sr.resourceElements], 0), tags });
    }
  }

  /** Some tag carries validity periods: which tags attach depends on the time. */
  get hasValidityPeriods(): boolean {
    return this.resources.some((r) => r.tags.some((t) => (t.validityPeriods?.length ?? 0) > 0));
  }

  tagsFor(
    resource: Readonly<Record<string, ResourceValue>>,
    descendantsToo: boolean,
    user: string,
    ownerUser?: string,
    elementScopes?: Readonly<Record<string, ElementMatchingScope>>,
  ): TagForEval[] {
    const out: TagForEval[] = [];
    const req = { resource, match: { tokens: { USER: user, ...(ownerUser !== undefined ? { OWNER: ownerUser } : {}) } }, elementScopes };
    // Ranger keeps a request's tags in a set: one tag carried by several matching
    // resources, with the same match, attaches once.
    const seen = new Set<string>();
    for (const r of this.resources) {
      const t = r.matcher.getMatchType(req);
      if (t === 'NONE' || (t === 'DESCENDANT' && !descendantsToo)) continue;
      for (const tag of r.tags) {
        const key = `${tag.type}\u0000${t}\u0000${JSON.stringify(tag.attributes)}\u0000${JSON.stringify(tag.validityPeriods ?? null)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ ...tag, matchType: t });
      }
    }
    return out;
  }

}

/** An expired tag is not attached; an unreadable validity period counts as expired. */
export function tagIsValid(tag: TagForEval, at: Date, localTimeZone?: string): boolean {
  if (!tag.validityPeriods || tag.validityPeriods.length === 0) return true;
  try {
    return isTagValidAt({ type: tag.type, attributes: tag.attributes, validityPeriods: tag.validityPeriods as never }, at, localTimeZone ? { localTimeZone } : {});
  } catch {
    return false;
  }
}
