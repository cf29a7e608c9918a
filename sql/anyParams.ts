/**
 * Parameters PostgreSQL cannot type. An argument of a function declared `"any"`
 * (json_build_object, concat …) or polymorphic (to_json's anyelement) gives a bare
 * parameter no type: PostgreSQL refuses such a statement at Parse unless the client
 * declared the type (42P18 "could not determine data type of parameter $n", 42804 for a
 * polymorphic argument). lakegate's engine would otherwise type such a parameter as
 * text, answering where PostgreSQL errors.
 */
import { names, walk } from './walk.js';

/** Functions whose every argument is `"any"` (pg_proc provariadic "any"). */
const ANY_ARGS: ReadonlySet<string> = new Set([
  'json_build_object', 'jsonb_build_object', 'json_build_array', 'jsonb_build_array', 'json_object_agg', 'jsonb_object_agg', 'concat',
]);
/** Functions with one polymorphic argument (anyelement). */
const POLYMORPHIC_ARG: ReadonlySet<string> = new Set(['to_json', 'to_jsonb']);

export type UntypableKind = 'any' | 'polymorphic';

/**
 * Parameter number → why PostgreSQL cannot type it, for each parameter that stands only
 * bare as such an argument (one used anywhere else is typed there).
 */
export function untypableParams(root: unknown): Map<number, UntypableKind> {
  const out = new Map<number, UntypableKind>();
  const bare = new Set<unknown>();
  const all: number[] = [];
  walk(root, (v) => {
    if (v.kind === 'ParamRef') {
      if (!bare.has(v.fields)) all.push(v.fields['number'] as number);
      return;
    }
    if (v.kind !== 'FuncCall') return;
    const fn = names(v.fields['funcname']);
    const name = fn.length === 1 || (fn.length === 2 && fn[0] === 'pg_catalog') ? fn[fn.length - 1]!.toLowerCase() : undefined;
    const kind: UntypableKind | undefined = name && ANY_ARGS.has(name) ? 'any' : name && POLYMORPHIC_ARG.has(name) ? 'polymorphic' : undefined;
    if (!kind) return;
    for (const a of (v.fields['args'] as unknown[] | undefined) ?? []) {
      const p = (a as { ParamRef?: { number?: number } } | undefined)?.ParamRef;
      if (p && typeof p.number === 'number') {
        bare.add(p);
        if (!out.has(p.number)) out.set(p.number, kind);
      }
    }
  });
  for (const n of all) out.delete(n);
  return out;
}
