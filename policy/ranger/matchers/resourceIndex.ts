/**
 * A prefilter over many policies of one service def and policy type: `candidates(request)`
 * returns every entry whose resources could match the request with any match type (SELF,
 * ANCESTOR, DESCENDANT, ...) — a superset, never missing one — and few others, so evaluation
 * cost stays near flat as policies grow. Exact decisions stay with the policy resource matcher.
 *
 * Why it is safe (reference §3): a request with at least one concrete value at a level (a string
 * other than "", "*", or a list, compared with the SELF element scope) can only match a policy
 * resource map that either has a matcher at that level which accepts the value, or has no key
 * at any concrete level and all of its keys among the request's "all values" levels (a
 * policy {database:*} and a request {database:*, table:t}). Entries are grouped by their key set;
 * per group and level, values are indexed as exact keys, prefix / suffix tries, or an
 * "always a candidate" list (excludes, match-any, dynamic values, mid-pattern wildcards).
 */
import type { ElementScope, MatchContext, PolicyResourcesLike, PolicyType, RequestResource, ResourceDefLike, ServiceDefLike } from './types.js';
import { createResourceMatcher } from './resourceMatcher.js';
import { resourceDefsFor } from './hierarchy.js';
import { StringTrie, reverse } from './stringTrie.js';

/** The entries one level of one group could match for a request value. */
interface LevelHits {
  always: ReadonlySet<number>;
  found: Set<number>;
}

class LevelIndex {
  private readonly exact = new Map<string, number[]>();
  private readonly prefixes = new StringTrie();
  private readonly suffixes = new StringTrie();
  readonly always = new Set<number>();

  add(slot: number, def: ResourceDefLike | undefined, resource: PolicyResourcesLike[string]): void {
    const hints = def ? createResourceMatcher(def, resource).indexHints() : null;
    if (hints === null) {
      this.always.add(slot);
      return;
    }
    for (const h of hints) {
      if (h.kind === 'any') {
        this.always.add(slot);
        continue;
      }
      for (const key of h.keys) {
        if (h.kind === 'exact') {
          const list = this.exact.get(key);
          if (list) list.push(slot);
          else this.exact.set(key, [slot]);
        } else if (h.kind === 'prefix') this.prefixes.insert(key, slot);
        else this.suffixes.insert(reverse(key), slot);
      }
    }
  }

  lookup(values: readonly string[]): LevelHits {
    const found = new Set<number>();
    const add = (id: number) => found.add(id);
    for (const v of values) {
      // As written and lower-cased: the hint keys carry both forms.
      const forms = v.toLowerCase() === v ? [v] : [v, v.toLowerCase()];
      for (const f of forms) {
        for (const id of this.exact.get(f) ?? []) found.add(id);
        this.prefixes.forEachPrefixOf(f, add);
        this.suffixes.forEachPrefixOf(reverse(f), add);
      }
    }
    return { always: this.always, found };
  }
}

class KeyGroup {
  readonly slots: number[] = [];
  readonly levels = new Map<string, LevelIndex>();
  constructor(readonly keys: readonly string[]) {
    for (const k of keys) this.levels.set(k, new LevelIndex());
  }
}

function concreteValues(v: RequestResource[string]): readonly string[] | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v === '' || v === '*' ? null : [v];
  return v as readonly string[];
}

export interface PolicyResourceIndexOptions {
  policyType?: PolicyType;
}

export class PolicyResourceIndex<T> {
  private readonly defs: Map<string, ResourceDefLike>;
  private readonly groups = new Map<string, KeyGroup>();
  private readonly entries: T[] = [];
  /** slot → entry: one slot per resource map (main or additional). */
  private readonly slotEntry: number[] = [];

  constructor(serviceDef: ServiceDefLike, opts: PolicyResourceIndexOptions = {}) {
    this.defs = new Map(resourceDefsFor(serviceDef, opts.policyType ?? 0).map((d) => [d.name, d]));
  }

  get size(): number {
    return this.entries.length;
  }

  /** Adds an entry applying where its main map or any additional map matches. */
  add(resources: PolicyResourcesLike | readonly PolicyResourcesLike[], value: T): void {
    const entry = this.entries.push(value) - 1;
    const maps = Array.isArray(resources) ? (resources as readonly PolicyResourcesLike[]) : [resources as PolicyResourcesLike];
    for (const map of maps) {
      const slot = this.slotEntry.push(entry) - 1;
      const keys = Object.keys(map).sort();
      const signature = keys.join('\u0000');
      let group = this.groups.get(signature);
      if (!group) this.groups.set(signature, (group = new KeyGroup(keys)));
      group.slots.push(slot);
      for (const k of keys) group.levels.get(k)!.add(slot, this.defs.get(k), map[k]);
    }
  }

  /**
   * The entries that could match `request` (in insertion order). `ctx` is accepted for
   * symmetry with the matchers; dynamic values are always candidates, so it is not consulted.
   */
  candidates(request: RequestResource, _ctx?: MatchContext, elementScopes?: Record<string, ElementScope>): T[] {
    const present = Object.keys(request).filter((k) => request[k] !== null && request[k] !== undefined);
    const concrete = new Map<string, readonly string[]>();
    for (const k of present) {
      const values = concreteValues(request[k]);
      if (values && (elementScopes?.[k] ?? 'SELF') === 'SELF') concrete.set(k, values);
    }
    if (concrete.size === 0) return [...this.entries];
    const allValuesKeys = new Set(present.filter((k) => !concrete.has(k)));

    const hitEntries = new Set<number>();
    for (const group of this.groups.values()) {
      const levels = group.keys.filter((k) => concrete.has(k));
      if (levels.length === 0) {
        if (group.keys.length > 0 && group.keys.every((k) => allValuesKeys.has(k)))
          for (const s of group.slots) hitEntries.add(this.slotEntry[s]!);
        continue;
      }
      const hits = levels.map((k) => group.levels.get(k)!.lookup(concrete.get(k)!));
      // Walk the smallest level's hits and keep slots every other level accepts too.
      hits.sort((a, b) => a.always.size + a.found.size - (b.always.size + b.found.size));
      const [first, ...rest] = hits;
      const accept = (slot: number) => {
        if (rest.every((h) => h.found.has(slot) || h.always.has(slot))) hitEntries.add(this.slotEntry[slot]!);
      };
      first!.found.forEach(accept);
      first!.always.forEach(accept);
    }
    return [...hitEntries].sort((a, b) => a - b).map((e) => this.entries[e]!);
  }
}
