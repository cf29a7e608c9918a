/**
 * PostgreSQL's formatting and text functions DuckDB spells differently or
 * lacks, as registry rules (sql/dialect/registry.ts): to_char / to_date / to_timestamp / to_number with
 * a constant template, format() with a constant format string, initcap,
 * regexp_matches (a set of text[]) and regexp_match (the first match), SIMILAR TO, pg_typeof, the clock
 * functions, EXTRACT / date_part typed as PostgreSQL's, and int4 results where DuckDB answers bigint. Everything becomes
 * DuckDB SQL (built-ins or the emulation's macros); a template or pattern
 * known only at run time is refused rather than guessed.
 */
import { emulated, emulatedCall } from '../emulation.js';
import { isUtc, wallClock, zoneOffset, type SessionZone } from '../sessionZone.js';
import { SqlError, pos, undefinedFunction } from '../errors.js';
import { ownTable } from '../ownNames.js';
import type { Call, Rule } from './rule.js';
import { boolConst, constText, containsSubquery, ENGINE_CALLS, intConst, replaceNode, strConst, strNode, type Fields, type PgNode, type Visit } from '../walk.js';

/** Built-ins PostgreSQL types int4 where DuckDB answers BIGINT. */
const INT4_RESULTS: ReadonlySet<string> = new Set([
  'length', 'char_length', 'character_length', 'octet_length', 'bit_length', 'strpos', 'position', 'array_length',
  'cardinality', 'ascii',
]);

const call = (name: string | PgNode[], ...args: PgNode[]): PgNode => ({
  FuncCall: { funcname: typeof name === 'string' ? [strNode(name)] : name, ...(args.length ? { args } : {}), funcformat: 'COERCE_EXPLICIT_CALL' },
});
const cast = (arg: PgNode, type: string, typmods?: PgNode[]): PgNode => ({
  TypeCast: { arg, typeName: { names: [strNode(type)], typemod: -1, ...(typmods ? { typmods } : {}) } },
});
const concat = (parts: PgNode[]): PgNode =>
  parts.length === 0 ? strConst('') : parts.reduce((a, b) => ({ A_Expr: { kind: 'AEXPR_OP', name: [strNode('||')], lexpr: a, rexpr: b } }));

/**
 * A copy of a user expression that must appear twice. Never of one holding a
 * subquery: the data gate rewrites the table references resolution found, and
 * a copy's references would not be among them.
 */
function dup(node: PgNode, location: unknown): PgNode {
  if (containsSubquery(node)) {
    throw new SqlError('0A000', 'a subquery as an argument of this function is not supported', pos(location));
  }
  return structuredClone(node);
}

const refuseZoned = (location: unknown): never => {
  throw new SqlError('0A000', 'to_char of a value whose type is known only at run time (a parameter) is not supported under a TimeZone other than UTC', pos(location));
};
const needConst = (what: string, location: unknown) => new SqlError('0A000', `${what} that is not a constant is not supported`, pos(location));

// ------------------------------------------------------------ date/time templates
/**
 * PostgreSQL template patterns (formatting.c) as strftime pieces, longest
 * first. `FM` drops the padding of the next pattern. Month and Day names are
 * blank-padded to 9 characters as PostgreSQL does.
 */
