/**
 * Policy values that change per request: `{TOKEN}` macros (replaced from the match context's
 * tokens) and `${{expr}}` request expressions (evaluated by the caller's resolver).
 *
 * Token grammar, as Ranger's StringTokenReplacer reads it:
 *  - start/end delimiters (default `{` `}`) enclose a token name; with a configured prefix only
 *    names starting with it are tokens (`{rangerToken:USER}`), other names stay literal;
 *  - an unknown token stays literal, delimiters included; an empty token value is a value;
 *  - the escape char (default `\`) before a delimiter or before itself yields that char; before
 *    any other char it is kept, so `\w` stays `\w`;
 *  - an unterminated token is kept literally.
 */
import type { MatchContext } from './types.js';
import type { MatcherOptions } from './options.js';

const EXPRESSION = /\$\{\{([\s\S]*?)\}\}/g;

export function hasExpressions(value: string): boolean {
  EXPRESSION.lastIndex = 0;
  return EXPRESSION.test(value);
}

/** Ranger's "has tokens": the escape char anywhere, or both delimiters. */
export function hasTokens(value: string, start: string, end: string, escape: string): boolean {
  return value.includes(escape) || (value.includes(start) && value.includes(end));
}

export interface TokenSyntax {
  start: string;
  end: string;
  escape: string;
  prefix: string;
}

export function replaceTokens(value: string, syntax: TokenSyntax, tokens: Record<string, string> | undefined): string {
  const { start, end, escape, prefix } = syntax;
  let out = '';
  let token: string | null = null;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === escape) {
      if (i + 1 >= value.length) {
        if (token === null) out += c;
        else token += c;
        continue;
      }
      const next = value[++i]!;
      if (token === null) out += next === escape || next === start ? next : c + next;
      else token += next === escape || next === end ? next : c + next;
      continue;
    }
    if (token === null) {
      if (c === start) token = '';
      else out += c;
    } else if (c === end) {
      const replacement =
        prefix === '' || token.startsWith(prefix) ? tokens?.[token.slice(prefix.length)] : undefined;
      out += replacement ?? start + token + end;
      token = null;
    } else {
      token += c;
    }
  }
  if (token !== null) out += start + token;
  return out;
}

function replaceExpressions(value: string, ctx: MatchContext | undefined): string | null {
  const resolve = ctx?.resolveExpression;
  if (!resolve) return null;
  let unresolved = false;
  const out = value.replace(EXPRESSION, (_m, expr: string) => {
    const v = resolve(expr);
    if (v === undefined) unresolved = true;
    return v ?? '';
  });
  return unresolved ? null : out;
}

/**
 * A policy value as written, plus how to expand it for one request. `expand` returns null when
 * the value cannot be resolved for this request (an expression without a resolver): such a
 * value matches nothing.
 */
export interface PolicyValue {
  readonly raw: string;
  readonly dynamic: boolean;
  expand(ctx: MatchContext | undefined): string | null;
}

export function compilePolicyValue(raw: string, opts: MatcherOptions): PolicyValue {
  const withExpressions = opts.replaceReqExpressions && hasExpressions(raw);
  const withTokens =
    opts.replaceTokens && (withExpressions || hasTokens(raw, opts.tokenStart, opts.tokenEnd, opts.tokenEscape));
  if (!withExpressions && !withTokens) return { raw, dynamic: false, expand: () => raw };
  const syntax: TokenSyntax = { start: opts.tokenStart, end: opts.tokenEnd, escape: opts.tokenEscape, prefix: opts.tokenPrefix };
  return {
    raw,
    dynamic: true,
    expand(ctx) {
      const v = withExpressions ? replaceExpressions(raw, ctx) : raw;
      if (v === null) return null;
      return withTokens ? replaceTokens(v, syntax, ctx?.tokens) : v;
    },
  };
}
