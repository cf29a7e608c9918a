/**
 * Casts PostgreSQL reads otherwise than DuckDB, by the type cast to, as
 * registry rules (sql/dialect/registry.ts): reg* names folded or resolved,
 * an array as text, jsonb, a timestamptz or interval literal in DuckDB's
 * words, a timestamptz's time, date and text in the session's zone, bit(n),
 * bytea input, varchar(n) / char(n) cut to n.
 */
import { emulated, INTERNAL_MACROS } from '../emulation.js';
import { byteaInputToHex } from '../bytea.js';
import { SqlError, pos } from '../errors.js';
import { ownTable } from '../ownNames.js';
import { regCast, regtypeText, splitQualifiedName } from '../regTypes.js';
import { effectiveSearchPath } from '../resolve.js';
import { wallClock, zoned, zonedLiteral, zonedText } from '../sessionZone.js';
import { constText, containsSubquery, intConst, names, replaceNode, strConst, strNode, type Fields, type PgNode } from '../walk.js';
import { arrayLike } from './builtin.js';
import type { DialectContext } from './context.js';
import { jsonbCast } from './json.js';
import { sizedBitProbe } from './numeric.js';
import type { CastRule, CastSite } from './rule.js';

const TEXT_TYPES = new Set(['text', 'varchar', 'name']);
const ISO_INTERVAL = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;
const ISO_UNITS = ['years', 'months', 'weeks', 'days', 'hours', 'minutes', 'seconds'];

/**
 * An interval literal in words DuckDB reads: ISO 8601's format with
 * designators (P1Y2M3DT4H5M6S) spelled out in units, a sign standing apart
 * from its number ('1 month - 1 day') joined to it (a plus sign dropped).
 * Anything else as written.
 */
export function pgIntervalText(text: string): string {
  const iso = ISO_INTERVAL.exec(text.trim());
  if (iso && /\d/.test(text)) {
    const parts = ISO_UNITS.flatMap((unit, i) => (iso[i + 1] === undefined ? [] : [`${iso[i + 1]} ${unit}`]));
    return parts.join(' ');
  }
  return text.replace(/(^|\s)([+-])\s*(?=[\d.])/g, (_, space: string, sign: string) => space + (sign === '-' ? '-' : ''));
}
/**
 * A constant's bits cast to bit(n) or varbit(n) (bit alone is bit(1) in a
 * cast): an integer's lowest n bits, sign-extended past its 32 or 64 (PostgreSQL's
 * bitfromint4/8); a bit string or a '0101' literal cut to n, and for bit(n) padded
 * with zeros on the right. Undefined where DuckDB's own cast answers (no
 * length on varbit, anything not constant, text that is not binary digits).
 */
function constantBits(arg: unknown, typname: string, mods: Fields[]): string | undefined {
  // varbit without a length keeps every bit
  const width = mods.length === 1 ? mods[0]?.['A_Const']?.ival?.ival : mods.length === 0 && typname === 'varbit' ? Infinity : undefined;
  if (typeof width !== 'number' || width < 1 || (width > 100000 && width !== Infinity)) return undefined;
  const c = (arg as Fields | undefined)?.['A_Const'];
  if (!c) return undefined;
  const whole = c.ival !== undefined ? String(c.ival.ival ?? 0) : typeof c.fval?.fval === 'string' && /^-?\d+$/.test(c.fval.fval) ? c.fval.fval : undefined;
  if (whole !== undefined) {
    if (typname !== 'bit') return undefined;
    const value = BigInt(whole);
    const size = value >= -(2n ** 31n) && value < 2n ** 31n ? 32 : value >= -(2n ** 63n) && value < 2n ** 63n ? 64 : 0;
    if (!size) return undefined;
    const own = BigInt.asUintN(size, value).toString(2).padStart(size, '0');
    return width <= size ? own.slice(size - width) : own[0]!.repeat(width - size) + own;
  }
  const text: unknown = c.bsval?.bsval ?? c.sval?.sval;
  if (typeof text !== 'string') return undefined;
  const hex = /^[xX][0-9a-fA-F]*$/.test(text) && (c.bsval !== undefined || text.length > 1);
  const digits = hex
    ? [...text.slice(1)].map((h) => parseInt(h, 16).toString(2).padStart(4, '0')).join('')
    : c.bsval !== undefined || /^[bB]/.test(text) ? text.slice(1) : text;
  if (!/^[01]*$/.test(digits)) return undefined;
  return typname === 'bit' ? digits.slice(0, width).padEnd(width, '0') : digits.slice(0, width) || undefined;
}