const DATE_PATTERNS: [string, (x: PgNode, fm: boolean) => PgNode][] = [
  // ISO 8601 year, week (01-53) and day of week (1 Monday to 7); WW and W count weeks from the first day of the year
  // and of the month; J is the Julian day
  // the UTC offset: the engine computes and prints in UTC (server/engine.ts), so every other pattern prints the UTC
  // clock and the offset that goes with it is +00 (PostgreSQL's under TimeZone UTC); strftime keeps a NULL NULL
  ['OF', (x, fm) => strf(x, fm ? '+0' : '+00')],
  ['TZH', (x) => strf(x, '+00')],
  ['TZM', (x) => strf(x, '00')],
  ['IYYY', (x) => strf(x, '%G')],
  ['IW', (x, fm) => (fm ? cast(call('weekofyear', x), 'text') : strf(x, '%V'))],
  ['ID', (x) => cast(call('isodow', x), 'text')],
  ['WW', (x, fm) => weekOf(call('dayofyear', x), fm)],
  ['J', (x) => cast(cast(call('floor', call('julian', x)), 'int8'), 'text')],
  ['HH24', (x) => strf(x, '%H')],
  ['HH12', (x, fm) => (fm ? strf(x, '%-I') : strf(x, '%I'))],
  ['YYYY', (x) => strf(x, '%Y')],
  ['MONTH', (x, fm) => pad(call('upper', strf(x, '%B')), fm)],
  ['Month', (x, fm) => pad(strf(x, '%B'), fm)],
  ['month', (x, fm) => pad(call('lower', strf(x, '%B')), fm)],
  ['DAY', (x, fm) => pad(call('upper', strf(x, '%A')), fm)],
  ['Day', (x, fm) => pad(strf(x, '%A'), fm)],
  ['day', (x, fm) => pad(call('lower', strf(x, '%A')), fm)],
  ['MON', (x) => call('upper', strf(x, '%b'))],
  ['Mon', (x) => strf(x, '%b')],
  ['mon', (x) => call('lower', strf(x, '%b'))],
  ['DDD', (x, fm) => (fm ? strf(x, '%-j') : strf(x, '%j'))],
  ['DY', (x) => call('upper', strf(x, '%a'))],
  ['Dy', (x) => strf(x, '%a')],
  ['dy', (x) => call('lower', strf(x, '%a'))],
  ['YY', (x) => strf(x, '%y')],
  ['MM', (x, fm) => (fm ? strf(x, '%-m') : strf(x, '%m'))],
  ['DD', (x, fm) => (fm ? strf(x, '%-d') : strf(x, '%d'))],
  ['HH', (x, fm) => (fm ? strf(x, '%-I') : strf(x, '%I'))],
  ['MI', (x) => strf(x, '%M')],
  ['SS', (x) => strf(x, '%S')],
  ['MS', (x) => strf(x, '%g')],
  ['US', (x) => strf(x, '%f')],
  ['AM', (x) => strf(x, '%p')],
  ['PM', (x) => strf(x, '%p')],
  ['Q', (x) => cast(call('quarter', x), 'text')],
  ['W', (x) => weekOf(call('dayofmonth', x), true)],
  ['D', (x) => cast(call('dayofweek', x), 'text')],
];
// PostgreSQL reads the numeric patterns in lower case too (yyyy-mm-dd hh24:mi:ss); am / pm print in lower case
for (const lower of ['hh24', 'hh12', 'yyyy', 'iyyy', 'ddd', 'yy', 'mm', 'dd', 'hh', 'mi', 'ss', 'ms', 'us', 'iw', 'id', 'ww']) {
  const upper = DATE_PATTERNS.find(([p]) => p === lower.toUpperCase())!;
  DATE_PATTERNS.push([lower, upper[1]]);
}
DATE_PATTERNS.push(['am', (x) => call('lower', strf(x, '%p'))], ['pm', (x) => call('lower', strf(x, '%p'))]);
const strf = (x: PgNode, f: string): PgNode => call('strftime', x, strConst(f));
/** (day - 1) / 7 + 1 as text, two digits unless FM. */
const weekOf = (day: PgNode, fm: boolean): PgNode => {
  const minus1: PgNode = { A_Expr: { kind: 'AEXPR_OP', name: [strNode('-')], lexpr: day, rexpr: intConst(1) } };
  const week: PgNode = { A_Expr: { kind: 'AEXPR_OP', name: [strNode('+')], lexpr: { A_Expr: { kind: 'AEXPR_OP', name: [strNode('//')], lexpr: minus1, rexpr: intConst(7) } }, rexpr: intConst(1) } };
  return fm ? cast(week, 'text') : call('lpad', cast(week, 'text'), intConst(2), strConst('0'));
};
const pad = (s: PgNode, fm: boolean): PgNode => (fm ? s : call('rpad', s, intConst(9), strConst(' ')));

/**
 * A to_char template piece by piece: a quoted literal, a pattern `pick` finds
 * at a position (after an optional FM prefix), or one character of literal
 * text. `pick` may throw to refuse a pattern it knows.
 */
function renderTemplate(template: string, pick: (at: number) => { length: number; node: (fm: boolean) => PgNode } | undefined): PgNode {
  const parts: PgNode[] = [];
  let literal = '';
  const flush = () => {
    if (literal) parts.push(strConst(literal));
    literal = '';
  };
  for (let i = 0; i < template.length; ) {
    if (template[i] === '"') {
      const end = template.indexOf('"', i + 1);
      literal += template.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? template.length : end + 1;
      continue;
    }
    const fm = template.startsWith('FM', i);
    const j = fm ? i + 2 : i;
    const hit = pick(j);
    if (hit) {
      flush();
      parts.push(hit.node(fm));
      i = j + hit.length;
      continue;
    }
    literal += template[i];
    i++;
  }
  flush();
  return concat(parts);
}

const OFFSET_PATTERNS: ReadonlySet<string> = new Set(['OF', 'TZH', 'TZM']);

/**
 * A date or time through a template: `value` the wall clock (in the session's
 * zone for a timestamptz), `offset` its UTC offset in seconds there (OF, TZH,
 * TZM), or undefined for the UTC offset +00.
 */
