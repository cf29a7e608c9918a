/**
 * What a statement needs from the catalog before it can be planned. The
 * catalog is asked asynchronously (Polaris, with the user's token) and the
 * planner is synchronous, so the server first collects the names here, loads
 * them as the user, and then plans over that snapshot. The walk mirrors
 * resolve.ts: a name that reaches a CTE is not a catalog name; a reg* literal
 * and the table argument of to_regclass / has_*_privilege name relations too.
 */
import { EMULATED_FUNCTIONS, INFORMATION_SCHEMA_RELATIONS, PG_CATALOG_RELATIONS } from './emulation.js';
import { splitQualifiedName } from './regTypes.js';
import { ctesInScope, effectiveSearchPath } from './resolve.js';
import { constText, names, walk } from './walk.js';
import { ownTable } from './ownNames.js';

export interface RelationName {
  catalog?: string;
  schema?: string;
  name: string;
}

export interface CatalogNeeds {
  /** relation names as written (resolved against the search path by `candidates`) */
  relations: RelationName[];
  /**
   * The statement reads the catalog emulation (pg_class, information_schema …
   * or a function over them): it needs every relation the user may load.
   */
  listing: boolean;
}

/** Functions whose argument at this index names a relation when it is a string constant. */
export const RELATION_ARGUMENT: Readonly<Record<string, (argc: number) => number | undefined>> = ownTable({
  to_regclass: (n) => (n === 1 ? 0 : undefined),
  has_table_privilege: (n) => (n === 2 ? 0 : n === 3 ? 1 : undefined),
  has_any_column_privilege: (n) => (n === 2 ? 0 : n === 3 ? 1 : undefined),
  has_column_privilege: (n) => (n === 3 ? 0 : n === 4 ? 1 : undefined),
});

function fromQualified(text: string): RelationName | undefined {
  let parts: string[];
  try {
    parts = splitQualifiedName(text);
  } catch {
    return undefined; // the planner reports the syntax error
  }
  if (parts.length === 0 || parts.length > 3 || /^\d+$/.test(text.trim())) return undefined;
  const name = parts[parts.length - 1]!;
  if (parts.length === 3) return { catalog: parts[0]!, schema: parts[1]!, name };
  if (parts.length === 2) return { schema: parts[0]!, name };
  return { name };
}

export function catalogNeeds(root: unknown): CatalogNeeds {
  const relations: RelationName[] = [];
  let listing = false;
  walk(root, ({ kind, fields: f, path }) => {
    switch (kind) {
      case 'RangeVar': {
        const name = String(f['relname']);
        const schema = f['schemaname'] as string | undefined;
        const catalog = f['catalogname'] as string | undefined;
        if (schema === undefined && catalog === undefined && ctesInScope(path).has(name)) return;
        if (schema === 'pg_catalog' || schema === 'information_schema' || (schema === undefined && Object.hasOwn(PG_CATALOG_RELATIONS, name))) {
          listing = true;
        }
        if (schema === undefined && Object.hasOwn(INFORMATION_SCHEMA_RELATIONS, name)) listing = true;
        relations.push({ ...(catalog !== undefined ? { catalog } : {}), ...(schema !== undefined ? { schema } : {}), name });
        return;
      }
      case 'TypeCast': {
        const typeNames = names(f['typeName']?.['names']);
        const typname = typeNames[typeNames.length - 1];
        if (typname === 'regclass' || typname === 'regnamespace') {
          const literal = constText(f['arg']);
          const rel = literal !== undefined && typname === 'regclass' ? fromQualified(literal) : undefined;
          if (rel) relations.push(rel);
          else if (literal === undefined) listing = true; // printed by name from pg_class / pg_namespace
        }
        return;
      }
      case 'FuncCall': {
        const fn = names(f['funcname']);
        const name = fn[fn.length - 1]!;
        const args = (f['args'] ?? []) as unknown[];
        const at = RELATION_ARGUMENT[name]?.(args.length);
        const literal = at !== undefined ? constText(args[at]) : undefined;
        const rel = literal !== undefined ? fromQualified(literal) : undefined;
        if (rel) relations.push(rel);
        if (Object.hasOwn(EMULATED_FUNCTIONS, name) || name === 'to_regclass') listing = true;
        return;
      }
      default:
        return;
    }
  });
  return { relations, listing };
}

/** A name of a session's temporary schema: never a catalog namespace (resolve.ts looks such names up among the temporary tables). */
export const isTempSchemaName = (schema: string): boolean => schema === 'pg_temp' || /^pg_temp_\d+$/.test(schema);

/**
 * The user schemas a name is looked up in, in order, as resolve.ts does:
 * the written schema, or the search path (an emulated pg_catalog name
 * earlier in the path ends the search).
 */
export function candidateSchemas(rel: RelationName, ctx: { searchPath: string[]; user: string }): string[] {
  if (rel.schema !== undefined) return rel.schema === 'pg_catalog' || rel.schema === 'information_schema' || isTempSchemaName(rel.schema) ? [] : [rel.schema];
  const out: string[] = [];
  for (const schema of effectiveSearchPath(ctx)) {
    if (isTempSchemaName(schema)) continue;
    if (schema === 'pg_catalog') {
      if (Object.hasOwn(PG_CATALOG_RELATIONS, rel.name)) return out;
      continue;
    }
    if (schema === 'information_schema') {
      if (Object.hasOwn(INFORMATION_SCHEMA_RELATIONS, rel.name)) return out;
      continue;
    }
    out.push(schema);
  }
  return out;
}
