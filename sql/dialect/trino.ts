/**
 * The Trino renderings of the registry's functions (each entry's `engines.trino`, sql/dialect/rule.ts),
 * for the Trino printer (sql/trino/print.ts). A rendering prints only the forms whose Trino answer is
 * PostgreSQL's answer, by the constants and value classes it can see; every other form is refused with
 * 0A000 naming it. Functions that reach DuckDB as written have no entry; their Trino table is
 * sql/trino/functions.ts.
 */
import type { EngineCall, EngineRendering, RenderedArg, ValueClass } from './rule.js';
import type { PgNode } from '../walk.js';

/** An integer constant's value (libpg-query: `ival`, or an `fval` of digits beyond int4), else undefined. */
export function intValue(n: PgNode | undefined): number | undefined {
  const c = n?.['A_Const'];
  if (!c) return undefined;
  if (c['ival']) return Number(c['ival']['ival'] ?? 0);
  const f = c['fval']?.['fval'];
  return typeof f === 'string' && /^-?\d+$/.test(f) && Number.isSafeInteger(Number(f)) ? Number(f) : undefined;
}

/** A string constant's text, else undefined. */
export function stringValue(n: PgNode | undefined): string | undefined {
  const c = n?.['A_Const'];
  return c?.['sval'] ? String(c['sval']['sval'] ?? '') : undefined;
}

export const trinoString = (s: string): string => `'${s.replace(/'/g, "''")}'`;

const arity = (name: string, args: readonly RenderedArg[], call: EngineCall, ...counts: number[]): void => {
  if (!counts.includes(args.length)) call.refuse(`${name} with ${args.length} arguments`);
};

/**
 * A value as varchar for concatenation (Trino casts nothing implicitly to varchar): text as it is; integers,
 * decimals and dates cast, whose text is PostgreSQL's. Booleans (PostgreSQL 't'), doubles, timestamps and
 * values of a type the printer cannot see have another text on Trino: refused.
 */
export function asText(a: RenderedArg, call: EngineCall, what: string): string {
  if (a.node['A_Const']?.['isnull']) return a.text;
  const k = call.classOf(a.node);
  if (k === 'text') return a.text;
  if (k === 'integer' || k === 'decimal' || k === 'date') return `CAST(${a.text} AS varchar)`;
  return call.refuse(`${what} of ${k ? `a ${k} value` : 'a value whose type the printer cannot see'}`);
}

/** A positive integer constant (a position), a non-negative one (a length). */
function constantAtLeast(a: RenderedArg | undefined, min: number): boolean {
  const v = intValue(a?.node);
  return v !== undefined && v >= min;
}

const substr: EngineRendering = {
  // PostgreSQL counts a start below 1 into the length and errs on a negative length; Trino answers '' for a
  // start of 0 and counts a negative one from the end. Equal for constant starts >= 1 and lengths >= 0.
  render: (args, call) => {
    arity('substr', args, call, 2, 3);
    if (!constantAtLeast(args[1], 1) || (args[2] && !constantAtLeast(args[2], 0))) {
      call.refuse('substr with a start that is not a constant >= 1 or a length that is not a constant >= 0');
    }
    return `substr(${args.map((a) => a.text).join(', ')})`;
  },
};

const DATE_TRUNC_FIELDS: ReadonlySet<string> = new Set(['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']);

/**
 * EXTRACT fields whose Trino value is PostgreSQL's: the same integer (PostgreSQL's numeric of scale 0 prints
 * alike). dow is Sunday 0 in PostgreSQL, Sunday 7 in Trino; second and epoch carry fractions Trino drops.
 */
const EXTRACT_FIELDS: Readonly<Record<string, (x: string) => string>> = {
  year: (x) => `EXTRACT(YEAR FROM ${x})`,
  quarter: (x) => `EXTRACT(QUARTER FROM ${x})`,
  month: (x) => `EXTRACT(MONTH FROM ${x})`,
  day: (x) => `EXTRACT(DAY FROM ${x})`,
  hour: (x) => `EXTRACT(HOUR FROM ${x})`,
  minute: (x) => `EXTRACT(MINUTE FROM ${x})`,
  week: (x) => `EXTRACT(WEEK FROM ${x})`,
  doy: (x) => `EXTRACT(DOY FROM ${x})`,
  isodow: (x) => `EXTRACT(DOW FROM ${x})`,
  dow: (x) => `(EXTRACT(DOW FROM ${x}) % 7)`,
};