function dateTemplate(value: () => PgNode, template: string, location: unknown, offset?: () => PgNode): PgNode {
  return renderTemplate(template, (j) => {
    // TZ / tz: the zone's abbreviation (EST, CEST), which the engine does not know
    if (/^(?:TZ|tz)(?![HMhm])/.test(template.slice(j))) {
      throw new SqlError('0A000', 'to_char template pattern "TZ" (a time zone abbreviation) is not supported: use OF for the offset', pos(location));
    }
    const hit = DATE_PATTERNS.find(([p]) => template.startsWith(p, j));
    if (!hit) return undefined;
    if (offset && OFFSET_PATTERNS.has(hit[0])) {
      return { length: hit[0].length, node: (fm: boolean) => emulatedCall('lg_offset_text', [offset(), strConst(hit[0]), boolConst(fm)]) };
    }
    // D: PostgreSQL's day of week is 1 (Sunday) to 7
    const node = (fm: boolean): PgNode =>
      hit[0] === 'D'
        ? cast({ A_Expr: { kind: 'AEXPR_OP', name: [strNode('+')], lexpr: call('dayofweek', value()), rexpr: intConst(1) } }, 'text')
        : hit[1](value(), fm);
    return { length: hit[0].length, node };
  });
}

// ------------------------------------------------------------ interval templates
/**
 * to_char(interval, template): PostgreSQL prints the interval's fields, not a
 * clock: HH24 the hours of its time part (27, 100; not reduced to a day),
 * HH/HH12 those hours modulo 12 (0 as 12), MI, SS, MS, US, DD its days, MM its
 * months, YYYY its years; zero-padded to two digits (HH24, HH, MI, SS take
 * three when negative: -03; DD and MM do not: -1), four for YYYY. Only an argument that is an interval by its spelling (a cast
 * or interval literal, make_interval, justify_*) comes here; any other pattern
 * in the template is refused.
 */
const INTERVAL_PATTERNS: [string, (x: PgNode, fm: boolean) => PgNode][] = [
  ['HH24', (x, fm) => ivf(call('hour', x), fm)],
  ['HH12', (x, fm) => ivf(hour12(x), fm)],
  ['YYYY', (x, fm) => (fm ? cast(call('year', x), 'text') : call('printf', strConst('%04d'), call('year', x)))],
  ['HH', (x, fm) => ivf(hour12(x), fm)],
  ['MI', (x, fm) => ivf(call('minute', x), fm)],
  ['SS', (x, fm) => ivf(call('second', x), fm)],
  ['MS', (x) => call('printf', strConst('%03d'), { A_Expr: { kind: 'AEXPR_OP', name: [strNode('//')], lexpr: fsec(x), rexpr: intConst(1000) } })],
  ['US', (x) => call('printf', strConst('%06d'), fsec(x))],
  // days and months: two digits, no third for a negative (-1 02)
  ['DD', (x, fm) => (fm ? cast(call('day', x), 'text') : call('printf', strConst('%02d'), call('day', x)))],
  ['MM', (x, fm) => (fm ? cast(call('month', x), 'text') : call('printf', strConst('%02d'), call('month', x)))],
  ['AM', (x) => ampm(x, 'AM', 'PM')],
  ['PM', (x) => ampm(x, 'AM', 'PM')],
  ['am', (x) => ampm(x, 'am', 'pm')],
  ['pm', (x) => ampm(x, 'am', 'pm')],
];
for (const lower of ['hh24', 'hh12', 'yyyy', 'hh', 'mi', 'ss', 'ms', 'us', 'dd', 'mm']) {
  INTERVAL_PATTERNS.push([lower, INTERVAL_PATTERNS.find(([p]) => p === lower.toUpperCase())![1]]);
}
const ivf = (n: PgNode, fm: boolean): PgNode => call(emulated('lg_to_char_ivf'), n, boolConst(fm));
const mod = (a: PgNode, b: number): PgNode => ({ A_Expr: { kind: 'AEXPR_OP', name: [strNode('%')], lexpr: a, rexpr: intConst(b) } });
const hour12 = (x: PgNode): PgNode => ({
  CaseExpr: { args: [{ CaseWhen: { expr: { A_Expr: { kind: 'AEXPR_OP', name: [strNode('=')], lexpr: mod(call('hour', x), 12), rexpr: intConst(0) } }, result: intConst(12) } }], defresult: mod(call('hour', structuredClone(x)), 12) },
});
const ampm = (x: PgNode, am: string, pm: string): PgNode => ({
  CaseExpr: { args: [{ CaseWhen: { expr: { A_Expr: { kind: 'AEXPR_OP', name: [strNode('>=')], lexpr: mod(call('hour', x), 24), rexpr: intConst(12) } }, result: strConst(pm) } }], defresult: strConst(am) },
});
/** the microseconds of the interval's second */
const fsec = (x: PgNode): PgNode => mod(call('microsecond', x), 1000000);

