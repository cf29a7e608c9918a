/**
 * Ranger resource names ("table:mydb/tbl1", "namespace:POLARIS/cat/ns") and the
 * resource maps they stand for, read the way Ranger's authz-embedded reads them
 * (RangerAuthzPlugin + RangerResourceNameParser): the part before the first `:`
 * names the leaf resource; the rest is split at `/` onto the chain of resources
 * from the top of the hierarchy down to that leaf. The last element takes
 * whatever is left, `/` included, and `\` makes the next character literal.
 *
 * Polaris (and any other caller) relies on exactly this reading, quirks and all:
 * a nested namespace `a.b` sent as `namespace:R/cat/a/b` becomes namespace "a/b",
 * while a table in it, `table:R/cat/a/b/t`, becomes namespace "a", table "b/t".
 */
import type { ServiceDef } from './model.js';

export class ResourceNameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResourceNameError';
  }
}

const TYPE_SEP = ':';
const SEP = '/';
const ESCAPE = '\\';

/**
 * The resources a name of this type lists, top first (Ranger's rrn template):
 * the resource itself and its ancestors by `parent`. Null for an unknown type.
 */
export function resourceTemplate(def: ServiceDef, resourceType: string): string[] | null {
  const byName = new Map(def.resources.map((r) => [r.name, r]));
  const chain: string[] = [];
  let cur = byName.get(resourceType);
  if (!cur) return null;
  while (cur) {
    if (chain.includes(cur.name)) throw new ResourceNameError(`service def ${def.name ?? ''}: resource parents form a cycle at ${cur.name}`);
    chain.unshift(cur.name);
    cur = cur.parent ? byName.get(cur.parent) : undefined;
  }
  return chain;
}

/** Splits a value onto the template: all but the last element end at an unescaped `/`. */
export function splitOnTemplate(value: string, template: readonly string[]): string[] {
  if (value.trim() === '') throw new ResourceNameError('empty resource value');
  const out: string[] = [];
  let token = '';
  let escaped = false;
  for (const c of value) {
    if (c === ESCAPE && !escaped) {
      escaped = true;
      continue;
    }
    if (c === SEP && !escaped && out.length < template.length - 1) {
      out.push(token);
      token = '';
      continue;
    }
    token += c;
    escaped = false;
  }
  out.push(token);
  if (out.length !== template.length)
    throw new ResourceNameError(`resource value "${value}" does not fill the template ${template.join(SEP)}`);
  return out;
}

/** `type:v1/v2/…` → `{res1: v1, res2: v2, …}` against the service def's hierarchy. */
export function parseResourceName(def: ServiceDef, name: string): { resourceType: string; resource: Record<string, string> } {
  const at = name.indexOf(TYPE_SEP);
  const resourceType = at < 0 ? name : name.slice(0, at);
  const value = at < 0 ? '' : name.slice(at + 1);
  const template = resourceTemplate(def, resourceType);
  if (!template) throw new ResourceNameError(`resource type "${resourceType}" is not in service def ${def.name ?? ''}`);
  const values = splitOnTemplate(value, template);
  const resource: Record<string, string> = {};
  template.forEach((res, i) => (resource[res] = values[i]!));
  return { resourceType, resource };
}

/**
 * The resource as a `/`-joined path in hierarchy order (Ranger's
 * RangerAccessResource.getAsString, what audit records show as the resource).
 */
export function resourcePath(def: ServiceDef, resource: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  for (const r of [...def.resources].sort((a, b) => (a.level ?? 0) - (b.level ?? 0))) {
    const v = resource[r.name];
    if (v === undefined || v === null) continue;
    parts.push(Array.isArray(v) ? v.join(',') : String(v));
  }
  return parts.join(SEP);
}

/** The deepest resource the request names (the audit record's resource type). */
export function leafResourceType(def: ServiceDef, resource: Readonly<Record<string, unknown>>): string | null {
  let best: { name: string; level: number } | null = null;
  for (const r of def.resources)
    if (resource[r.name] !== undefined && (best === null || (r.level ?? 0) > best.level)) best = { name: r.name, level: r.level ?? 0 };
  return best?.name ?? null;
}
