/**
 * What a service definition says about access types: the names a `_any` request
 * stands for, and which types an item's grant implies (reference/ranger.md §4.3).
 *
 * Ranger expands implied grants one level only, from the def's own `impliedGrants`
 * plus the marker types (`_READ`, `_ALL`, …) that group types by category; names
 * compare case-insensitively, so everything here is lower-cased once.
 */
import type { AccessTypeDef, ServiceDef } from './model.js';

export const ANY_ACCESS = '_any';
export const ADMIN_ACCESS = '_admin';
export const SUPER_USER_ACCESS = '_super_user';

const MARKER_CATEGORIES: readonly [string, string][] = [
  ['_CREATE', 'CREATE'],
  ['_READ', 'READ'],
  ['_UPDATE', 'UPDATE'],
  ['_DELETE', 'DELETE'],
  ['_MANAGE', 'MANAGE'],
];

/** Marker types as Ranger derives them when the def does not list its own. */
function derivedMarkers(accessTypes: readonly AccessTypeDef[]): { name: string; impliedGrants: string[] }[] {
  const out = MARKER_CATEGORIES.map(([name, category]) => ({
    name,
    impliedGrants: accessTypes.filter((a) => a.category?.toUpperCase() === category).map((a) => a.name),
  })).filter((m) => m.impliedGrants.length > 0);
  if (accessTypes.length > 0) out.push({ name: '_ALL', impliedGrants: accessTypes.map((a) => a.name) });
  return out;
}

export class AccessTypes {
  /** Lower-cased names of the def's access types, in def order (what `_any` expands to). */
  readonly all: readonly string[];
  private readonly implied = new Map<string, readonly string[]>();

  constructor(accessTypes: readonly AccessTypeDef[], markerAccessTypes: readonly AccessTypeDef[]) {
    this.all = accessTypes.map((a) => a.name.toLowerCase());
    const markers = markerAccessTypes.length > 0 ? markerAccessTypes : derivedMarkers(accessTypes);
    for (const a of [...accessTypes, ...markers]) {
      if (a.impliedGrants.length === 0) continue;
      const key = a.name.toLowerCase();
      const prev = this.implied.get(key) ?? [];
      this.implied.set(key, [...new Set([...prev, ...a.impliedGrants.map((g) => g.toLowerCase())])]);
    }
  }

  static of(def: ServiceDef): AccessTypes {
    return new AccessTypes(def.accessTypes, def.markerAccessTypes);
  }

  /** The allowed access names of an item after one level of implied-grant expansion. */
  expand(granted: Iterable<string>): Set<string> {
    const out = new Set<string>();
    for (const g of granted) {
      const name = g.toLowerCase();
      out.add(name);
      for (const i of this.implied.get(name) ?? []) out.add(i);
    }
    return out;
  }
}

/**
 * Tag policies name access types as `component:type` (`hive:select`). For one
 * component Ranger strips its prefix and drops the other components' types.
 * Returns null for a type that belongs to another component.
 */
export function accessTypeForComponent(name: string, component: string): string | null {
  const i = name.indexOf(':');
  if (i < 0) return name;
  return name.slice(0, i).toLowerCase() === component.toLowerCase() ? name.slice(i + 1) : null;
}