const INTERVAL_INVALID = ['MONTH', 'Month', 'month', 'MON', 'Mon', 'mon', 'DAY', 'Day', 'day', 'DY', 'Dy', 'dy', 'ID', 'OF', 'TZH', 'TZM', 'D'];
const INTERVAL_MAKERS: ReadonlySet<string> = new Set(['make_interval', 'justify_interval', 'justify_hours', 'justify_days']);
function isInterval(x: PgNode): boolean {
  const n = x as Fields;
  const tc = n['TypeCast'] as Fields | undefined;
  const typeNames = ((tc?.['typeName'] as Fields | undefined)?.['names'] ?? []) as Fields[];
  if (tc) return typeNames.length > 0 && typeNames[typeNames.length - 1]?.['String']?.sval === 'interval' && !(tc['typeName'] as Fields)['arrayBounds'];
  const fc = n['FuncCall'] as Fields | undefined;
  const fn = ((fc?.['funcname'] ?? []) as Fields[]).map((p) => p['String']?.sval);
  return fn.length > 0 && INTERVAL_MAKERS.has(String(fn[fn.length - 1]));
}

function intervalTemplate(value: () => PgNode, template: string, location: unknown): PgNode {
  return renderTemplate(template, (j) => {
    const hit = /^(DDD|ddd)/.test(template.slice(j)) ? undefined : INTERVAL_PATTERNS.find(([p]) => template.startsWith(p, j));
    if (hit) return { length: hit[0].length, node: (fm) => hit[1](value(), fm) };
    // PostgreSQL refuses the day and month names, D, ID and the offset for an interval (22007); the other date
    // patterns (DDD, J, IW, WW, Q, YY …) print what it makes of the fields as a date, not reproduced: refused
    if (/^(DDD|ddd)/.test(template.slice(j))) throw new SqlError('0A000', `to_char template pattern "${template.slice(j)}" for an interval is not supported`, pos(location));
    if (INTERVAL_INVALID.some((p) => template.startsWith(p, j))) {
      throw new SqlError('22007', 'invalid format specification for an interval value', pos(location), { hint: 'Intervals are not tied to specific calendar dates.' });
    }
    if (DATE_PATTERNS.some(([p]) => template.startsWith(p, j)) || template.startsWith('TZ', j)) {
      throw new SqlError('0A000', `to_char template pattern "${template.slice(j)}" for an interval is not supported`, pos(location));
    }
    return undefined;
  });
}

/** to_date / to_timestamp templates as strptime formats. */
const PARSE_PATTERNS: [string, string][] = [
  ['HH24', '%H'], ['HH12', '%I'], ['YYYY', '%Y'], ['Month', '%B'], ['MONTH', '%B'], ['month', '%B'], ['Mon', '%b'], ['MON', '%b'],
  ['mon', '%b'], ['DDD', '%j'], ['YY', '%y'], ['MM', '%m'], ['DD', '%d'], ['HH', '%I'], ['MI', '%M'], ['SS', '%S'], ['MS', '%g'],
  ['US', '%f'], ['AM', '%p'], ['PM', '%p'],
];

function parseTemplate(template: string, location: unknown): string {
  let out = '';
  for (let i = 0; i < template.length; ) {
    if (template.startsWith('FM', i)) {
      i += 2;
      continue;
    }
    const hit = PARSE_PATTERNS.find(([p]) => template.startsWith(p, i));
    if (hit) {
      out += hit[1];
      i += hit[0].length;
      continue;
    }
    const ch = template[i]!;
    if (/[A-Za-z]/.test(ch)) throw new SqlError('0A000', `template pattern "${template.slice(i)}" is not supported`, pos(location));
    out += ch === '%' ? '%%' : ch;
    i++;
  }
  return out;
}

// ------------------------------------------------------------ numeric templates
/**
 * to_char(number, '9,999.99'): 9 a digit (a leading zero shows as a blank), 0
 * a digit always shown, `.`/D the point, `,`/G a separator, FM no padding and
 * no trailing zeros in 9 positions; a leading column holds the sign; too many
 * digits print as #. Rounds half away from zero, as PostgreSQL does.
 */
export const NUMBER_TEMPLATE = /^(FM)?[90,G]*([.D][90]*)?$/;

/** A number template's digits (`9`, `0`, `,` and one `.`): how many, how many always shown, and the decimals. */
function digitLayout(t: string) {
  const [intPart, frac] = t.split('.') as [string, string | undefined];
  const zeroAt = intPart.indexOf('0');
  return {
    intPart,
    frac,
    scale: frac?.length ?? 0,
    digits: (intPart.match(/[90]/g) ?? []).length,
    minInt: zeroAt < 0 ? 0 : (intPart.slice(zeroAt).match(/[90]/g) ?? []).length,
    fracMin: frac ? frac.replace(/9+$/, '').length : 0,
  };
}

