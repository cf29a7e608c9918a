/**
 * regexp_replace as PostgreSQL 15 answers it, on DuckDB's RE2.
 *
 * Three things differ when the call is passed through as written:
 * - the replacement's escapes: PostgreSQL writes the whole match as \&, a
 *   group as \1 … \9 (empty when the pattern has no such group) and keeps a
 *   backslash before anything else; RE2 writes the whole match as \0 and
 *   DuckDB returns the text unchanged for any escape RE2 refuses;
 * - empty matches: PostgreSQL takes an empty match where the last match
 *   ended (`regexp_replace('axxb', 'x*', '-', 'g')` is -a--b-), RE2's global
 *   replace skips it (-a-b-);
 * - the start and occurrence forms (start [, N [, flags]]), which DuckDB has
 *   not.
 * A global replacement with a pattern that can match the empty string, and
 * every N-th replacement, walk the text as PostgreSQL's replace_text_regexp
 * does (sql/dialect/builtinMacros.ts lg_re_all, lg_regexp_replace_nth); every
 * other call stays RE2's own replace.
 */
import { SqlError, pos } from './errors.js';
import { emulatedCall } from './emulation.js';
import { constText, containsSubquery, intConst, replaceNode, strConst, type Fields, type PgNode, type Visit } from './walk.js';

const constOf = (n: unknown): Fields | undefined => (n as Fields | undefined)?.['A_Const'];
const constInt = (n: unknown): number | undefined => {
  const c = constOf(n);
  return c?.['ival'] === undefined ? undefined : Number(c['ival']['ival'] ?? 0);
};

/** An assertion that looks at the text before where it stands: wrong once the text before start is cut off. */
const LOOKS_BEHIND = /(^|[^[\\])\^|\\[bBAmMyYZz<>]/;

/** The capturing groups of a pattern: `(` not escaped, not in a bracket expression, not `(?:` and the like. */
export function capturingGroups(pattern: string): number {
  let n = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[') {
      // a ] right after [ or [^ is a member, not the end
      i += pattern[i + 1] === '^' ? 2 : 1;
      if (pattern[i] === ']') i++;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '[' && pattern[i + 1] === ':' ? pattern.indexOf(':]', i + 2) + 1 - i || 1 : 1;
    } else if (c === '(' && (pattern[i + 1] !== '?' || /^\(\?P?</.test(pattern.slice(i, i + 4)))) n++;
  }
  return n;
}

/** A PostgreSQL replacement string as RE2's rewrite string, for a pattern with `groups` capturing groups. */
export function rewriteOf(replacement: string, groups: number): string {
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = replacement[i + 1];
    if (next === undefined) out += '\\\\';
    else if (next === '&') out += '\\0';
    else if (next >= '1' && next <= '9') out += Number(next) <= groups ? `\\${next}` : '';
    else if (next === '\\') out += '\\\\';
    else {
      // anything else keeps its backslash and is read again as itself
      out += '\\\\';
      continue;
    }
    i++;
  }
  return out;
}

/** `^((?s:.*?))(p)`: from where it is tried, the text before p's first match, and the match. */
const withGap = (pattern: string): PgNode => strConst(`^((?s:.*?))(${pattern})`);

/**
 * Rewrites regexp_replace(source, pattern, replacement [, start [, N]] [, flags]) in place; false when the call is
 * left as written (a pattern or replacement known only at run time, or flags DuckDB reads itself).
 */
export function regexpReplace(v: Visit, a: PgNode[], location: unknown): boolean {
  if (a.length < 3 || a.length > 6) return false;
  const startForm = a.length >= 5 || (a.length === 4 && constInt(a[3]) !== undefined);
  const refuse = (why: string) => new SqlError('0A000', `regexp_replace with a start position is supported ${why}`, pos(location));
  const pattern = constText(a[1]);
  const flags = startForm ? (a.length === 6 ? constText(a[5]) : '') : (a.length === 4 ? constText(a[3]) : '');
  if (!startForm && (pattern === undefined || flags === undefined || !/^[gic]*$/.test(flags))) {
    translateReplacement(a, pattern);
    return false;
  }
  if (startForm) {
    const start = constInt(a[3]);
    const n = a.length >= 5 ? constInt(a[4]) : undefined;
    if (start === undefined || (a.length >= 5 && n === undefined)) throw refuse('with a constant start and occurrence only');
    if (start <= 0) throw new SqlError('22023', `invalid value for parameter "start": ${start}`, pos(location));
    if (n !== undefined && n < 0) throw new SqlError('22023', `invalid value for parameter "n": ${n}`, pos(location));
    if (pattern === undefined || flags === undefined) throw refuse('with a constant pattern and flags only');
    if (!/^[gic]*$/.test(flags)) throw refuse('with the flags g, i and c only');
    if (LOOKS_BEHIND.test(pattern)) throw refuse('with a pattern that does not look behind its match (^, \\b)');
  }
  const re = flags!.replace(/[^ic]/g, '').endsWith('i') ? `(?i)${pattern!}` : pattern!;
  translateReplacement(a, pattern);
  const start = startForm ? constInt(a[3])! : 1;
  const nth = a.length >= 5 ? constInt(a[4])! : flags!.includes('g') ? 0 : 1;
  // The walk names the source and the replacement more than once: a subquery there would be copied past the
  // data gate's rewrite. Without a start, RE2's own replace is PostgreSQL's but for empty matches.
  if (containsSubquery(a[0]) || containsSubquery(a[2])) {
    if (startForm) throw refuse('without a subquery in its source');
    return false;
  }
  // the first match alone, or a pattern that looks behind (the walk cuts the text before each search): RE2's own
  if (!startForm && (nth === 1 || LOOKS_BEHIND.test(pattern!))) return false;
  replaceNode(v.node, nth === 0
    ? emulatedCall('lg_re_all', [a[0]!, strConst(re), withGap(re), a[2]!, intConst(start)])
    : emulatedCall('lg_regexp_replace_nth', [a[0]!, strConst(re), withGap(re), a[2]!, intConst(start), intConst(nth)]));
  return true;
}

/** The replacement, when constant, as RE2 reads it (with the pattern's groups, when that is constant too). */
function translateReplacement(a: PgNode[], pattern: string | undefined): void {
  const r = constText(a[2]);
  // without the pattern, a group reference is left as written (RE2 reads \1 … \9 as PostgreSQL does)
  if (r !== undefined && r.includes('\\')) a[2] = strConst(rewriteOf(r, pattern === undefined ? 9 : capturingGroups(pattern)));
}
