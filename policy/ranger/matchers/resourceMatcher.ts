/**
 * Matching of one policy resource (`{values, isExcludes, isRecursive}` for one resource def)
 * against one requested value — Ranger's RangerDefaultResourceMatcher, RangerPathResourceMatcher
 * and RangerURLResourceMatcher, chosen by `resourceDef.matcher`.
 */
import type {
  ElementMatch,
  ElementScope,
  MatchContext,
  PolicyResourceLike,
  RequestValue,
  ResourceDefLike,
} from './types.js';
import { parseMatcherOptions, type MatcherOptions } from './options.js';
import { compilePolicyValue } from './dynamicValue.js';
import { hasWildcard } from './wildcard.js';
import {
  EndsWithMatcher,
  EqualsMatcher,
  RecursivePathMatcher,
  RecursiveWildcardMatcher,
  StartsWithMatcher,
  UrlRecursiveWildcardMatcher,
  WildcardMatcher,
  type IndexHint,
  type Subject,
  type ValueMatcher,
} from './valueMatchers.js';

export interface ResourceMatcher {
  readonly resourceName: string;
  /** Any value matches: no values, or a value made only of `*`. */
  readonly isMatchAny: boolean;
  /** Some value holds tokens or request expressions (§4.4 "has tokens"). */
  readonly isDynamic: boolean;
  readonly isExcludes: boolean;
  /** The policy values as written, empty strings dropped. */
  readonly values: readonly string[];
  getMatchType(value: RequestValue, scope?: ElementScope, ctx?: MatchContext): ElementMatch;
  isMatch(value: RequestValue, scope?: ElementScope, ctx?: MatchContext): boolean;
  /** The policy resource names exactly this one value (grant/revoke merging). */
  isCompleteMatch(value: string | null | undefined, ctx?: MatchContext): boolean;
  /** How an index may narrow the requests this resource matches; null = it cannot. */
  indexHints(): IndexHint[] | null;
}

type MatcherFamily = 'default' | 'path' | 'url';

function familyOf(matcherClass: string | undefined): MatcherFamily {
  const simple = matcherClass?.slice(matcherClass.lastIndexOf('.') + 1);
  if (simple === 'RangerPathResourceMatcher') return 'path';
  if (simple === 'RangerURLResourceMatcher') return 'url';
  return 'default';
}

/** null means "this value matches anything" (it reduces to nothing once the `*`s are gone). */
type Built = ValueMatcher | null;

/** The non-recursive choice: equals / startsWith / endsWith / full wildcard. */
function buildPlain(value: string, opts: MatcherOptions, childMatching: boolean): Built {
  const sep = opts.pathSeparator;
  const operand = (v: string) => compilePolicyValue(v, opts);
  if (!opts.wildCard) return new EqualsMatcher(operand(value), childMatching, sep);
  let firstStar = -1;
  let lastStar = -1;
  let needWildcard = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '?') {
      needWildcard = true;
      break;
    }
    if (c === '*') {
      if (lastStar === -1 || lastStar === i - 1) {
        lastStar = i;
        if (firstStar === -1) firstStar = i;
      } else {
        needWildcard = true; // a second run of `*`s
        break;
      }
    }
  }
  if (needWildcard) return new WildcardMatcher(operand(value), childMatching, sep);
  if (firstStar === -1) return new EqualsMatcher(operand(value), childMatching, sep);
  if (firstStar === 0) {
    const suffix = value.slice(lastStar + 1);
    return suffix === '' ? null : new EndsWithMatcher(operand(suffix), childMatching, sep);
  }
  if (lastStar !== value.length - 1) return new WildcardMatcher(operand(value), childMatching, sep);
  return new StartsWithMatcher(operand(value.slice(0, firstStar)), childMatching, sep);
}

function buildRecursive(value: string, opts: MatcherOptions, family: MatcherFamily): Built {
  const sep = opts.pathSeparator;
  if (opts.wildCard && value === '*') return null;
  const operand = compilePolicyValue(value, opts);
  if (opts.wildCard && hasWildcard(value)) {
    return family === 'url'
      ? new UrlRecursiveWildcardMatcher(operand, false, sep)
      : new RecursiveWildcardMatcher(operand, true, sep);
  }
  return new RecursivePathMatcher(operand, family === 'path', sep);
}

/** Cheap, static tests first; dynamic values (expanded per call) last. */
function cost(m: ValueMatcher): number {
  const base =
    m instanceof EqualsMatcher ? 1
    : m instanceof StartsWithMatcher || m instanceof EndsWithMatcher ? 2
    : m instanceof RecursivePathMatcher ? 3
    : 4;
  return base + (m.dynamic ? 8 : 0);
}

/**
 * The same few request values (database, table, column) are lower-cased for every candidate
 * policy of a request: a small identity-keyed cache saves repeating it.
 */
const LC_SIZE = 8;
const lcFrom: string[] = new Array<string>(LC_SIZE).fill('');
const lcTo: string[] = new Array<string>(LC_SIZE).fill('');
let lcNext = 0;
function lowerCase(v: string): string {
  for (let i = 0; i < LC_SIZE; i++) if (lcFrom[i] === v) return lcTo[i]!;
  const lower = v.toLowerCase();
  lcFrom[lcNext] = v;
  lcTo[lcNext] = lower;
  lcNext = (lcNext + 1) % LC_SIZE;
  return lower;
}