function numberTemplate(x: () => PgNode, template: string): PgNode {
  const fm = template.startsWith('FM');
  const t = (fm ? template.slice(2) : template).replace(/D/g, '.').replace(/G/g, ',');
  const { intPart, frac, scale, digits, minInt, fracMin } = digitLayout(t);
  const abs = call('abs', cast(x(), 'numeric', [intConst(38), intConst(10)]));
  const body = cast(cast(abs, 'numeric', [intConst(38), intConst(scale)]), 'text');
  // the sign of the rounded value: -0.4 under 999 prints 0, not -0
  const rounded = cast(cast(x(), 'numeric', [intConst(38), intConst(10)]), 'numeric', [intConst(38), intConst(scale)]);
  const neg: PgNode = { A_Expr: { kind: 'AEXPR_OP', name: [strNode('<')], lexpr: rounded, rexpr: intConst(0) } };
  const overflow = `${fm ? '' : ' '}${'#'.repeat(intPart.length)}${frac !== undefined ? `.${'#'.repeat(scale)}` : ''}`;
  return call(emulated('lg_to_char_num'), body, neg, intConst(digits), intConst(minInt), boolConst(intPart.includes(',')), boolConst(fm),
    boolConst(frac !== undefined), intConst(fracMin), intConst(1 + t.length), strConst(overflow));
}

/**
 * The sign forms: S before or after the digits (a + or - anchored to the
 * number), MI or PR after them (a - or blank; a negative value in angle
 * brackets), and L before or after (the currency symbol: a blank under
 * lc_monetary C, the only locale lakegate has). Anything else stays refused.
 */
export const SIGN_TEMPLATE = /^(FM)?(L)?(S)?(FM)?([90,.DG]*[90][90,.DG]*)(S|MI|PR)?(L)?$/;

function signTemplate(x: () => PgNode, template: string): PgNode | undefined {
  const m = SIGN_TEMPLATE.exec(template);
  if (!m) return undefined;
  const [, fm1, lead, sLead, fm2, digitsPart, trail, lTrail] = m as unknown as (string | undefined)[];
  if (digitsPart === undefined) return undefined;
  if ((sLead && trail) || (lead && lTrail) || (fm1 && fm2)) return undefined;
  const fm = !!(fm1 || fm2);
  const mode = sLead ? 'S<' : trail === 'S' ? 'S>' : trail;
  const t = digitsPart.replace(/D/g, '.').replace(/G/g, ',');
  if (!NUMBER_TEMPLATE.test(t)) return undefined;
  let out: PgNode;
  if (!mode) {
    out = numberTemplate(x, `${fm ? 'FM' : ''}${t}`);
  } else {
    const { intPart, frac, scale, digits, minInt, fracMin } = digitLayout(t);
    const rounded = cast(cast(x(), 'numeric', [intConst(38), intConst(10)]), 'numeric', [intConst(38), intConst(scale)]);
    const body = cast(call('abs', rounded), 'text');
    // the sign of the rounded value (-0.001 under S9.99 is +.00)
    const neg: PgNode = { A_Expr: { kind: 'AEXPR_OP', name: [strNode('<')], lexpr: structuredClone(rounded), rexpr: intConst(0) } };
    const hashes = `${'#'.repeat(intPart.length)}${frac !== undefined ? `.${'#'.repeat(scale)}` : ''}`;
    const width = t.length + (mode === 'MI' || mode === 'PR' ? 2 : 1);
    out = call(emulated('lg_to_char_snum'), body, neg, intConst(digits), intConst(minInt), boolConst(intPart.includes(',')), boolConst(fm),
      boolConst(frac !== undefined), intConst(fracMin), intConst(width), strConst(hashes), strConst(mode));
  }
  if (lead) return concat([strConst(' '), out]);
  if (lTrail) return concat([out, strConst(' ')]);
  return out;
}

function toNumber(s: PgNode, template: string): PgNode {
  const t = template.replace(/^FM/, '').replace(/D/g, '.');
  const scale = t.includes('.') ? (t.split('.')[1]!.match(/[90]/g) ?? []).length : 0;
  const digits = (t.match(/[90]/g) ?? []).length;
  const cleaned = call('regexp_replace', s, strConst('[^0-9.-]'), strConst(''), strConst('g'));
  return cast(cleaned, 'numeric', [intConst(Math.min(38, Math.max(digits, 1))), intConst(scale)]);
}

// ------------------------------------------------------------ format()
function formatCall(fmt: string, args: PgNode[], location: unknown): PgNode {
  const parts: PgNode[] = [];
  let literal = '';
  let next = 0;
  const flush = () => {
    if (literal) parts.push(strConst(literal));
    literal = '';
  };
  const re = /%(?:(\d+)\$)?(-)?(\d+)?([sIL%])/y;
  for (let i = 0; i < fmt.length; ) {
    if (fmt[i] !== '%') {
      literal += fmt[i++];
      continue;
    }
    re.lastIndex = i;
    const m = re.exec(fmt);
    if (!m) throw new SqlError('22023', 'unrecognized format() type specifier', pos(location));
    i = re.lastIndex;
    if (m[4] === '%') {
      literal += '%';
      continue;
    }
    const at = m[1] ? Number(m[1]) - 1 : next;
    next = at + 1;
    const arg = args[at];
    if (!arg) throw new SqlError('22023', 'too few arguments for format()', pos(location));
    const text: PgNode = cast(dup(arg, location), 'text');
    let piece: PgNode =
      m[4] === 's'
        ? ({ CoalesceExpr: { args: [text, strConst('')] } } as PgNode)
        : m[4] === 'I'
          ? call(emulated('lg_quote_ident'), text)
          : ({ CoalesceExpr: { args: [call(emulated('lg_quote_literal'), text), strConst('NULL')] } } as PgNode);
    if (m[3]) piece = call(m[2] ? 'rpad' : 'lpad', piece, { FuncCall: { funcname: [strNode('greatest')], args: [intConst(Number(m[3])), call('length', dup(piece, location))], funcformat: 'COERCE_EXPLICIT_CALL' } }, strConst(' '));
    flush();
    parts.push(piece);
  }
  flush();
  return concat(parts);
}

