/**
 * The policies SHOW GRANTS shows a user who is not an administrator: only
 * about what that user may load, through the catalog gate as that user, so a
 * table the catalog hides from the asker is never named — it reads like a
 * table that does not exist.
 *
 * Each resource value is kept where it covers (as Ranger matches polaris
 * resources: wildcards on, case-insensitive) a namespace, table or view the
 * asker may load; a policy left with no value in a slot is left out, and so is
 * one whose excluded values are not all visible (the exclusion would name
 * them). `*` covers everything and is kept. Another pattern is kept only where
 * it covers something the asker may load, so every character it shows is in a
 * name the asker sees. A policy on another catalog is left out: only the
 * connected catalog is asked. Principal resources are not catalog objects and
 * are kept as they are, as are the policy names under a visible namespace.
 */
import { wildcardMatch } from '../ranger/matchers/wildcard.js';
import type { Json } from './merge.js';
import type { CatalogAsker, LoadableObjects, LoadableRelation } from './objects.js';

interface Slot {
  values?: string[];
  isExcludes?: boolean;
  isRecursive?: boolean;
}
type Resources = Record<string, Slot>;

const hasWildcard = (v: string) => /[*?]/.test(v);
const isMatchAny = (v: string) => /^\*+$/.test(v);
/** Ranger's default matcher, as the polaris service def uses it: wildcards on, case-insensitive. */
const covers = (value: string, name: string) => wildcardMatch(name.toLowerCase(), value.toLowerCase());

/** The asker's view, each part asked once per statement. */
class Sight {
  private namespaceList?: Promise<string[][]>;
  private relationList?: Promise<LoadableRelation[]>;
  private readonly relationLoads = new Map<string, Promise<boolean>>();

  constructor(
    private readonly asker: CatalogAsker,
    private readonly objects: LoadableObjects,
  ) {}

  namespaces(): Promise<string[][]> {
    return (this.namespaceList ??= this.objects.namespaces(this.asker));
  }
  relations(): Promise<LoadableRelation[]> {
    return (this.relationList ??= this.objects.relations(this.asker));
  }
  loads(namespace: string[], name: string): Promise<boolean> {
    const key = JSON.stringify([namespace, name]);
    let p = this.relationLoads.get(key);
    if (!p) {
      p = this.objects.relation(this.asker, namespace, name).then((r) => r !== null);
      this.relationLoads.set(key, p);
    }
    return p;
  }
}

export async function visiblePolicies(policies: readonly Json[], catalog: string, asker: CatalogAsker, objects: LoadableObjects): Promise<Json[]> {
  const sight = new Sight(asker, objects);
  const out: Json[] = [];
  for (const p of policies) {
    const resources = await visibleResources((p['resources'] ?? {}) as Resources, catalog, sight);
    if (resources) out.push({ ...p, resources });
  }
  return out;
}

async function visibleResources(r: Resources, catalog: string, sight: Sight): Promise<Resources | null> {
  if (r['principal']) return r;
  const out: Resources = { ...r };
  const valuesOf = (key: string) => (out[key]?.values ?? []).filter((v) => v !== '');
  /** Keeps the slot's visible values; false when the policy must be left out. */
  const narrow = async (key: string, visible: (value: string) => boolean | Promise<boolean>): Promise<boolean> => {
    const slot = r[key];
    const all = valuesOf(key);
    if (!slot || all.length === 0) return true; // no values: match-any
    const kept: string[] = [];
    for (const v of all) if (isMatchAny(v) || (await visible(v))) kept.push(v);
    if (kept.length === 0 || (slot.isExcludes === true && kept.length < all.length)) return false;
    out[key] = { ...slot, values: kept };
    return true;
  };

  if (!(await narrow('catalog', (v) => covers(v, catalog)))) return null;
  if (!r['namespace']) return out;
  const namespaces = await sight.namespaces();
  if (!r['table'] && !r['policy']) {
    // a namespace-level policy: the slot holds the whole path (a/b)
    return (await narrow('namespace', (v) => namespaces.some((n) => covers(v, n.join('/'))))) ? out : null;
  }
  // below a namespace the slot holds its first level; the table slot the rest of the path and the name
  if (!(await narrow('namespace', (v) => namespaces.some((n) => covers(v, n[0]!) || covers(v, n.join('/')))))) return null;
  if (!r['table']) return out;
  const nsValues = valuesOf('namespace');
  const inNamespaces = nsValues.length === 0 ? ['*'] : nsValues;
  const tableVisible = async (t: string): Promise<boolean> => {
    if (!hasWildcard(t) && inNamespaces.every((n) => !hasWildcard(n))) {
      // names only: asked as a SELECT would ask (also a table the catalog loads but does not list)
      for (const n of inNamespaces) {
        const path = [n, ...t.split('/')];
        if (await sight.loads(path.slice(0, -1), path[path.length - 1]!)) return true;
      }
      return false;
    }
    return (await sight.relations()).some(
      (rel) => inNamespaces.some((n) => covers(n, rel.namespace[0]!)) && covers(t, [...rel.namespace.slice(1), rel.name].join('/')),
    );
  };
  return (await narrow('table', tableVisible)) ? out : null;
}
