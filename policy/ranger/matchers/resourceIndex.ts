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

/**
 * One level of one key group. A lookup marks the slots whose values may match the request
 * value in `mark` (stamped per call, so nothing is cleared or allocated) and lists them in
 * `found`; `alwaysFlag` marks slots that are candidates whatever the value.
 */
class LevelIndex {
  private readonly exact = new Map<string, number[]>();
  private readonly prefixes = new StringTrie();
  private readonly suffixes = new StringTrie();
  private hasPrefixes = false;
  private hasSuffixes = false;
  readonly always: number[] = [];
  alwaysFlag = new Uint8Array(0);
  mark = new Uint32Array(0);
  readonly found: number[] = [];
  private stamp = 0;
  private readonly addFound = (id: number): void => {
    if (this.mark[id] !== this.stamp) {
      this.mark[id] = this.stamp;
      this.found.push(id);
    }
  };

  add(slot: number, def: ResourceDefLike | undefined, resource: PolicyResourcesLike[string]): void {
    const hints = def ? createResourceMatcher(def, resource).indexHints() : null;
    if (hints === null) {
      this.always.push(slot);
      return;
    }
    let always = false;
    for (const h of hints) {
      if (h.kind === 'any') {
        always = true;
        continue;
      }
      for (const key of h.keys) {
        if (h.kind === 'exact') {
          const list = this.exact.get(key);
          if (list) list.push(slot);
          else this.exact.set(key, [slot]);
        } else if (h.kind === 'prefix') {
          this.prefixes.insert(key, slot);
          this.hasPrefixes = true;
        } else {
          this.suffixes.insert(reverse(key), slot);
          this.hasSuffixes = true;
        }
      }
    }
    if (always) this.always.push(slot);
  }

  /** Sizes the per-slot arrays once slots were added. */
  prepare(slots: number): void {
    if (this.mark.length === slots) return;
    this.mark = new Uint32Array(slots);
    this.stamp = 0;
    this.alwaysFlag = new Uint8Array(slots);
    for (const s of this.always) this.alwaysFlag[s] = 1;
  }

  lookup(values: readonly string[], stamp: number): void {
    this.stamp = stamp;
    this.found.length = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      this.probe(v);
      // As written and lower-cased: the hint keys carry both forms.
      const lower = v.toLowerCase();
      if (lower !== v) this.probe(lower);
    }
  }

  private probe(f: string): void {
    const list = this.exact.get(f);
    if (list !== undefined) for (let i = 0; i < list.length; i++) this.addFound(list[i]!);
    if (this.hasPrefixes) this.prefixes.forEachPrefixOf(f, this.addFound);
    if (this.hasSuffixes) this.suffixes.forEachPrefixOf(reverse(f), this.addFound);
  }

  /** Found by the last lookup, or a candidate whatever the value. */
  accepts(slot: number): boolean {
    return this.mark[slot] === this.stamp || this.alwaysFlag[slot] === 1;
  }

  get hitCount(): number {
    return this.found.length + this.always.length;
  }
}

class KeyGroup {
  readonly slots: number[] = [];
  readonly levels = new Map<string, LevelIndex>();
  /** The levels in key order, parallel to `keys`. */
  readonly levelList: LevelIndex[] = [];
  constructor(readonly keys: readonly string[]) {
    for (const k of keys) {
      const l = new LevelIndex();
      this.levels.set(k, l);
      this.levelList.push(l);
    }
  }
}

/** Concrete values of a request element, or null for absent / "all values". */
function concreteValues(v: RequestResource[string]): readonly string[] | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v === '' || v === '*' ? null : [v];
  return v as readonly string[];
}

export interface PolicyResourceIndexOptions {
  policyType?: PolicyType;
}

const EMPTY: readonly number[] = [];

export class PolicyResourceIndex<T> {
  private readonly defs: Map<string, ResourceDefLike>;
  private readonly groups = new Map<string, KeyGroup>();
  private groupList: KeyGroup[] = [];
  private readonly entries: T[] = [];
  /** slot → entry: one slot per resource map (main or additional). */
  private readonly slotEntry: number[] = [];
  private prepared = -1;
  private stamp = 0;
  private entryMark = new Uint32Array(0);
  /** Scratch for one lookup: the hit levels of a group. */
  private readonly hitLevels: LevelIndex[] = [];

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

  private prepare(): void {
    if (this.prepared === this.slotEntry.length) return;
    this.prepared = this.slotEntry.length;
    this.groupList = [...this.groups.values()];
    for (const g of this.groupList) for (const l of g.levelList) l.prepare(this.slotEntry.length);
    this.entryMark = new Uint32Array(this.entries.length);
    this.stamp = 0;
  }

  /**
   * The entries that could match `request` (in insertion order). `ctx` is accepted for
   * symmetry with the matchers; dynamic values are always candidates, so it is not consulted.
   */
  candidates(request: RequestResource, _ctx?: MatchContext, elementScopes?: Record<string, ElementScope>): T[] {
    this.prepare();
    // Does the request hold any concrete value (compared with the SELF scope)?
    let anyConcrete = false;
    for (const k in request) {
      const v = request[k];
      if (v !== null && v !== undefined && concreteValues(v) !== null && (elementScopes?.[k] ?? 'SELF') === 'SELF') {
        anyConcrete = true;
        break;
      }
    }
    if (!anyConcrete) return [...this.entries];
    if (++this.stamp === 0xffffffff) {
      this.entryMark.fill(0);
      for (const g of this.groupList) for (const l of g.levelList) l.mark.fill(0);
      this.stamp = 1;
    }
    const stamp = this.stamp;
    const hitEntries: number[] = [];
    const hit = (slot: number): void => {
      const e = this.slotEntry[slot]!;
      if (this.entryMark[e] !== stamp) {
        this.entryMark[e] = stamp;
        hitEntries.push(e);
      }
    };

    for (const group of this.groupList) {
      const levels = this.hitLevels;
      levels.length = 0;
      let allValuesOnly = group.keys.length > 0;
      for (let i = 0; i < group.keys.length; i++) {
        const k = group.keys[i]!;
        const v = request[k];
        const values = v === null || v === undefined ? null : concreteValues(v);
        if (values !== null && (elementScopes?.[k] ?? 'SELF') === 'SELF') {
          const level = group.levelList[i]!;
          level.lookup(values, stamp);
          levels.push(level);
        } else if (v === null || v === undefined) allValuesOnly = false;
      }
      if (levels.length === 0) {
        // No concrete level: a candidate only when every key of the group asks for all values.
        if (allValuesOnly) for (const s of group.slots) hit(s);
        continue;
      }
      // Walk the smallest level's hits and keep slots every other level accepts too.
      let first = levels[0]!;
      for (const l of levels) if (l.hitCount < first.hitCount) first = l;
      const accept = (slot: number): void => {
        for (const l of levels) if (l !== first && !l.accepts(slot)) return;
        hit(slot);
      };
      for (const s of first.found) accept(s);
      for (const s of first.always.length > 0 ? first.always : EMPTY) accept(s);
    }
    hitEntries.sort((a, b) => a - b);
    const out: T[] = new Array(hitEntries.length);
    for (let i = 0; i < hitEntries.length; i++) out[i] = this.entries[hitEntries[i]!]!;
    return out;
  }
}