// ------------------------------------------------------------ SIMILAR TO
/** SQL's SIMILAR TO pattern as an RE2 pattern matched whole (PostgreSQL's similar_to_escape). */
export function similarToRegex(pattern: string, escape: string | null): string {
  let out = '';
  let inBracket = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (escape && ch === escape && i + 1 < pattern.length) {
      const next = pattern[++i]!;
      out += /[A-Za-z0-9]/.test(next) ? next : `\\${next}`;
      continue;
    }
    if (inBracket) {
      out += ch;
      if (ch === ']') inBracket = false;
      continue;
    }
    if (ch === '[') {
      inBracket = true;
      out += ch;
    } else if (ch === '%') out += '.*';
    else if (ch === '_') out += '.';
    else if ('|*+?{}()'.includes(ch)) out += ch;
    else if ('.^$\\'.includes(ch)) out += `\\${ch}`;
    else out += ch;
  }
  return `^(?:${out})$`;
}

export function transformSimilar(v: Visit): void {
  const f = v.fields;
  const r = (f['rexpr'] as Fields | undefined)?.['FuncCall'] as Fields | undefined;
  const args = (r?.['args'] ?? []) as unknown[];
  const pattern = constText(args[0]);
  if (pattern === undefined) throw needConst('a SIMILAR TO pattern', f['location']);
  const escape = args.length > 1 ? constText(args[1]) ?? null : '\\';
  const match = call('regexp_full_match', f['lexpr'] as PgNode, strConst(similarToRegex(pattern, escape)));
  const negate = String((f['name'] as unknown[] | undefined)?.map((n) => (n as Fields)['String']?.sval).pop()) === '!~';
  replaceNode(v.node, negate ? { BoolExpr: { boolop: 'NOT_EXPR', args: [match] } } : match);
}

