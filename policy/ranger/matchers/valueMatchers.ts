/**
 * One policy value compiled into the cheapest test that decides it: equals, startsWith,
 * endsWith, a wildcard pattern, or (path matchers, isRecursive) "this path or below".
 *
 * Every matcher compares a Subject — the request value already lower-cased when the comparison
 * is case-insensitive — against its operand, which is lower-cased once at construction for
 * static values and per call only for dynamic (token/expression) values.
 */
import type { MatchContext } from './types.js';
import type { PolicyValue } from './dynamicValue.js';
import { hasWildcard, wildcardMatch, wildcardPrefixMatch } from './wildcard.js';

/** A request value prepared for comparison. */
export interface Subject {
  /** The value, lower-cased when `sensitive` is false. */
  text: string;
  sensitive: boolean;
}

/**
 * What an index may assume about the request values one policy value can match: equal to a
 * key, starting with one, or ending with one. `keys` holds the key as written and lower-cased
 * (each derived the way the matcher derives its operand), so a lookup with the request value and
 * its lower-cased form finds it whichever case rule applies.
 */
export type IndexHint = { kind: 'exact' | 'prefix' | 'suffix'; keys: string[] } | { kind: 'any' };

type StaticHint = { kind: 'exact' | 'prefix' | 'suffix'; key: string } | { kind: 'any' };

export abstract class ValueMatcher {
  private readonly lower: string;

  constructor(
    protected readonly operand: PolicyValue,
    /** Path matchers answer SELF_OR_CHILD; the default matcher never does. */
    protected readonly childMatching: boolean,
    protected readonly separator: string,
  ) {
    this.lower = operand.raw.toLowerCase();
  }

  get dynamic(): boolean {
    return this.operand.dynamic;
  }

  /** The operand in the subject's case, expanded for this request; null = unresolvable. */
  protected operandFor(s: Subject, ctx: MatchContext | undefined): string | null {
    if (!this.operand.dynamic) return s.sensitive ? this.operand.raw : this.lower;
    const v = this.operand.expand(ctx);
    if (v === null) return null;
    return s.sensitive ? v : v.toLowerCase();
  }

  isMatch(s: Subject, ctx: MatchContext | undefined): boolean {
    const op = this.operandFor(s, ctx);
    return op !== null && this.test(s.text, op);
  }

  /** SELF_OR_PREFIX: the request value is the beginning of something this value matches. */
  isPrefixMatch(s: Subject, ctx: MatchContext | undefined): boolean {
    const op = this.operandFor(s, ctx);
    return op !== null && this.testPrefix(s.text, op);
  }

  /** SELF_OR_CHILD: the request value is the parent (one level up) of what this value names. */
  isChildMatch(s: Subject, ctx: MatchContext | undefined): boolean {
    if (!this.childMatching || s.text === '') return false;
    const op = this.operandFor(s, ctx);
    if (op === null) return false;
    const parent = this.parentOf(op);
    if (parent === null) return false;
    const sep = this.separator;
    const text = s.text.endsWith(sep) ? s.text.slice(0, -1) : s.text;
    return this.test(text, parent);
  }

  hint(): IndexHint {
    if (this.operand.dynamic) return { kind: 'any' };
    const asWritten = this.staticHint(this.operand.raw);
    const lower = this.staticHint(this.lower);
    if (asWritten.kind === 'any' || lower.kind === 'any') return { kind: 'any' };
    return { kind: lower.kind, keys: asWritten.key === lower.key ? [lower.key] : [asWritten.key, lower.key] };
  }

  protected parentOf(op: string): string | null {
    const i = op.lastIndexOf(this.separator);
    return i === -1 ? null : op.slice(0, i);
  }

  protected abstract test(text: string, op: string): boolean;
  protected abstract testPrefix(text: string, op: string): boolean;
  protected abstract staticHint(operand: string): StaticHint;
}

export class EqualsMatcher extends ValueMatcher {
  protected test(text: string, op: string): boolean {
    return text === op;
  }
  protected testPrefix(text: string, op: string): boolean {
    return op.startsWith(text);
  }
  protected staticHint(key: string): StaticHint {
    return { kind: 'exact', key };
  }
}

/** Operand is the part before the trailing `*`s. */
export class StartsWithMatcher extends ValueMatcher {
  protected test(text: string, op: string): boolean {
    return text.startsWith(op);
  }
  protected testPrefix(text: string, op: string): boolean {
    return op.startsWith(text);
  }
  protected staticHint(key: string): StaticHint {
    return { kind: 'prefix', key };
  }
}

/** Operand is the part after the leading `*`s. */
export class EndsWithMatcher extends ValueMatcher {
  protected test(text: string, op: string): boolean {
    return text.endsWith(op);
  }
  protected testPrefix(): boolean {
    return true; // anything can be continued to end with the suffix
  }
  protected staticHint(key: string): StaticHint {
    return { kind: 'suffix', key };
  }
}