export function createResourceMatcher(resourceDef: ResourceDefLike, policyResource: PolicyResourceLike | undefined): ResourceMatcher {
  const opts = parseMatcherOptions(resourceDef.matcherOptions);
  const family = familyOf(resourceDef.matcher);
  const recursive = family !== 'default' && policyResource?.isRecursive === true;
  const isExcludes = policyResource?.isExcludes === true;
  const values = (policyResource?.values ?? []).filter((v) => typeof v === 'string' && v !== '');

  let matchAny = values.length === 0;
  const matchers: ValueMatcher[] = [];
  for (const raw of values) {
    let value = raw;
    // A recursive directory written with its trailing separator means "everything below".
    // Only the path matcher rewrites it; the URL matcher compares `dir/` as `dir` itself
    // or below (Ranger's test_policyengine_hive: `…/abcd/` grants `…/abcd`).
    if (recursive && family === 'path' && opts.wildCard && value.endsWith(opts.pathSeparator)) value += '*';
    const built = recursive ? buildRecursive(value, opts, family) : buildPlain(value, opts, family === 'path');
    if (built === null) {
      matchAny = true;
      break;
    }
    matchers.push(built);
  }
  if (matchAny) matchers.length = 0;
  matchers.sort((a, b) => cost(a) - cost(b));
  const isDynamic = matchers.some((m) => m.dynamic);

  // Quoted values ("Name") compare case-sensitively where the option is on; the path
  // matchers and recursive URL matcher only know ignoreCase.
  const quoteAware = opts.ignoreCase && opts.quotedCaseSensitive && family !== 'path' && !recursive;
  const subjectOf = (v: string): Subject => {
    const sensitive = !opts.ignoreCase || (quoteAware && v.length > 0 && opts.quoteChars.includes(v[0]!));
    return { text: sensitive ? v : lowerCase(v), sensitive };
  };

  const matchOne = (v: string, scope: ElementScope, ctx: MatchContext | undefined): ElementMatch => {
    const s = subjectOf(v);
    let ret: ElementMatch = 'NONE';
    for (const m of matchers) {
      if (m.isMatch(s, ctx)) return 'SELF';
      if (ret === 'NONE') {
        if (scope === 'SELF_OR_PREFIX' && m.isPrefixMatch(s, ctx)) ret = 'PREFIX';
        else if (scope === 'SELF_OR_CHILD' && m.isChildMatch(s, ctx)) ret = 'CHILD';
      }
    }
    return ret;
  };

  const getMatchType = (value: RequestValue, scope: ElementScope = 'SELF', ctx?: MatchContext): ElementMatch => {
    // null, "" and "*" ask for all values: only a match-any policy resource covers them.
    const allRequested = value === null || value === undefined || value === '' || value === '*';
    let ret: ElementMatch = 'NONE';
    if (matchAny || (allRequested && scope !== 'SELF_OR_PREFIX')) {
      ret = matchAny ? 'SELF' : 'NONE';
    } else if (typeof value === 'string') {
      ret = matchOne(value, scope, ctx);
    } else if (Array.isArray(value)) {
      for (const v of value as readonly string[]) {
        const r = matchOne(v, scope, ctx);
        if (r !== 'NONE') ret = r;
        if (ret === 'SELF') break;
      }
    }
    if (!isExcludes) return ret;
    // Excludes invert the answer, except that "all values" of a policy that names only some
    // values stays unmatched (it is neither inside nor wholly outside the exclusion).
    if (allRequested && !matchAny) return ret;
    return ret === 'NONE' ? 'SELF' : 'NONE';
  };

  return {
    resourceName: resourceDef.name,
    isMatchAny: matchAny,
    isDynamic,
    isExcludes,
    values,
    getMatchType,
    isMatch(value, scope = 'SELF', ctx) {
      // The common case, one concrete value compared as itself: first matching value decides.
      if (scope === 'SELF' && typeof value === 'string' && value !== '' && value !== '*' && !matchAny) {
        const s = subjectOf(value);
        let found = false;
        for (let i = 0; i < matchers.length; i++)
          if (matchers[i]!.isMatch(s, ctx)) {
            found = true;
            break;
          }
        return isExcludes ? !found : found;
      }
      const t = getMatchType(value, scope, ctx);
      return t === 'SELF' || (t === 'PREFIX' && scope === 'SELF_OR_PREFIX') || (t === 'CHILD' && scope === 'SELF_OR_CHILD');
    },
    isCompleteMatch(value) {
      let ret: boolean;
      if (values.length === 0) ret = value === null || value === undefined || value === '';
      else if (values.length !== 1) return false;
      else if (matchAny) ret = value === null || value === undefined || /^\**$/.test(value);
      else if (value === null || value === undefined) ret = false;
      else {
        const s = subjectOf(value);
        ret = s.sensitive ? value === values[0] : s.text === values[0]!.toLowerCase();
      }
      return isExcludes ? !ret : ret;
    },
    indexHints() {
      if (matchAny || isExcludes) return null;
      const hints = matchers.map((m) => m.hint());
      return hints.some((h) => h.kind === 'any') ? null : hints;
    },
  };
}