/** Zone-free classes: a timestamptz's fields depend on the session's zone, which the backend has not set yet. */
const LOCAL_TIME: ReadonlySet<ValueClass | undefined> = new Set(['date', 'timestamp']);

/**
 * A PostgreSQL regular expression the Trino engine (Joni, Java syntax) reads alike: literal characters,
 * bracket classes of literal characters and ranges, groups, alternation and quantifiers. `.`, anchors,
 * backslash classes and escapes (whose meanings differ between the two flavours) are refused, but for the
 * data gate's own character classes (policy/rewrite/masks.ts CLASS_PATTERN), which are RE2's and Java's
 * spelling alike and which the Trino suite checks value by value.
 */
const SAFE_PATTERN = /^(?:[A-Za-z0-9 _,;:'"!#%&=<>@`~/-]|\[\^?(?:[A-Za-z0-9 _,;:'"!#%&=<>@`~/]|[A-Za-z0-9]-[A-Za-z0-9])+\]|[()|*+?]|\{\d+(?:,\d*)?\})*$/;
/**
 * Whether a pattern of SAFE_PATTERN's grammar can match the empty string: where the engines place the
 * replacements of empty matches (after a match, at the end) is where they may disagree, so such a pattern is refused.
 */
export function matchesEmpty(pattern: string): boolean {
  let i = 0;
  const alternation = (): boolean => {
    let nullable = sequence();
    while (pattern[i] === '|') {
      i++;
      nullable = sequence() || nullable;
    }
    return nullable;
  };
  const sequence = (): boolean => {
    let nullable = true;
    while (i < pattern.length && pattern[i] !== '|' && pattern[i] !== ')') {
      let atom: boolean;
      if (pattern[i] === '(') {
        i++;
        atom = alternation();
        i++; // ')'
      } else if (pattern[i] === '[') {
        i = pattern.indexOf(']', i + 2) + 1;
        atom = false;
      } else {
        i++;
        atom = false;
      }
      const q = pattern[i];
      if (q === '*' || q === '?') {
        i++;
        atom = true;
      } else if (q === '+') i++;
      else if (q === '{') {
        const m = /^\{(\d+)(?:,\d*)?\}/.exec(pattern.slice(i))!;
        i += m[0].length;
        if (Number(m[1]) === 0) atom = true;
      }
      nullable &&= atom;
    }
    return nullable;
  };
  return alternation();
}

const GATE_CLASSES: ReadonlySet<string> = new Set([
  '[^\\P{Lu}\\x{10000}-\\x{10FFFF}]',
  '[^\\P{Ll}\\x{10000}-\\x{10FFFF}]',
  '[^\\P{Nd}\\x{10000}-\\x{10FFFF}]',
  '[^\\p{Lu}\\p{Ll}\\p{Nd}\\x{10000}-\\x{10FFFF}]',
  '[\\x{10000}-\\x{10FFFF}]',
]);

/**
 * PostgreSQL's replacement text (`\1`…`\9` a group, `\\` a backslash, the rest literal) in Trino's (`$1`, `\$`,
 * `\\`); `\&` and a backslash before anything else are refused.
 */
function trinoReplacement(s: string, call: EngineCall): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '$') out += '\\$';
    else if (ch !== '\\') out += ch;
    else {
      const next = s[++i];
      if (next === '\\') out += '\\\\';
      else if (next !== undefined && /[1-9]/.test(next)) out += `$${next}`;
      else call.refuse(`regexp_replace with the replacement escape \\${next ?? ''}`);
    }
  }
  return out;
}

const regexpReplace: EngineRendering = {
  // Trino replaces every match: only the 'g' form is PostgreSQL's. Pattern and replacement must be constants.
  render: (args, call) => {
    arity('regexp_replace', args, call, 3, 4);
    const flags = args.length === 4 ? stringValue(args[3]!.node) : '';
    if (flags !== 'g') call.refuse(`regexp_replace without the flag 'g' (Trino replaces every match)`);
    const pattern = stringValue(args[1]!.node);
    const replacement = stringValue(args[2]!.node);
    if (pattern === undefined || replacement === undefined) call.refuse('regexp_replace with a pattern or replacement that is not a constant');
    if (!GATE_CLASSES.has(pattern!) && (!SAFE_PATTERN.test(pattern!) || matchesEmpty(pattern!))) call.refuse(`the regular expression ${trinoString(pattern!)}`);
    return `regexp_replace(${args[0]!.text}, ${trinoString(pattern!)}, ${trinoString(trinoReplacement(replacement!, call))})`;
  },
};

