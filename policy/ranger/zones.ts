/**
 * Security zones: which zone a requested resource lies in (reference/ranger.md
 * §4.2 step 6). A resource is in a zone when one of the zone's resource maps
 * covers it, at its own level or above it.
 */
import type { PolicyMatcher } from './resourceMatching.js';
import { resourcesMatcher } from './resourceMatching.js';
import type { ResourceMap, SecurityZone, ServiceDef } from './model.js';
import type { ResourceValue } from './request.js';

export class ZoneMatcher {
  private readonly zones: { name: string; matchers: PolicyMatcher[] }[] = [];

  constructor(def: ServiceDef, zones: Readonly<Record<string, SecurityZone>>) {
    for (const [name, zone] of Object.entries(zones)) {
      const matchers = zone.resources.map((r) => {
        const map: ResourceMap = {};
        for (const [res, values] of Object.entries(r)) {
          const rd = def.resources.find((d) => d.name === res);
          map[res] = { values, isExcludes: false, isRecursive: rd?.recursiveSupported === true };
        }
        return resourcesMatcher(def, [map], 0);
      });
      this.zones.push({ name, matchers });
    }
  }

  /** Names of the zones the resource belongs to; `_any` also counts zones below it. */
  zonesFor(resource: Readonly<Record<string, ResourceValue>>, isAny: boolean): string[] {
    const out: string[] = [];
    const req = { resource, match: {}, elementScopes: undefined };
    for (const z of this.zones) {
      const hit = z.matchers.some((m) => {
        const t = m.getMatchType(req);
        return t === 'SELF' || t === 'SELF_AND_ALL_DESCENDANTS' || t === 'ANCESTOR' || (isAny && t === 'DESCENDANT');
      });
      if (hit) out.push(z.name);
    }
    return out;
  }
}
