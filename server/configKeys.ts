/**
 * Unknown keys in a configuration, at every level, each with the known key it was
 * probably meant to be. A misspelled security setting (`requireTLS`, `maskkey`) that
 * zod dropped would be silently off; this names it instead.
 *
 * Walks the schema beside the input, so every section is covered however it is
 * nested (defaults, optionals, transforms, unions of sources); records and
 * free-form values (settings, headers) take any key.
 */
import type { z } from 'zod';

export interface UnknownKey {
  /** Where, as `dataGate.maskkey` (array items by index). */
  path: string;
  key: string;
  /** The known key at that level it is closest to, if any is close. */
  suggestion: string | null;
}

/** What zod keeps in `_zod.def`, as far as this walk needs it. */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  discriminator?: string;
  element?: z.ZodType;
  getter?: () => z.ZodType;
}

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function unknownKeys(schema: z.ZodType, input: unknown): UnknownKey[] {
  const out: UnknownKey[] = [];
  walk(schema, input, [], out);
  return out;
}

function walk(schema: z.ZodType, value: unknown, path: string[], out: UnknownKey[]): void {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      if (def.innerType) walk(def.innerType, value, path, out);
      return;
    case 'pipe':
      if (def.in) walk(def.in, value, path, out);
      return;
    case 'lazy':
      if (def.getter) walk(def.getter(), value, path, out);
      return;
    case 'array':
      if (def.element && Array.isArray(value)) value.forEach((v, i) => walk(def.element!, v, [...path, String(i)], out));
      return;
    case 'union':
      walkUnion(def, value, path, out);
      return;
    case 'object': {
      if (!isPlainObject(value) || !def.shape) return;
      const shape = def.shape;
      const known = Object.keys(shape);
      // A catch-all (passthrough / a schema for extra keys) takes any key on purpose.
      const open = def.catchall !== undefined && defOf(def.catchall).type !== 'never';
      for (const [key, v] of Object.entries(value)) {
        if (Object.hasOwn(shape, key)) walk(shape[key]!, v, [...path, key], out);
        else if (!open) out.push({ path: [...path, key].join('.'), key, suggestion: closest(key, known) });
      }
      return;
    }
    default:
      // records, scalars, enums, literals: any key (or none) is the schema's own business.
      return;
  }
}

/** A source is one of several shapes: the one its discriminator names, else the one the input fits best. */
function walkUnion(def: Def, value: unknown, path: string[], out: UnknownKey[]): void {
  const options = def.options ?? [];
  if (!isPlainObject(value)) return;
  if (def.discriminator !== undefined) {
    const tag = value[def.discriminator];
    const chosen = options.find((o) => discriminatorValues(o, def.discriminator!).includes(tag));
    if (chosen) walk(chosen, value, path, out);
    return; // no option fits: zod reports the discriminator itself
  }
  let best: UnknownKey[] | null = null;
  for (const o of options) {
    const found: UnknownKey[] = [];
    walk(o, value, path, found);
    if (best === null || found.length < best.length) best = found;
  }
  if (best) out.push(...best);
}

function discriminatorValues(option: z.ZodType, key: string): unknown[] {
  let s: z.ZodType | undefined = option;
  while (s && defOf(s).type !== 'object') s = defOf(s).innerType ?? defOf(s).in;
  const field = s ? defOf(s).shape?.[key] : undefined;
  if (!field) return [];
  const d = defOf(field) as Def & { values?: unknown[] };
  return d.values ?? [];
}

/** The known key meant: the same but for case, else at most two edits away (the nearest; none on a tie). */
export function closest(key: string, known: readonly string[]): string | null {
  const folded = known.filter((k) => k.toLowerCase() === key.toLowerCase());
  if (folded.length === 1) return folded[0]!;
  let best: string | null = null;
  let bestDistance = 3;
  let tie = false;
  for (const k of known) {
    const d = levenshtein(key.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance) tie = true;
  }
  return best !== null && !tie ? best : null;
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

export function describeUnknownKey(u: UnknownKey): string {
  return `${u.path}: unknown key${u.suggestion ? ` (did you mean "${u.suggestion}"?)` : ''}`;
}
