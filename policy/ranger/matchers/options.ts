/**
 * `resourceDef.matcherOptions` decoded once per resource matcher. Service defs carry the
 * options as strings ("true") or, in fixtures, as JSON booleans; both are accepted.
 */
import type { MatcherOptionValue } from './types.js';

export interface MatcherOptions {
  wildCard: boolean;
  ignoreCase: boolean;
  quotedCaseSensitive: boolean;
  quoteChars: string;
  /** Token replacement is on only when the delimiters are usable (see tokenDelimitersValid). */
  replaceTokens: boolean;
  tokenStart: string;
  tokenEnd: string;
  tokenEscape: string;
  tokenPrefix: string;
  replaceReqExpressions: boolean;
  pathSeparator: string;
}

type RawOptions = Record<string, MatcherOptionValue> | undefined;

function option(raw: RawOptions, name: string): string | undefined {
  const v = raw?.[name];
  if (v === undefined || v === null) return undefined;
  return typeof v === 'boolean' ? String(v) : v;
}

function boolOption(raw: RawOptions, name: string, dflt: boolean): boolean {
  const v = option(raw, name);
  // Java's Boolean.parseBoolean: only "true" (any case) is true.
  return v === undefined ? dflt : v.toLowerCase() === 'true';
}

/** A one-character option; an empty string means "use the default". */
function charOption(raw: RawOptions, name: string, dflt: string): string {
  const v = option(raw, name);
  return v === undefined || v === '' ? dflt : v[0]!;
}

export function parseMatcherOptions(raw: RawOptions): MatcherOptions {
  const tokenStart = charOption(raw, 'tokenDelimiterStart', '{');
  const tokenEnd = charOption(raw, 'tokenDelimiterEnd', '}');
  const tokenEscape = charOption(raw, 'tokenDelimiterEscape', '\\');
  const tokenPrefix = option(raw, 'tokenDelimiterPrefix') ?? '';
  // Ranger disables token replacement when the escape collides with a delimiter or the
  // prefix contains any of the three characters: such values could not be parsed unambiguously.
  const delimitersValid =
    tokenEscape !== tokenStart &&
    tokenEscape !== tokenEnd &&
    !tokenPrefix.includes(tokenEscape) &&
    !tokenPrefix.includes(tokenStart) &&
    !tokenPrefix.includes(tokenEnd);
  return {
    wildCard: boolOption(raw, 'wildCard', true),
    ignoreCase: boolOption(raw, 'ignoreCase', true),
    quotedCaseSensitive: boolOption(raw, 'quotedCaseSensitive', false),
    quoteChars: option(raw, 'quoteChars') ?? '"',
    replaceTokens: boolOption(raw, 'replaceTokens', true) && delimitersValid,
    tokenStart,
    tokenEnd,
    tokenEscape,
    tokenPrefix,
    replaceReqExpressions: boolOption(raw, 'replaceReqExpressions', true),
    pathSeparator: charOption(raw, 'pathSeparatorChar', '/'),
  };
}
