/**
 * PostgreSQL's LIKE and ILIKE on DuckDB, in time linear in the text. DuckDB's
 * like_escape(), its ILIKE, and its LIKE with `_` or with a pattern that is
 * not a constant all backtrack: `repeat('a', 40) LIKE '%a%a%a%a%a%a%a%a%a%a%b'`
 * takes seconds and grows exponentially, during constant folding where no
 * interrupt reaches it. So a pattern becomes:
 *
 * - a constant with only `%` wildcards and no escape character, under LIKE:
 *   DuckDB's own LIKE, which matches such patterns segment by segment;
 * - any other constant: an RE2 regular expression built here (RE2 runs in
 *   linear time), matched with regexp_full_match;
 * - anything else (a column, a parameter): the same translation done by the
 *   engine (the lg_like_re macro), then regexp_full_match.
 *
 * PostgreSQL's escape character is a backslash unless ESCAPE says otherwise;
 * `ESCAPE ''` means none.
 */
import { INTERNAL_MACROS, EMULATION_DB, PGC_SCHEMA } from './emulation.js';
import { SqlError, pos } from './errors.js';
import { containsSubquery, ENGINE_CALLS, strConst, strNode, type PgNode } from './walk.js';

export const endsWithEscape = (): SqlError => new SqlError('22025', 'LIKE pattern must not end with escape character');

/** ASCII punctuation is escaped for RE2; everything else (letters, digits, spaces, non-ASCII) stands for itself. */
const PUNCT = /[!-/:-@[-`{-~]/;
const literal = (c: string): string => (PUNCT.test(c) ? `\\${c}` : c);

/**
 * The escape character ESCAPE gives: a single character, or none for ''.
 * PostgreSQL: 22025 "invalid escape string" otherwise.
 */
export function escapeChar(text: string, location?: unknown): string | null {
  const chars = [...text];
  if (chars.length > 1) {
    throw new SqlError('22025', 'invalid escape string', pos(location), { hint: 'Escape string must be empty or one character.' });
  }
  return chars[0] ?? null;
}

/** An RE2 pattern matching exactly what the LIKE pattern matches (without flags). */
export function likeToRegex(pattern: string, escape: string | null): string {
  let out = '';
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (escape !== null && c === escape) {
      const next = chars[++i];
      if (next === undefined) throw endsWithEscape();
      out += literal(next);
    } else if (c === '%') {
      if (!out.endsWith('.*')) out += '.*';
    } else if (c === '_') out += '.';
    else out += literal(c);
  }
  return out;
}

/** True when DuckDB's own LIKE matches this constant pattern the way PostgreSQL does, in linear time. */
export function nativeLikeIsSafe(pattern: string, escape: string | null, caseInsensitive: boolean): boolean {
  return !caseInsensitive && !pattern.includes('_') && (escape === null || !pattern.includes(escape));
}

const call = (name: PgNode[], args: unknown[]): PgNode => ({
  FuncCall: { funcname: name, args, funcformat: 'COERCE_EXPLICIT_CALL' },
});
const builtin = (name: string, args: unknown[]): PgNode => {
  const node = call([strNode(name)], args);
  ENGINE_CALLS.add(node['FuncCall']!);
  return node;
};
const macro = (name: string, args: unknown[]): PgNode => call([strNode(EMULATION_DB), strNode(PGC_SCHEMA), strNode(name)], args);
const flags = (caseInsensitive: boolean): string => (caseInsensitive ? '(?si)' : '(?s)');

/** `text LIKE pattern` for a constant pattern: native LIKE where safe, else a regular expression. */
export function constantLike(text: unknown, pattern: string, escape: string | null, caseInsensitive: boolean): PgNode {
  if (nativeLikeIsSafe(pattern, escape, caseInsensitive)) {
    return { A_Expr: { kind: 'AEXPR_LIKE', name: [strNode('~~')], lexpr: text, rexpr: strConst(pattern) } };
  }
  return builtin('regexp_full_match', [text, strConst(flags(caseInsensitive) + likeToRegex(pattern, escape))]);
}

/**
 * `text LIKE pattern` for a pattern known only when the statement runs. The
 * engine splits the pattern into tokens (an escaped character, or one
 * character) and maps each to RE2; a pattern ending in a lone escape
 * character is refused first, outside the translation, so the translation
 * itself stays foldable (a parameter's pattern is translated once, not per row).
 */
/** `x::text`: the engine must know a parameter is text even inside a macro's lambda. */
const asText = (n: unknown): PgNode => ({ TypeCast: { arg: n, typeName: { names: [strNode('text')], typemod: -1 } } });

export function runtimeLike(text: unknown, rawPattern: unknown, escape: string | null, caseInsensitive: boolean): PgNode {
  const pattern = asText(rawPattern);
  const e = escape === null ? null : literal(escape);
  const tokens = e === null ? '(?s).' : `(?s)${e}.|.`;
  // `||`, not concat(): a NULL pattern must give NULL, as LIKE does.
  const translated: PgNode = {
    A_Expr: { kind: 'AEXPR_OP', name: [strNode('||')], lexpr: strConst(flags(caseInsensitive)), rexpr: macro(INTERNAL_MACROS.likeRegex, [pattern, strConst(tokens)]) },
  };
  const match = builtin('regexp_full_match', [(text as PgNode | undefined)?.['ParamRef'] ? asText(text) : text, translated]);
  if (e === null) return match;
  // the pattern is needed twice: never copy a subquery (its tables would escape the data gate's rewrite)
  if (containsSubquery(pattern)) throw new SqlError('0A000', 'LIKE with a subquery as its pattern is not supported');
  const endsInEscape = builtin('regexp_matches', [structuredClone(pattern), strConst(`(^|[^${e}])(${e}${e})*${e}$`)]);
  return {
    CaseExpr: {
      args: [{ CaseWhen: { expr: endsInEscape, result: builtin('error', [strConst(endsWithEscape().message)]) } }],
      defresult: match,
    },
  };
}