const aggregate = (name: string, accepts: (k: ValueClass | undefined) => string | undefined): EngineRendering => ({
  render: (args, call) => {
    arity(name, args, call, 1);
    const refusal = accepts(call.classOf(args[0]!.node));
    if (refusal) call.refuse(refusal);
    return `${name}(${call.distinct ? 'DISTINCT ' : ''}${args[0]!.text})`;
  },
});

/** The registry's functions the Trino printer renders, by PostgreSQL name. */
export const TRINO_RENDERINGS: Readonly<Record<string, EngineRendering>> = {
  length: {
    render: (args, call) => {
      arity('length', args, call, 1);
      return `length(${args[0]!.text})`;
    },
  },
  substr,
  substring: substr,
  concat: {
    // PostgreSQL's concat skips NULLs; Trino's is NULL when any argument is (and wants two or more).
    render: (args, call) => {
      if (args.length === 0) call.refuse('concat without arguments');
      const parts = args.map((a) => `coalesce(${asText(a, call, 'concat')}, '')`);
      return parts.length === 1 ? parts[0]! : `concat(${parts.join(', ')})`;
    },
  },
  round: {
    // numeric rounds half away from zero on both; PostgreSQL's double precision rounds half to even
    render: (args, call) => {
      arity('round', args, call, 1, 2);
      if (call.classOf(args[0]!.node) !== 'decimal') call.refuse('round of a value that is not numeric');
      if (args[1] && intValue(args[1].node) === undefined) call.refuse('round to a number of places that is not a constant');
      return `round(${args.map((a) => a.text).join(', ')})`;
    },
  },
  date_trunc: {
    render: (args, call) => {
      arity('date_trunc', args, call, 2);
      const field = stringValue(args[0]!.node)?.toLowerCase();
      if (field === undefined || !DATE_TRUNC_FIELDS.has(field)) call.refuse(`date_trunc to ${field ?? 'a field that is not a constant'}`);
      // of a date PostgreSQL answers a timestamp with time zone, Trino a date
      if (call.classOf(args[1]!.node) !== 'timestamp') call.refuse('date_trunc of a value that is not a timestamp');
      return `date_trunc(${trinoString(field!)}, ${args[1]!.text})`;
    },
  },
  extract: {
    render: (args, call) => {
      arity('extract', args, call, 2);
      const field = stringValue(args[0]!.node)?.toLowerCase();
      const render = field === undefined ? undefined : EXTRACT_FIELDS[field];
      if (!render || !Object.hasOwn(EXTRACT_FIELDS, field!)) call.refuse(`EXTRACT(${field ?? '?'})`);
      if (!LOCAL_TIME.has(call.classOf(args[1]!.node))) call.refuse('EXTRACT from a value that is not a date or a timestamp');
      return render!(args[1]!.text);
    },
  },
  regexp_replace: regexpReplace,
  sha256: {
    render: (args, call) => {
      arity('sha256', args, call, 1);
      const literal = stringValue(args[0]!.node);
      // an unknown literal is bytea input: its UTF-8 bytes when it has no escapes
      if (literal !== undefined) {
        if (literal.includes('\\')) call.refuse('sha256 of a bytea literal with escapes');
        return `sha256(to_utf8(${args[0]!.text}))`;
      }
      if (call.classOf(args[0]!.node) !== 'binary') call.refuse('sha256 of a value that is not bytea');
      return `sha256(${args[0]!.text})`;
    },
  },
  // PostgreSQL has no sum of text, booleans or dates either; an interval's sum is PostgreSQL's own arithmetic
  sum: aggregate('sum', (k) => (k === 'integer' || k === 'decimal' || k === 'double' || k === 'real' || k === undefined ? undefined : `sum of a ${k} value`)),
  // PostgreSQL has no min / max of booleans (42883); Trino answers
  min: aggregate('min', (k) => (k === 'boolean' ? 'min of a boolean' : k === undefined ? 'min of a value whose type the printer cannot see' : undefined)),
  max: aggregate('max', (k) => (k === 'boolean' ? 'max of a boolean' : k === undefined ? 'max of a value whose type the printer cannot see' : undefined)),
  
  // PostgreSQL's avg of integers and numerics is a numeric of its own scale; Trino's a double or the input's scale
  avg: aggregate('avg', (k) => (k === 'double' ? undefined : 'avg of a value that is not double precision')),
};