// ------------------------------------------------------------ regexp_matches
/** regexp_matches(s, p [, flags]): a set of text[]; regexp_match(s, p [, flags]): the first match's text[], or NULL. */
function regexpMatches(args: PgNode[], location: unknown, name = 'regexp_matches'): PgNode {
  const [s, p, flagsNode] = args;
  const pattern = constText(p);
  if (pattern === undefined || (flagsNode && constText(flagsNode) === undefined)) throw needConst(`a ${name} pattern or flag`, location);
  const flags = flagsNode ? constText(flagsNode)! : '';
  if (name === 'regexp_match' && flags.includes('g')) {
    throw new SqlError('22023', 'regexp_match() does not support the "global" option', pos(location), { hint: 'Use the regexp_matches function instead.' });
  }
  if (/[^gi]/.test(flags)) throw new SqlError('0A000', `${name} flag "${flags}" is not supported`, pos(location));
  const re = strConst(flags.includes('i') ? `(?i)${pattern}` : pattern);
  // capture groups: ( not followed by ?
  const groups = (pattern.replace(/\\./g, '').match(/\((?!\?)/g) ?? []).length;
  const all = (g: number) => call('regexp_extract_all', dup(s!, location), structuredClone(re), intConst(g));
  let rows: PgNode;
  if (groups === 0) {
    rows = call(emulated('lg_regexp_rows'), all(0));
  } else {
    const lists = Array.from({ length: groups }, (_, k) => all(k + 1));
    rows = call(emulated('lg_regexp_rows_zip'), { A_ArrayExpr: { elements: lists } });
  }
  if (name === 'regexp_match') return call('list_extract', rows, intConst(1));
  if (!flags.includes('g')) rows = call('list_slice', rows, intConst(1), intConst(1));
  return call('unnest', rows);
}

// a cast to pg_catalog's type, as the deparser prints it (numeric(38,0), float8)
const typed = (arg: PgNode, type: string, typmods?: PgNode[]): PgNode => ({
  TypeCast: { arg, typeName: { names: [strNode('pg_catalog'), strNode(type)], typemod: -1, ...(typmods ? { typmods } : {}) } },
});

/** The fields of a timestamptz's UTC offset, from the offset in seconds. */
const OFFSET_FIELDS: Readonly<Record<string, (seconds: PgNode) => PgNode>> = ownTable({
  timezone: (s) => s,
  timezone_hour: (s) => emulatedCall('lg_zone_hour', [s]),
  timezone_minute: (s) => emulatedCall('lg_zone_minute', [s]),
});

/** Decimals PostgreSQL's EXTRACT (numeric since 14) shows per field, for timestamps and intervals. */
const EXTRACT_SCALE: Readonly<Record<string, number>> = ownTable({ second: 6, epoch: 6, milliseconds: 3 });

/**
 * EXTRACT is numeric and date_part double precision in PostgreSQL; DuckDB
 * answers integers (and drops the fraction of `second`, which is taken here
 * from the microseconds).
 */
function typedDatePart(v: Visit, name: string, args: unknown[], done: WeakSet<object>, zone: SessionZone, typedDispatchSafe: (n: unknown) => boolean): boolean {
  const f = v.fields;
  if (done.has(f) || args.length !== 2) return false;
  const field = constText(args[0])?.toLowerCase();
  // a timestamptz's fields are its wall clock's in the session's zone (its epoch is the instant's own)
  if (field !== undefined && (name === 'extract' || name === 'date_part')) {
    const offsetField = OFFSET_FIELDS[field];
    if (offsetField) {
      const offset = zoneOffset(args[1] as PgNode, zone);
      if (offset && !isUtc(zone)) {
        done.add(f);
        const value = offsetField(offset);
        replaceNode(v.node, f['funcformat'] === 'COERCE_SQL_SYNTAX' ? typed(value, 'numeric', [intConst(38), intConst(0)]) : typed(value, 'float8'));
        return true;
      }
    } else if (field !== 'epoch') (f['args'] as PgNode[])[1] = wallClock(args[1] as PgNode, zone);
  }
  if (name === 'extract' && f['funcformat'] === 'COERCE_SQL_SYNTAX' && field !== undefined) {
    done.add(f);
    const scale = EXTRACT_SCALE[field] ?? 0;
    const value: PgNode =
      field === 'second'
        ? { A_Expr: { kind: 'AEXPR_OP', name: [strNode('/')], lexpr: call('date_part', strConst('microseconds'), args[1] as PgNode), rexpr: { A_Const: { fval: { fval: '1000000.0' } } } } }
        : { FuncCall: f };
    // the epoch of a date has no fraction (numeric scale 0): a typed macro tells a date from a timestamp
    if (field === 'epoch' && typedDispatchSafe(args[1])) {
      replaceNode(v.node, { FuncCall: { funcname: emulated('lg_extract_epoch'), args: [value, structuredClone(args[1]) as PgNode], funcformat: 'COERCE_EXPLICIT_CALL' } });
      return true;
    }
    replaceNode(v.node, typed(value, 'numeric', [intConst(38), intConst(scale)]));
    return true;
  }
  if (name === 'date_part' && f['funcformat'] !== 'COERCE_SQL_SYNTAX') {
    done.add(f);
    replaceNode(v.node, typed({ FuncCall: f }, 'float8'));
    return true;
  }
  return false;
}

/** A formatting function's call as its rewrite sees it; `arity(n)` refuses another argument count with 42883. */
interface FormatCall {
  v: Visit;
  f: Fields;
  name: string;
  a: PgNode[];
  location: unknown;
  arity: (n: number) => void;
  zone: SessionZone;
}

/** Not a call this pass already typed, nor one of DuckDB's own it made under a PostgreSQL name (ENGINE_CALLS). */
const fresh = (c: Call): boolean => !c.done.has(c.f) && !ENGINE_CALLS.has(c.f);

const format = (names: readonly string[], macros: readonly string[], rewrite: (x: FormatCall) => boolean): Rule => ({
  phase: 'format',
  names,
  macros,
  applies: fresh,
  rewrite: (c) =>
    rewrite({
      v: c.v,
      f: c.f,
      name: c.name,
      a: c.args as PgNode[],
      location: c.f['location'],
      arity: (n) => {
        if (c.args.length !== n) throw undefinedFunction(c.name, c.f['location'], c.args);
      },
      zone: c.zone,
    }),
});

/** int4 in PostgreSQL, BIGINT in DuckDB: the call wrapped in a cast (and marked, so that meeting it again in the cast leaves it). */
const int4Result = (c: Call): boolean => {
  c.done.add(c.f);
  replaceNode(c.v.node, cast({ FuncCall: c.f }, 'int4'));
  return true;
};

/** The functions this module translates, each with the macros it calls: none reaches DuckDB by its own name. */
const FORMAT_CALLS: readonly Rule[] = [
  format(['to_char'], [], ({ v, a, location, arity, zone }) => {
    arity(2);
    const template = constText(a[1]);
    if (template === undefined) throw needConst('a to_char template', location);
    const x = a[0]!;
    if (isInterval(x)) {
      replaceNode(v.node, intervalTemplate(() => dup(x, location), template, location));
      return true;
    }
    if (NUMBER_TEMPLATE.test(template) && /[90]/.test(template)) {
      replaceNode(v.node, numberTemplate(() => dup(x, location), template));
      return true;
    }
    // a percent sign after the digits is copied as it stands (to_char(r * 100, 'FM990.0%'))
    const percent = /^(.*[90])(%+)$/.exec(template);
    if (percent && NUMBER_TEMPLATE.test(percent[1]!)) {
      replaceNode(v.node, concat([numberTemplate(() => dup(x, location), percent[1]!), strConst(percent[2]!)]));
      return true;
    }
    const signed = /[SLPM]/.test(template) ? signTemplate(() => dup(x, location), template) : undefined;
    if (signed) {
      replaceNode(v.node, signed);
      return true;
    }
    // other number patterns (V, EEEE, S or L elsewhere …) are refused rather than printed differently
    // (DD, DDD, MI, MM, ID alone are a date's)
    if (/^(FM)?[90,.DGSL$PRMIVE]+$/.test(template) && !/^(FM)?[DMI]{2,}$/.test(template)) throw new SqlError('0A000', `to_char number template "${template}" is not supported`, pos(location));
    // a timestamptz prints its wall clock and offset in the session's zone (sql/sessionZone.ts)
    if (!isUtc(zone) && !zoneOffset(dup(x, location), zone)) refuseZoned(location);
    const offset = isUtc(zone) ? undefined : () => zoneOffset(dup(x, location), zone)!;
    replaceNode(v.node, dateTemplate(() => wallClock(dup(x, location), zone), template, location, offset));
    return true;
  }),
  format(['to_date'], [], ({ v, a, location, arity }) => {
    arity(2);
    const template = constText(a[1]);
    if (template === undefined) throw needConst('a to_date template', location);
    replaceNode(v.node, cast(call('strptime', a[0]!, strConst(parseTemplate(template, location))), 'date'));
    return true;
  }),
  format(['to_number'], [], ({ v, a, location, arity }) => {
    arity(2);
    const template = constText(a[1]);
    if (template === undefined) throw needConst('a to_number template', location);
    replaceNode(v.node, toNumber(a[0]!, template));
    return true;
  }),
  format(['format'], [], ({ v, a, location }) => {
    const fmt = constText(a[0]);
    if (fmt === undefined) throw needConst('a format string', location);
    replaceNode(v.node, formatCall(fmt, a.slice(1), location));
    return true;
  }),
  ...['initcap', 'quote_ident', 'quote_literal', 'pg_typeof'].map((n) =>
    format([n], [`lg_${n}`], ({ f, name, arity }) => {
      arity(1);
      f['funcname'] = emulated(`lg_${name}`);
      return true;
    }),
  ),
  format(['div'], ['lg_idiv'], ({ f, arity }) => {
    arity(2);
    f['funcname'] = emulated('lg_idiv');
    return true;
  }),
  format(['clock_timestamp', 'statement_timestamp'], [], ({ v }) => {
    // the transaction's start, as now(): DuckDB has no clock of its own at statement level
    replaceNode(v.node, call('now'));
    return true;
  }),
  format(['regexp_matches', 'regexp_match'], [], ({ v, name, a, location, arity }) => {
    if (a.length < 2 || a.length > 3) arity(2);
    replaceNode(v.node, regexpMatches(a, location, name));
    return true;
  }),
];

/** Functions this module translates (authorization lets them through; none reaches DuckDB by its own name). */
export const FORMAT_FUNCTIONS: ReadonlySet<string> = new Set(FORMAT_CALLS.flatMap((r) => r.names));

/** The formatting and date-time rules of this module (sql/dialect/registry.ts), in their order. */
export const FORMAT_RULES: readonly Rule[] = [
  {
    phase: 'datePart',
    names: ['extract', 'date_part'],
    schemas: 'any',
    macros: ['lg_zone_hour', 'lg_zone_minute', 'lg_extract_epoch'],
    rewrite: (c) => typedDatePart(c.v, c.name, c.args, c.done, c.zone, c.typedSafe),
  },
  // before every other rewrite of these: the call wrapped in its int4 cast, the rest when it is met again inside
  { phase: 'format', names: [...INT4_RESULTS], applies: (c) => !c.done.has(c.f) && c.f['funcformat'] !== 'COERCE_SQL_SYNTAX', rewrite: int4Result },
  { phase: 'format', names: ['position'], applies: (c) => !c.done.has(c.f) && c.f['funcformat'] === 'COERCE_SQL_SYNTAX', rewrite: int4Result },
  ...FORMAT_CALLS,
  { phase: 'toTimestamp', names: ['to_timestamp'], schemas: 'any', rewrite: (c) => transformToTimestamp(c.v, c.args) },
];

/** to_timestamp(text, template): PostgreSQL's two-argument form (the one-argument form is DuckDB's). */
export function transformToTimestamp(v: Visit, args: unknown[]): boolean {
  if (args.length !== 2) return false;
  const template = constText(args[1]);
  if (template === undefined) throw needConst('a to_timestamp template', v.fields['location']);
  replaceNode(v.node, cast(call('strptime', args[0] as PgNode, strConst(parseTemplate(template, v.fields['location']))), 'timestamptz'));
  return true;
}