/** The words PostgreSQL's type names are written with in a function's identity arguments (pg_get_function_identity_arguments). */
const IDENTITY_TYPE_NAMES: Readonly<Record<string, string>> = ownTable({
  int: 'integer', int4: 'integer', int2: 'smallint', int8: 'bigint', float4: 'real', float8: 'double precision',
  float: 'double precision', bool: 'boolean', varchar: 'character varying', bpchar: 'character', char: 'character',
  decimal: 'numeric', timestamptz: 'timestamp with time zone', timestamp: 'timestamp without time zone',
  timetz: 'time with time zone', time: 'time without time zone', varbit: 'bit varying',
});

/**
 * A built-in named by text, as regprocin / regprocedurein resolve it: its OID, else PostgreSQL's 42883 / 42725
 * (raised by the emulation's lookup over pg_proc, pgcatalog/pgCatalogMacros.ts). Only pg_catalog holds functions.
 */
function regprocOidCall(written: string, type: 'regproc' | 'regprocedure', location: unknown): PgNode {
  const open = written.indexOf('(');
  const namePart = (open < 0 ? written : written.slice(0, open)).trim();
  const parts = splitQualifiedName(namePart);
  if (parts.length > 2) throw new SqlError('42601', `improper qualified name (too many dotted names): ${namePart}`, pos(location));
  if (parts.length === 2 && parts[0] !== 'pg_catalog') throw new SqlError('3F000', `schema "${parts[0]}" does not exist`, pos(location));
  const name = parts[parts.length - 1]!;
  if (type === 'regproc' || open < 0) return { FuncCall: { funcname: emulated('lg_regproc_oid'), args: [strConst(name), strConst(written)], funcformat: 'COERCE_EXPLICIT_CALL' } };
  const inner = written.slice(open + 1, written.lastIndexOf(')'));
  const args = inner.trim() === '' ? [] : inner.split(',').map((a) => {
    const t = a.trim().toLowerCase().replace(/\s+/g, ' ').replace(/^pg_catalog\./, '');
    return IDENTITY_TYPE_NAMES[t] ?? t;
  });
  return { FuncCall: { funcname: emulated('lg_regprocedure_oid'), args: [strConst(name), strConst(args.join(', ')), strConst(written)], funcformat: 'COERCE_EXPLICIT_CALL' } };
}

/** regclass output: the name alone when its schema is on the search path, else qualified. */
export function regclassText(written: string, ctx: DialectContext): string {
  const parts = splitQualifiedName(written);
  const name = parts[parts.length - 1]!;
  if (parts.length < 2) return name;
  const schema = parts[parts.length - 2]!;
  return effectiveSearchPath(ctx).includes(schema) ? name : `${schema}.${name}`;
}

const call = (name: string, ...args: PgNode[]): PgNode => ({
  FuncCall: { funcname: [strNode(name)], ...(args.length ? { args } : {}), funcformat: 'COERCE_EXPLICIT_CALL' },
});
/** The argument is a constant whose text the cast reads. */
const innerConstant = (c: CastSite): boolean => !c.isArray && c.inner !== undefined && constText(c.inner['arg']) !== undefined;
const typmods = (c: CastSite): Fields[] => (c.tn['typmods'] ?? []) as Fields[];

