/**
 * Resource hierarchies of a service definition: the chains root → leaf built from `parent`
 * links (hive: database→table→column, database→udf, url, ...). Data-mask and row-filter
 * policies use their own resource defs, each merged over the main def of the same name.
 */
import type { PolicyType, ResourceDefLike, ServiceDefLike } from './types.js';

/** A mask/filter resource def completed from the main one; its own fields and options win. */
function mergeResourceDef(main: ResourceDefLike | undefined, own: ResourceDefLike): ResourceDefLike {
  if (!main) return own;
  const merged: ResourceDefLike = { ...main };
  for (const [k, v] of Object.entries(own)) if (v !== undefined && v !== null) (merged as unknown as Record<string, unknown>)[k] = v;
  if (main.matcherOptions || own.matcherOptions)
    merged.matcherOptions = { ...(main.matcherOptions ?? {}), ...(own.matcherOptions ?? {}) };
  return merged;
}

/**
 * The resource defs a policy of this type is matched with. A mask/filter def without resources
 * falls back to the main resources.
 */
export function resourceDefsFor(serviceDef: ServiceDefLike, policyType: PolicyType = 0): ResourceDefLike[] {
  const main = serviceDef.resources ?? [];
  const own = policyType === 1 ? serviceDef.dataMaskDef?.resources : policyType === 2 ? serviceDef.rowFilterDef?.resources : undefined;
  if (!own || own.length === 0) return main;
  const byName = new Map(main.map((d) => [d.name, d]));
  return own.map((d) => mergeResourceDef(byName.get(d.name), d));
}

const cache = new WeakMap<ServiceDefLike, Map<PolicyType, ResourceDefLike[][]>>();

/** All root → leaf chains of the effective resource defs, roots in level order. */
export function hierarchies(serviceDef: ServiceDefLike, policyType: PolicyType = 0): ResourceDefLike[][] {
  let perType = cache.get(serviceDef);
  if (!perType) cache.set(serviceDef, (perType = new Map()));
  const hit = perType.get(policyType);
  if (hit) return hit;

  const defs = resourceDefsFor(serviceDef, policyType);
  const names = new Set(defs.map((d) => d.name));
  const children = new Map<string, ResourceDefLike[]>();
  const roots: ResourceDefLike[] = [];
  for (const d of defs) {
    if (d.parent && names.has(d.parent)) {
      const list = children.get(d.parent) ?? [];
      list.push(d);
      children.set(d.parent, list);
    } else {
      roots.push(d);
    }
  }
  roots.sort((a, b) => (a.level ?? 0) - (b.level ?? 0));

  const out: ResourceDefLike[][] = [];
  const walk = (d: ResourceDefLike, path: ResourceDefLike[], seen: Set<string>): void => {
    if (seen.has(d.name)) return; // a parent cycle in a malformed def
    const here = [...path, d];
    const kids = children.get(d.name);
    if (!kids || kids.length === 0) {
      out.push(here);
      return;
    }
    const nextSeen = new Set(seen).add(d.name);
    for (const k of kids) walk(k, here, nextSeen);
  };
  for (const r of roots) walk(r, [], new Set());
  perType.set(policyType, out);
  return out;
}

export function hierarchyHasAll(hierarchy: readonly ResourceDefLike[], keys: Iterable<string>): boolean {
  for (const k of keys) if (!hierarchy.some((d) => d.name === k)) return false;
  return true;
}

/** No level is skipped: once a level is absent, no deeper level is present. */
export function isGapFree(hierarchy: readonly ResourceDefLike[], present: (name: string) => boolean): boolean {
  let skipped = false;
  for (const d of hierarchy) {
    if (!present(d.name)) skipped = true;
    else if (skipped) return false;
  }
  return true;
}

/** The shortest chain holding all the keys (Ranger picks the shortest when several fit). */
export function shortestHierarchyWith(all: readonly ResourceDefLike[][], keys: readonly string[]): ResourceDefLike[] | null {
  if (keys.length === 0) return null;
  let best: ResourceDefLike[] | null = null;
  for (const h of all) if (hierarchyHasAll(h, keys) && (best === null || h.length < best.length)) best = h;
  return best;
}
