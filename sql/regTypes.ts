/**
 * Casts to the OID alias types. A literal (`'pg_class'::regclass`) is resolved
 * now, as PostgreSQL does at parse time; a column (`c.oid::regclass`) becomes a
 * call to the emulation's output function, which prints the name.
 */
import { PG_CATALOG_RELATIONS, INFORMATION_SCHEMA_RELATIONS, EMULATION_DB, PGC_SCHEMA, PG_CATALOG_NSP_OID, PUBLIC_NSP_OID, INFORMATION_SCHEMA_NSP_OID } from './emulation.js';
import { SqlError, pos } from './errors.js';
import { stableOid } from './oids.js';
import { PG_BASE_TYPES } from './pgTypes.js';
import { effectiveSearchPath, resolveRelation, type ResolveContext } from './resolve.js';
import { constText, intConst, strConst, strNode, type Fields, type PgNode } from './walk.js';

/** Split `schema."Table"` the way PostgreSQL's regclassin does. */
export function splitQualifiedName(text: string): string[] {
  // PostgreSQL's stringToQualifiedNameList: an empty or unquoted-empty part, or a trailing dot, is invalid
  const invalid = () => new SqlError('42602', `invalid name syntax`);
  const parts: string[] = [];
  let i = 0;
  let more = true;
  while (i < text.length) {
    let part = '';
    if (text[i] === '"') {
      i++;
      while (i < text.length) {
        if (text[i] === '"' && text[i + 1] === '"') {
          part += '"';
          i += 2;
        } else if (text[i] === '"') {
          i++;
          break;
        } else part += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== '.') part += text[i++];
      part = part.trim().toLowerCase();
      if (part === '') throw invalid();
    }
    parts.push(part);
    more = text[i] === '.';
    if (more) i++;
    else if (i < text.length) throw invalid();
  }
  if (more) throw invalid();
  return parts;
}

export function relationOid(schema: string, name: string): number {
  if (schema === 'pg_catalog') return PG_CATALOG_RELATIONS[name]!.oid;
  if (schema === 'information_schema') return INFORMATION_SCHEMA_RELATIONS[name]!.oid;
  return stableOid('relation', schema, name);
}

export function namespaceOid(schema: string): number {
  if (schema === 'pg_catalog') return PG_CATALOG_NSP_OID;
  if (schema === 'public') return PUBLIC_NSP_OID;
  if (schema === 'information_schema') return INFORMATION_SCHEMA_NSP_OID;
  return stableOid('namespace', schema);
}

/**
 * PostgreSQL's pseudo-types by name (what format_type prints is the name itself, `any` quoted): clients compare
 * against them (pgcli's \df: `p.prorettype = 'pg_catalog.trigger'::pg_catalog.regtype`); no column has them.
 */
export const PSEUDO_TYPES: Readonly<Record<string, number>> = Object.assign(Object.create(null) as Record<string, number>, {
  trigger: 2279, event_trigger: 3838, void: 2278, record: 2249, cstring: 2275, any: 2276, anyarray: 2277,
  internal: 2281, anyelement: 2283, anynonarray: 2776, anyenum: 3500, anyrange: 3831, anymultirange: 4537,
  anycompatible: 5077, anycompatiblearray: 5078, anycompatiblenonarray: 5079, anycompatiblerange: 5080,
  anycompatiblemultirange: 4538, language_handler: 2280, fdw_handler: 3115, tsm_handler: 3310,
  table_am_handler: 269, index_am_handler: 325, pg_ddl_command: 32, unknown: 705,
});

function typeOid(text: string, location: number | undefined): number {
  const parts = splitQualifiedName(text);
  const name = parts[parts.length - 1]!;
  const isArray = name.endsWith('[]');
  const base = isArray ? name.slice(0, -2) : name;
  const pseudo = isArray ? undefined : PSEUDO_TYPES[base === '"any"' ? 'any' : base];
  if (pseudo !== undefined) return pseudo;
  const t = PG_BASE_TYPES.find((b) => b.typname === base || b.formatted === base);
  if (!t) throw new SqlError('42704', `type "${text}" does not exist`, location);
  return isArray ? t.arrayOid : t.oid;
}