/** The casts this module rewrites (sql/dialect/registry.ts), in their order, each with the macros it calls. */
export const CAST_RULES: readonly CastRule[] = [
  {
    // 'pg_class'::regclass::text prints the name in PostgreSQL, not the OID
    phase: 'regText',
    names: [...TEXT_TYPES],
    applies: innerConstant,
    rewrite: ({ v, inner, ctx }) => {
      const innerParts = names(inner!['typeName']?.['names']);
      if (innerParts[innerParts.length - 1] === 'regclass') {
        regCast('regclass', inner!['arg'], ctx, inner!['typeName']?.['location']); // validates: unknown names are 42P01
        replaceNode(v.node, strConst(regclassText(constText(inner!['arg'])!, ctx)));
        return true;
      }
      // 'int4'::regtype::text is the type's name too (pgcli compares and prints such names)
      if (innerParts[innerParts.length - 1] === 'regtype' && !inner!['typeName']?.['arrayBounds']) {
        replaceNode(v.node, strConst(regtypeText(constText(inner!['arg'])!, inner!['typeName']?.['location'])));
        return true;
      }
      return false;
    },
  },
  {
    // 'lower'::regproc::oid (psql's \sf): the built-in's OID, as regprocin finds it (the emulation keeps regproc columns by name)
    phase: 'regprocOid',
    names: ['oid'],
    macros: ['lg_regproc_oid', 'lg_regprocedure_oid'],
    applies: innerConstant,
    rewrite: ({ v, inner }) => {
      const innerType = names(inner!['typeName']?.['names']).pop();
      if (innerType !== 'regproc' && innerType !== 'regprocedure') return false;
      replaceNode(v.node, regprocOidCall(constText(inner!['arg'])!, innerType, inner!['typeName']?.['location']));
      return true;
    },
  },
  {
    // an array as text is PostgreSQL's {…} (sql/dialect/builtinMacros.ts); an array by its form only, never a subquery's copy
    phase: 'arrayText',
    names: [...TEXT_TYPES],
    macros: ['lg_array_text'],
    applies: ({ f, tn, isArray }) => !isArray && !tn['typmods'] && arrayLike(f['arg']) && !containsSubquery(f['arg']),
    rewrite: ({ v, f }) => {
      replaceNode(v.node, { FuncCall: { funcname: emulated('lg_array_text'), args: [f['arg']], funcformat: 'COERCE_EXPLICIT_CALL' } });
      return true;
    },
  },
  {
    // jsonb is DuckDB JSON holding jsonb's text (sql/dialect/json.ts)
    phase: 'jsonb',
    names: ['jsonb'],
    macros: ['lg_jsonb'],
    applies: ({ isArray }) => !isArray,
    rewrite: ({ v, f }) => {
      replaceNode(v.node, jsonbCast(f['arg'] as PgNode));
      return true;
    },
  },
  {
    // an oidvector or oid[] as regtype[] (pgcli's `proargtypes::regtype[]`): each type as regtype prints it
    phase: 'regCast',
    names: ['regtype'],
    macros: [INTERNAL_MACROS.regtypeArray],
    applies: ({ f, tn, isArray }) => isArray && (tn['arrayBounds'] as unknown[]).length === 1 && constText(f['arg']) === undefined,
    rewrite: ({ v, f }) => {
      replaceNode(v.node, { FuncCall: { funcname: emulated(INTERNAL_MACROS.regtypeArray), args: [f['arg']], funcformat: 'COERCE_EXPLICIT_CALL' } });
      return true;
    },
  },
  {
    phase: 'regCast',
    names: ['regclass', 'regtype', 'regproc', 'regprocedure', 'regoper', 'regoperator', 'regnamespace'],
    applies: ({ isArray }) => !isArray,
    rewrite: ({ v, f, tn, typname, ctx }) => {
      replaceNode(v.node, regCast(typname, f['arg'], ctx, tn['location']));
      return true;
    },
  },
  {
    // PostgreSQL reads an offset of hours alone (+02); DuckDB wants +02:00
    phase: 'inputText',
    names: ['timestamptz'],
    applies: ({ f, isArray }) => !isArray && constText(f['arg']) !== undefined,
    rewrite: ({ f }) => {
      const tzText = constText(f['arg'])!;
      // …and seconds before an offset (10:00+02 → 10:00:00+02:00)
      // (the hours and minutes the first h:mm: a greedy match would take the minutes and seconds for them)
      const m = /^(.*?\d{1,2}:\d{2})(:\d{2}(?:\.\d+)?)?\s*([+-]\d{1,2})(:\d{2})?$/.exec(tzText.trim());
      if (m) f['arg'] = strConst(`${m[1]}${m[2] ?? ':00'}${m[3]}${m[4] ?? ':00'}`);
      return false;
    },
  },
  {
    // PostgreSQL reads a sign apart from its number ('1 month - 1 day') and ISO 8601 ('P1Y2M3DT4H'); DuckDB neither
    phase: 'inputText',
    names: ['interval'],
    applies: ({ f, isArray }) => !isArray && constText(f['arg']) !== undefined,
    rewrite: ({ f }) => {
      const intervalText = constText(f['arg'])!;
      const written = pgIntervalText(intervalText);
      if (written !== intervalText) f['arg'] = strConst(written);
      return false;
    },
  },
  {
    // a timestamptz's time of day is its wall clock in the session's zone (DuckDB has no such cast): a macro whose
    // overloads tell a timestamp from a timestamptz (sql/dialect/builtinMacros.ts)
    phase: 'timeOf',
    names: ['time'],
    macros: ['lg_time_of'],
    applies: ({ f, tn, isArray, typedSafe }) => !isArray && !tn['typmods'] && constText(f['arg']) === undefined && typedSafe(f['arg']),
    rewrite: ({ v, f, ctx }) => {
      const zone = strConst(ctx.settings('timezone') ?? 'UTC');
      replaceNode(v.node, { FuncCall: { funcname: emulated('lg_time_of'), args: [f['arg'], zone, structuredClone(f['arg'])], funcformat: 'COERCE_EXPLICIT_CALL' } });
      return true;
    },
  },
  // the session's TimeZone (sql/sessionZone.ts): a timestamptz's date and timestamp are its wall clock's there, and a
  // date, a timestamp or a text without an offset is a timestamptz read there
  {
    phase: 'zone',
    names: ['date', 'timestamp'],
    applies: ({ f, isArray }) => !isArray && constText(f['arg']) === undefined,
    rewrite: ({ f, zone }) => {
      f['arg'] = wallClock(f['arg'] as PgNode, zone);
      return false;
    },
  },
  {
    phase: 'zone',
    names: ['text', 'varchar'],
    applies: ({ f, isArray }) => !isArray && constText(f['arg']) === undefined,
    rewrite: ({ f, zone }) => {
      f['arg'] = zonedText(f['arg'] as PgNode, zone);
      return false;
    },
  },
  {
    phase: 'zone',
    names: ['timestamptz'],
    applies: ({ isArray }) => !isArray,
    rewrite: ({ v, f, zone }) => {
      const text = constText(f['arg']);
      const read = text === undefined ? zoned(f['arg'] as PgNode, zone) : zonedLiteral(text, zone);
      if (!read) return false;
      replaceNode(v.node, read);
      return true;
    },
  },
  {
    // a constant to bit(n) or varbit(n): its bits as PostgreSQL's cast gives them (DuckDB's BIT has no length)
    phase: 'bits',
    names: ['bit', 'varbit'],
    applies: ({ isArray }) => !isArray,
    rewrite: (c) => {
      const bits = constantBits(c.f['arg'], c.typname, typmods(c));
      if (!bits) return false;
      replaceNode(c.v.node, call('bitstring', strConst(bits), intConst(bits.length)));
      return true;
    },
  },
  {
    // …and an expression's, by a macro its probe picks the overload of (a bit string, an int4, an int8)
    phase: 'bits',
    names: ['bit'],
    macros: ['lg_bit_n'],
    applies: ({ isArray }) => !isArray,
    rewrite: (c) => {
      const bitWidth = sizedBitProbe(c.f['arg'], typmods(c));
      if (!bitWidth) return false;
      replaceNode(c.v.node, { FuncCall: { funcname: emulated('lg_bit_n'), args: [c.f['arg'], intConst(bitWidth.n), bitWidth.probe], funcformat: 'COERCE_EXPLICIT_CALL' } });
      return true;
    },
  },
  {
    // bytea input ('\x0aff' hex or escape format) is not DuckDB's blob literal syntax: decode it here.
    phase: 'bytea',
    names: ['bytea'],
    applies: ({ f, isArray }) => !isArray && constText(f['arg']) !== undefined,
    rewrite: ({ v, f }) => {
      const hex = byteaInputToHex(constText(f['arg'])!, pos(f['location']));
      replaceNode(v.node, { FuncCall: { funcname: [strNode('unhex')], args: [strConst(hex)], funcformat: 'COERCE_EXPLICIT_CALL' } });
      return true;
    },
  },
  {
    // An explicit cast to varchar(n) or char(n) cuts the text to n characters; char drops its trailing spaces,
    // as PostgreSQL reads a char(n) as text (length, ||), and a result column that is one is padded to n again
    // when it is printed (sql/resultTypes.ts presents it as character(n), server/rows BpcharCodec).
    phase: 'width',
    names: ['varchar', 'bpchar', 'char'],
    applies: (c) => !c.isArray && typmods(c).length === 1 && Boolean(typmods(c)[0]?.['A_Const']?.ival),
    rewrite: (c) => {
      const { v, f, tn, typname } = c;
      const width = typmods(c)[0]!['A_Const'].ival;
      tn['names'] = [strNode('varchar')];
      delete tn['typmods'];
      const cut = call('substr', { TypeCast: f }, intConst(1), intConst(Number(width.ival ?? 0)));
      replaceNode(v.node, typname === 'varchar' ? cut : call('rtrim', cut, strConst(' ')));
      return true;
    },
  },
];