/** The literal run before the first wildcard: every full match starts with it. */
function literalPrefix(pattern: string): string {
  let i = 0;
  while (i < pattern.length && pattern[i] !== '*' && pattern[i] !== '?') i++;
  return pattern.slice(0, i);
}

export class WildcardMatcher extends ValueMatcher {
  protected test(text: string, op: string): boolean {
    return wildcardMatch(text, op);
  }
  protected testPrefix(text: string, op: string): boolean {
    return wildcardPrefixMatch(text, op);
  }
  protected staticHint(pattern: string): StaticHint {
    const key = literalPrefix(pattern);
    return key === '' ? { kind: 'any' } : { kind: 'prefix', key };
  }
}

/** isRecursive path without wildcards: the path itself (one trailing separator ignored) or below it. */
export class RecursivePathMatcher extends ValueMatcher {
  private base(op: string): string {
    return op.endsWith(this.separator) ? op.slice(0, -1) : op;
  }
  protected test(text: string, op: string): boolean {
    const base = this.base(op);
    return text === base || text.startsWith(base + this.separator);
  }
  protected testPrefix(text: string, op: string): boolean {
    return op.startsWith(text);
  }
  protected override parentOf(op: string): string | null {
    const base = this.base(op);
    const i = base.lastIndexOf(this.separator);
    return i === -1 ? null : base.slice(0, i);
  }
  override isChildMatch(s: Subject, ctx: MatchContext | undefined): boolean {
    // The parent is compared for equality, not "itself or below".
    if (s.text === '') return false;
    const op = this.operandFor(s, ctx);
    const parent = op === null ? null : this.parentOf(op);
    if (parent === null) return false;
    const text = s.text.endsWith(this.separator) ? s.text.slice(0, -1) : s.text;
    return text === parent;
  }
  protected staticHint(operand: string): StaticHint {
    return { kind: 'prefix', key: this.base(operand) };
  }
}

/**
 * isRecursive path with wildcards: some leading run of the request's path elements matches the
 * pattern (so `/a/*` covers `/a/b/c`). Leading literal pattern elements are compared element by
 * element first; a mismatch there ends the search, as in Ranger. A request ending in the
 * separator that names exactly the directory of a trailing `/*` (`/home/` for `/home/*`) matches.
 */
export function recursiveWildcardMatch(path: string, pattern: string, sep: string): boolean {
  if (path === '') return false;
  const elements = path.split(sep).filter((e) => e !== '');
  if (elements.length === 0) return wildcardMatch(path, pattern);
  const patternElements = pattern.split(sep).filter((e) => e !== '');
  let prefix = path.startsWith(sep) ? sep : '';
  let literalRun = true;
  for (let i = 0; i < elements.length; i++) {
    const e = elements[i]!;
    prefix += e;
    if (literalRun) {
      const pe = patternElements[i];
      if (pe !== undefined && !hasWildcard(pe)) {
        if (e !== pe) return false;
      } else {
        literalRun = false;
      }
    }
    if (!literalRun && wildcardMatch(prefix, pattern)) return true;
    prefix += sep;
  }
  if (!literalRun) return false;
  if (elements.length === patternElements.length) return true;
  return (
    path.endsWith(sep) &&
    elements.length === patternElements.length - 1 &&
    patternElements[patternElements.length - 1] === '*'
  );
}

export class RecursiveWildcardMatcher extends ValueMatcher {
  protected test(text: string, op: string): boolean {
    return recursiveWildcardMatch(text, op, this.separator);
  }
  protected testPrefix(text: string, op: string): boolean {
    return wildcardPrefixMatch(text, op);
  }
  protected staticHint(): StaticHint {
    // Elements are re-joined without empty ones, so the raw request need not share a prefix.
    return { kind: 'any' };
  }
}

/** `scheme://` followed by a path (exactly two slashes after the colon). */
function isUrl(value: string): boolean {
  const i = value.indexOf('://');
  return i !== -1 && !/:\/{3,}/.test(value);
}

/** The URL variant: split off `scheme://`, then grow the path element by element. */
export function urlRecursiveWildcardMatch(url: string, pattern: string, sep: string): boolean {
  const value = url.trim();
  if (value === '' || !isUrl(value)) return false;
  const colon = value.indexOf(':');
  const scheme = value.slice(0, colon + 3);
  const elements = value.slice(colon + 2).split(sep).filter((e) => e !== '');
  if (elements.length === 0) return wildcardMatch(url, pattern);
  let prefix = scheme + (url.startsWith(sep) ? sep : '');
  for (const e of elements) {
    prefix += e;
    if (wildcardMatch(prefix, pattern)) return true;
    prefix += sep;
  }
  return false;
}

export class UrlRecursiveWildcardMatcher extends ValueMatcher {
  protected test(text: string, op: string): boolean {
    return urlRecursiveWildcardMatch(text, op, this.separator);
  }
  protected testPrefix(text: string, op: string): boolean {
    return wildcardPrefixMatch(text, op);
  }
  protected staticHint(): StaticHint {
    return { kind: 'any' };
  }
}
