/**
 * What the session answers itself and what the pg_catalog emulation answers:
 * current_user, version(), current_setting() … folded to literals from the
 * session's context; to_regclass and has_*_privilege of a constant relation
 * resolved now, as the user; the catalog functions the emulation implements
 * (sql/emulation.ts EMULATED_FUNCTIONS) pointed at its macros.
 */
import { EMULATED_FUNCTIONS, EMULATED_TABLE_FUNCTIONS, emulated } from '../emulation.js';
import { SqlError, pos } from '../errors.js';
import { RELATION_ARGUMENT } from '../needs.js';
import { regCast, splitQualifiedName } from '../regTypes.js';
import { effectiveSearchPath } from '../resolve.js';
import { settingLookup } from '../settings.js';
import { constText, intConst, replaceNode, strConst, strNode, type Fields, type PgNode } from '../walk.js';
import type { DialectContext } from './context.js';
import type { Call, Rule } from './rule.js';

// the parser leaves `elements` out of an empty ARRAY[], and the re-parse check compares against it
export const arrayOf = (values: (string | null)[]): PgNode => ({
  A_ArrayExpr: values.length ? { elements: values.map((v) => strConst(v)) } : {},
});

/** Schemas of the search path that exist, as current_schemas(false) reports them. */
export function existingSearchPath(ctx: DialectContext, includeImplicit: boolean): string[] {
  const known = new Set([...ctx.catalog.listSchemas(), 'pg_catalog', 'information_schema']);
  const path = includeImplicit ? effectiveSearchPath(ctx) : ctx.searchPath.map((s) => (s === '$user' ? ctx.user : s));
  return path.filter((s) => known.has(s));
}

/** `version()` as DBeaver and friends parse it: the PostgreSQL flavour first. */
export function versionString(ctx: DialectContext): string {
  const server = (ctx.settings('server_version') ?? '16.4').split(' ')[0];
  // Nothing about the runtime behind it: a version string is not an inventory for an attacker.
  return `PostgreSQL ${server} (lakegate 0.1.0) on x86_64-pc-linux-gnu, 64-bit`;
}

function constBool(n: unknown): boolean | undefined {
  const c = (n as Fields | undefined)?.['A_Const'];
  if (c?.boolval) return c.boolval.boolval === true;
  const s = constText(n);
  return s === undefined ? undefined : ['t', 'true', 'on', 'yes', '1'].includes(s.toLowerCase());
}

/**
 * A relation named by a constant in to_regclass / has_*_privilege is resolved
 * now, as the user: its OID, or (to_regclass) NULL when this user cannot see it.
 */
function relationArguments(name: string, args: unknown[], f: Fields, ctx: DialectContext): PgNode | undefined {
  const at = RELATION_ARGUMENT[name]?.(args.length);
  if (at === undefined) return undefined;
  const literal = constText(args[at]);
  if (name === 'to_regclass') {
    if (literal === undefined) throw new SqlError('0A000', 'to_regclass() needs a constant argument', pos(f['location']));
    try {
      return regCast('regclass', args[at], ctx, f['location']);
    } catch (e) {
      if (!(e instanceof SqlError) || e.code !== '42P01') throw e;
      // The same decision `::regclass` reports as 42P01: audited alike, though the answer is NULL.
      const parts = splitQualifiedName(literal);
      ctx.probeMissed?.({ ...(parts.length >= 2 ? { schema: parts[parts.length - 2]! } : {}), name: parts[parts.length - 1]!, error: e });
      return { TypeCast: { arg: strConst(null), typeName: { names: [strNode('pg_catalog'), strNode('int8')], typemod: -1 } } };
    }
  }
  if (literal !== undefined) args[at] = regCast('regclass', args[at], ctx, f['location']);
  return undefined;
}

/** A call the session answers itself: the node that replaces it (none: the call goes on to its later rewrites). In expressions only. */
const fold = (names: readonly string[], value: (c: Call) => PgNode | undefined): Rule => ({
  phase: 'fold',
  names,
  schemas: 'any',
  rewrite: (c) => {
    const folded = value(c);
    if (!folded) return false;
    replaceNode(c.v.node, folded);
    return true;
  },
});

const redirect = (c: Call): boolean => {
  c.f['funcname'] = emulated(c.name);
  if (EMULATED_FUNCTIONS[c.name]?.searchPath) c.f['args'] = [...c.args, arrayOf(effectiveSearchPath(c.ctx))];
  return true;
};

/** The session's folds and the catalog emulation's functions (sql/dialect/registry.ts). Neither looks at the qualifier. */
export const SESSION_RULES: readonly Rule[] = [
  // a relation named by a constant: to_regclass answers here, has_*_privilege goes on to the emulation with its OID
  fold(Object.keys(RELATION_ARGUMENT), ({ name, args, f, ctx }) => relationArguments(name, args, f, ctx)),
  fold(['current_database', 'current_catalog'], ({ ctx }) => strConst(ctx.database)),
  fold(['current_user', 'session_user', 'current_role'], ({ ctx }) => strConst(ctx.user)),
  fold(['current_schema'], ({ ctx }) => strConst(existingSearchPath(ctx, false)[0] ?? null)),
  fold(['current_schemas'], ({ args, f, ctx }) => {
    const implicit = constBool(args[0]);
    if (implicit === undefined) throw new SqlError('0A000', 'current_schemas() needs a constant argument', pos(f['location']));
    // typed, so that the deparser parenthesises `(current_schemas(true))[1]`; it prints ARRAY[…][1] otherwise
    return {
      TypeCast: {
        arg: arrayOf(existingSearchPath(ctx, implicit)),
        typeName: { names: [strNode('text')], typemod: -1, arrayBounds: [{ Integer: { ival: -1 } }] },
      },
    };
  }),
  fold(['version'], ({ ctx }) => strConst(versionString(ctx))),
  fold(['pg_backend_pid'], ({ ctx }) => intConst(ctx.backendPid)),
  fold(['current_setting'], ({ args, f, ctx }) => {
    const setting = constText(args[0]);
    if (setting === undefined) return settingLookup(ctx.settings, args[0] as PgNode);
    const value = ctx.settings(setting.toLowerCase());
    if (value !== undefined) return strConst(value);
    if (constBool(args[1])) return strConst(null);
    throw new SqlError('42704', `unrecognized configuration parameter "${setting}"`, pos(f['location']));
  }),

  // the emulation's macro of the same name (pgcatalog/pgCatalogMacros.ts), in an expression or in FROM
  ...Object.keys(EMULATED_FUNCTIONS).map((n): Rule => ({ phase: 'emulation', names: [n], at: 'anywhere', schemas: 'any', rewrite: redirect, macros: [n] })),
  // its table macros, in FROM only
  ...[...EMULATED_TABLE_FUNCTIONS]
    .filter((n) => !Object.hasOwn(EMULATED_FUNCTIONS, n))
    .map((n): Rule => ({ phase: 'emulation', names: [n], at: 'from', schemas: 'any', rewrite: redirect, macros: [n] })),
];
