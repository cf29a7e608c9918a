/**
 * The Trino table of the functions the registry has no entry for (DuckDB takes them as PostgreSQL wrote
 * them): pass-through and renamed functions, the window functions, count, and the DuckDB calls the data
 * gate's mask builder writes (policy/rewrite/masks.ts: strlen, translate, left, right). The registry's own
 * functions render through their entries' `engines.trino` (sql/dialect/trino.ts). A name in neither is
 * refused by the printer.
 */
import type { EngineCall, RenderedArg, ValueClass } from '../dialect/rule.js';
import { intValue } from '../dialect/trino.js';

export interface TrinoFunction {
  /** a window function must have OVER; an aggregate may have DISTINCT, FILTER and OVER; a scalar none of them */
  kind: 'scalar' | 'aggregate' | 'window';
  render: (args: readonly RenderedArg[], call: EngineCall) => string;
  /** the result's class, from the arguments' */
  result: (classes: readonly (ValueClass | undefined)[]) => ValueClass | undefined;
}

const plain =
  (trinoName: string, ...counts: number[]) =>
  (args: readonly RenderedArg[], call: EngineCall): string => {
    if (!counts.includes(args.length)) call.refuse(`${trinoName} with ${args.length} arguments`);
    return `${trinoName}(${args.map((a) => a.text).join(', ')})`;
  };

const first = (classes: readonly (ValueClass | undefined)[]): ValueClass | undefined => classes[0];
const always =
  (k: ValueClass) =>
  (): ValueClass =>
    k;

/** PostgreSQL's btrim/ltrim/rtrim remove spaces by default; Trino's one-argument trims remove all Unicode whitespace. */
const trim = (trinoName: string) => (args: readonly RenderedArg[], call: EngineCall): string => {
  if (args.length === 1) return `${trinoName}(${args[0]!.text}, ' ')`;
  return plain(trinoName, 2)(args, call);
};

/** lag / lead: an offset, when given, must be a constant (Trino's is a bigint expression too; PostgreSQL's may vary by row). */
const offsetWindow = (name: string) => (args: readonly RenderedArg[], call: EngineCall): string => {
  if (args.length >= 2 && intValue(args[1]!.node) === undefined) call.refuse(`${name} with an offset that is not a constant`);
  return plain(name, 1, 2, 3)(args, call);
};

export const TRINO_FUNCTIONS: Readonly<Record<string, TrinoFunction>> = {
  lower: { kind: 'scalar', render: plain('lower', 1), result: always('text') },
  upper: { kind: 'scalar', render: plain('upper', 1), result: always('text') },
  btrim: { kind: 'scalar', render: trim('trim'), result: always('text') },
  ltrim: { kind: 'scalar', render: trim('ltrim'), result: always('text') },
  rtrim: { kind: 'scalar', render: trim('rtrim'), result: always('text') },
  abs: { kind: 'scalar', render: plain('abs', 1), result: first },
  floor: { kind: 'scalar', render: plain('floor', 1), result: first },
  ceil: { kind: 'scalar', render: plain('ceil', 1), result: first },
  ceiling: { kind: 'scalar', render: plain('ceiling', 1), result: first },
  // PostgreSQL's now() is a timestamp with time zone in microseconds; Trino's current_timestamp is milliseconds unless asked
  now: {
    kind: 'scalar',
    render: (args, call) => (args.length === 0 ? 'current_timestamp(6)' : call.refuse('now with arguments')),
    result: always('timestamptz'),
  },
  translate: { kind: 'scalar', render: plain('translate', 3), result: always('text') },
  // the data gate's byte length of a string (DuckDB's strlen)
  strlen: {
    kind: 'scalar',
    render: (args, call) => (args.length === 1 ? `length(to_utf8(${args[0]!.text}))` : call.refuse(`strlen with ${args.length} arguments`)),
    result: always('integer'),
  },
  // PostgreSQL's left / right take a negative count as "all but": Trino's substr has no such form
  left: {
    kind: 'scalar',
    render: (args, call) => {
      if (args.length !== 2) call.refuse(`left with ${args.length} arguments`);
      const [s, n] = [args[0]!.text, args[1]!.text];
      return `substr(${s}, 1, IF(${n} >= 0, ${n}, greatest(length(${s}) + ${n}, 0)))`;
    },
    result: always('text'),
  },
  right: {
    kind: 'scalar',
    render: (args, call) => {
      if (args.length !== 2) call.refuse(`right with ${args.length} arguments`);
      const [s, n] = [args[0]!.text, args[1]!.text];
      return `substr(${s}, IF(${n} >= 0, greatest(length(${s}) - ${n} + 1, 1), 1 - ${n}))`;
    },
    result: always('text'),
  },
  count: {
    kind: 'aggregate',
    render: (args, call) => (args.length === 1 ? `count(${call.distinct ? 'DISTINCT ' : ''}${args[0]!.text})` : call.refuse(`count with ${args.length} arguments`)),
    result: always('integer'),
  },
  row_number: { kind: 'window', render: plain('row_number', 0), result: always('integer') },
  rank: { kind: 'window', render: plain('rank', 0), result: always('integer') },
  dense_rank: { kind: 'window', render: plain('dense_rank', 0), result: always('integer') },
  percent_rank: { kind: 'window', render: plain('percent_rank', 0), result: always('double') },
  cume_dist: { kind: 'window', render: plain('cume_dist', 0), result: always('double') },
  lag: { kind: 'window', render: offsetWindow('lag'), result: first },
  lead: { kind: 'window', render: offsetWindow('lead'), result: first },
  first_value: { kind: 'window', render: plain('first_value', 1), result: first },
  last_value: { kind: 'window', render: plain('last_value', 1), result: first },
};

/** The result classes of the registry's functions the printer renders (sql/dialect/trino.ts). */
export const REGISTRY_RESULTS: Readonly<Record<string, (classes: readonly (ValueClass | undefined)[]) => ValueClass | undefined>> = {
  length: always('integer'),
  substr: always('text'),
  substring: always('text'),
  concat: always('text'),
  round: first,
  date_trunc: always('timestamp'),
  extract: always('decimal'),
  regexp_replace: always('text'),
  sha256: always('binary'),
  sum: first,
  min: first,
  max: first,
  avg: always('double'),
};

/** The aggregates among the registry's rendered functions (DISTINCT, FILTER and OVER allowed). */
export const REGISTRY_AGGREGATES: ReadonlySet<string> = new Set(['sum', 'min', 'max', 'avg']);