/** regtype output of a type written as text: the name format_type prints (`'int4'::regtype` is integer). */
export function regtypeText(text: string, location: unknown): string {
  const parts = splitQualifiedName(text);
  const name = parts[parts.length - 1]!;
  const isArray = name.endsWith('[]');
  const base = isArray ? name.slice(0, -2) : name;
  if (!isArray && PSEUDO_TYPES[base] !== undefined) return base === 'any' ? '"any"' : base;
  const t = PG_BASE_TYPES.find((b) => b.typname === base || b.formatted === base);
  if (!t) throw new SqlError('42704', `type "${text}" does not exist`, pos(location));
  return isArray ? `${t.formatted}[]` : t.formatted;
}

const call = (name: string, args: unknown[]): PgNode => ({
  FuncCall: { funcname: [strNode(EMULATION_DB), strNode(PGC_SCHEMA), strNode(name)], args, funcformat: 'COERCE_EXPLICIT_CALL' },
});

export function regCast(typname: string, arg: unknown, ctx: ResolveContext, location: unknown): PgNode {
  const c = (arg as Fields | undefined)?.['A_Const'];
  const literal = constText(arg);
  const numeric = c?.ival !== undefined ? Number(c.ival.ival ?? 0) : undefined;
  const at = pos(location);
  if (numeric !== undefined) return intConst(numeric);
  if (literal !== undefined) {
    if (/^\d+$/.test(literal.trim())) return intConst(Number(literal));
    switch (typname) {
      case 'regclass': {
        const parts = splitQualifiedName(literal);
        if (parts.length > 3) throw new SqlError('42601', `improper relation name (too many dotted names): ${literal}`, at);
        const name = parts[parts.length - 1]!;
        const schema = parts.length >= 2 ? parts[parts.length - 2] : undefined;
        const catalog = parts.length === 3 ? parts[0] : undefined;
        const r = resolveRelation({ catalog, schema, name }, ctx, location);
        if (r.kind === 'table') return intConst(relationOid(r.table.schema, r.table.name));
        if (r.kind === 'view') return intConst(relationOid(r.view.schema, r.view.name));
        if (r.kind === 'temp') return intConst(relationOid(r.schema, r.table.name));
        return intConst(relationOid(r.schema, r.name));
      }
      case 'regtype':
        return intConst(typeOid(literal, at));
      case 'regnamespace': {
        const schema = splitQualifiedName(literal)[0]!;
        const known = ['pg_catalog', 'information_schema', ...ctx.catalog.listSchemas()];
        if (!known.includes(schema)) throw new SqlError('3F000', `schema "${schema}" does not exist`, at);
        return intConst(namespaceOid(schema));
      }
      default: {
        // regproc: the emulation stores procedure references by name (pg_type.typinput = 'array_in')
        const parts = splitQualifiedName(literal);
        return strConst(parts[parts.length - 1]!.replace(/\(.*$/, ''));
      }
    }
  }
  const path = { A_ArrayExpr: { elements: effectiveSearchPath(ctx).map((s) => strConst(s)) } };
  switch (typname) {
    case 'regclass':
      // a parameter holds a name (or an OID) as text, resolved when it is bound
      if ((arg as Fields | undefined)?.['ParamRef']) {
        return call('lg_regclass_in', [{ TypeCast: { arg, typeName: { names: [strNode('varchar')], typemod: -1 } } }, path]);
      }
      // a column: an OID (c.oid::regclass) or a name (relname::regclass), told apart by its engine type
      return call('lg_regclass', [arg, path]);
    case 'regtype':
      return call('regtype_out', [arg]);
    case 'regnamespace':
      return call('regnamespace_out', [arg]);
    default:
      return { TypeCast: { arg, typeName: { names: [strNode('varchar')], typemod: -1 } } };
  }
}
