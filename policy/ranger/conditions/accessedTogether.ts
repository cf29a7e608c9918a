/**
 * Hive's `accessed-together` / `not-accessed-together` conditions
 * (RangerHiveResourcesAccessedTogetherCondition / …NotAccessedTogetherCondition), re-derived.
 *
 * Each value is `db`, `db.table` or `db.table.column` (`*`/`?` wildcards, case-insensitive as
 * Hive's resource matchers are); missing levels are `*`. The request context's
 * REQUESTED_RESOURCES lists everything one statement touches. Counting matches over every
 * (requested resource, value) pair — one resource matching two values counts twice — the
 * resources are "accessed together" when there are at least two matches among at least two
 * requested resources.
 *  - accessed-together passes when REQUESTED_RESOURCES is present and they are accessed together;
 *  - not-accessed-together passes when REQUESTED_RESOURCES is absent or they are not.
 * With no usable value, both pass (Ranger: "will NOT be enforced").
 */
import type { ConditionTest } from './context.js';

type Elements = Readonly<Record<string, string | readonly string[]>>;

const LEVELS = ['database', 'table', 'column'] as const;

/** Reads REQUESTED_RESOURCES in any of the shapes it arrives in (see ConditionContext.context). */
export function readRequestedResources(raw: unknown): Elements[] | undefined {
  let v = raw;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      return undefined;
    }
  }
  if (v && typeof v === 'object' && !Array.isArray(v) && 'requestedResources' in v) v = (v as { requestedResources: unknown }).requestedResources;
  if (!Array.isArray(v)) return undefined;
  return v
    .filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object')
    .map((r) => ('elements' in r && r.elements && typeof r.elements === 'object' ? r.elements : r) as Elements);
}

function wildcardRegex(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'is');
}

type ResourceTest = (r: Elements) => boolean;

function specMatcher(spec: string): ResourceTest | undefined {
  const parts = spec.trim().split('.').filter((p) => p !== '');
  if (parts.length === 0 || parts.length > 3) return undefined;
  const patterns = LEVELS.map((_, i) => parts[i] ?? '*');
  const regexes = patterns.map(wildcardRegex);
  return (r) =>
    LEVELS.every((level, i) => {
      const value = r[level];
      if (value === undefined || value === null || value === '') return patterns[i] === '*';
      const values = typeof value === 'string' ? [value] : value;
      return values.some((x) => regexes[i]!.test(x));
    });
}

function accessedTogether(matchers: readonly ResourceTest[], resources: readonly Elements[]): boolean {
  if (resources.length < 2) return false;
  let matches = 0;
  for (const r of resources) for (const m of matchers) if (m(r)) matches++;
  return matches >= 2;
}

export function accessedTogetherTest(values: readonly string[] | null | undefined, together: boolean): ConditionTest {
  const matchers = (values ?? []).map(specMatcher).filter((m): m is ResourceTest => m !== undefined);
  if (matchers.length === 0) return () => true;
  return (ctx) => {
    const resources = readRequestedResources(ctx.context.REQUESTED_RESOURCES);
    if (together) return resources !== undefined && accessedTogether(matchers, resources);
    return resources === undefined || !accessedTogether(matchers, resources);
  };
}
