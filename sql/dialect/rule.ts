/**
 * The shape of the dialect's registry (sql/dialect/registry.ts): what one
 * PostgreSQL function's emulation is made of. The family modules
 * (builtin, json, format, numeric, session) write their rewrites as rules of
 * this shape; the registry gathers them by name.
 */
import type { DialectContext } from './context.js';
import type { SessionZone } from '../sessionZone.js';
import type { Fields, PgNode, Visit } from '../walk.js';

/**
 * The steps of a call's rewrite, in the order they are tried. A function's
 * rewrites run in this order whatever module wrote them, and the first that
 * answers true ends the call's rewrite: the order is the one the dialect's
 * former chain of tests had, on which several functions depend (round is
 * first rounded to n places by `builtin`, else typed by `round`; sum of a
 * literal is refused by `builtin` before `typedAggregate` sees it; a
 * `format` int4 cast comes before `builtin`'s octet_length and `byteaLength`).
 * At `rename` every call still standing gets its DuckDB name
 * (sql/functions.ts RENAMED_FUNCTIONS; SQL-syntax calls keep theirs).
 */
export const PHASES = [
  'distinctOrder',
  'jsonbLiterals',
  'datePart',
  'json',
  'format',
  'toTimestamp',
  'builtin',
  'fold',
  'emulation',
  'boolMinMax',
  'typedAggregate',
  'exactStatistic',
  'statisticClauses',
  'typedAggregateClauses',
  'round',
  'mod',
  'sign',
  'ntile',
  'gcd',
  'sizeGuard',
  'byteaLength',
  'rename',
  'series',
] as const;
export type Phase = (typeof PHASES)[number];

/** A call being rewritten: its node, its parts, and what the pass knows. `args` is the argument list as the call was met. */
export interface Call {
  v: Visit;
  f: Fields;
  name: string;
  args: unknown[];
  /** the call stands in FROM (a table function) */
  asTable: boolean;
  ctx: DialectContext;
  /** nodes this pass already rewrote (a rewrite that wraps the call marks it, so that meeting it again leaves it) */
  done: WeakSet<object>;
  zone: SessionZone;
  /**
   * The planner's typing probes (sql/dialect/numeric.ts), handed in rather than imported: the family modules
   * are imported by the allowlist (sql/functions.ts), which numeric.ts imports.
   */
  typedSafe: (n: unknown) => boolean;
  probeOf: (n: unknown) => PgNode | undefined;
}

export interface Rewrite {
  phase: Phase;
  /** where the call stands: in an expression (the default), in FROM as a table function, or either */
  at?: 'expression' | 'from' | 'anywhere';
  /**
   * The qualifiers it answers under: bare or `pg_catalog.` (the default), or any (the steps that never
   * looked at the qualifier; authorization admits no other schema but information_schema for _pg_expandarray).
   */
  schemas?: 'pg_catalog' | 'any';
  /** when it applies beyond its name and place (argument count, a probe's type …); absent: always */
  applies?: (c: Call) => boolean;
  /** the AST transform; true when the call is done and no later step applies */
  rewrite: (c: Call) => boolean;
}

/** One rewrite and the names it serves (one `case` list of a family's former switch), with the emulation's macros it calls. */
export interface Rule extends Rewrite {
  names: readonly string[];
  macros?: readonly string[];
}

/**
 * What the printer knows of a value's type, as far as a rendering needs it: from a literal, a cast or a
 * function's result, or told by the caller. `undefined`: not known, and a rendering whose text would
 * depend on it refuses.
 */
export type ValueClass = 'integer' | 'decimal' | 'double' | 'real' | 'text' | 'boolean' | 'date' | 'timestamp' | 'timestamptz' | 'interval' | 'binary';

/** One argument of a call, as the printer printed it, beside its node (for constants a rendering reads). */
export interface RenderedArg {
  node: PgNode;
  text: string;
}

/** What a rendering may ask of the printer: an argument's class, and the refusal it must throw. */
export interface EngineCall {
  classOf: (n: PgNode) => ValueClass | undefined;
  /** an aggregate's DISTINCT (FILTER and OVER the printer writes after the rendering) */
  distinct: boolean;
  /** throws SqlError 0A000 '<construct> is not supported on the <engine> engine' */
  refuse: (construct: string) => never;
}

/**
 * A second engine's rendering of a function (the Trino printer's, sql/trino/print.ts): the call as that
 * engine's SQL text, from its arguments already printed; a form it cannot prove equal to PostgreSQL's is
 * refused through `call.refuse`, never guessed.
 */
export interface EngineRendering {
  render: (args: readonly RenderedArg[], call: EngineCall) => string;
}

/** One PostgreSQL function the dialect emulates (or retypes, or folds): the registry's entry. */
export interface FunctionEntry {
  /** PostgreSQL's name; the lookup answers it bare and `pg_catalog.`-qualified */
  name: string;
  /** how errors and \df name it */
  display: string;
  /** its rewrites, in PHASES order */
  rewrites: readonly Rewrite[];
  /** the emulation's macros its rewrites call (sql/dialect/*Macros.ts, pgcatalog/pgCatalogMacros.ts) */
  macros: readonly string[];
  /** renderings for engines other than DuckDB, by engine */
  engines: { trino?: EngineRendering };
}

/**
 * The steps of an operator's rewrite, in order: jsonb's equality forms (=, <>, IS DISTINCT FROM, IN), the
 * built-in operators DuckDB lacks or means otherwise, json's. Operators are tried before LIKE, BETWEEN
 * SYMMETRIC and the typed arithmetic, which sql/dialect/dialect.ts applies to every operator alike.
 */
export const OPERATOR_PHASES = ['jsonbEquality', 'builtin', 'json'] as const;
export type OperatorPhase = (typeof OPERATOR_PHASES)[number];

/** An operator expression being rewritten (an A_Expr: its kind says AEXPR_OP, IN, DISTINCT …). */
export interface OperatorCall {
  v: Visit;
  f: Fields;
  /** the operator's name, its pg_catalog qualifier dropped */
  op: string;
}

export interface OperatorRule {
  phase: OperatorPhase;
  names: readonly string[];
  macros?: readonly string[];
  applies?: (o: OperatorCall) => boolean;
  /** true when the expression is done */
  rewrite: (o: OperatorCall) => boolean;
}

/** One PostgreSQL operator the dialect emulates: the registry's operator entry. */
export interface OperatorEntry {
  name: string;
  /** how errors name it */
  display: string;
  rewrites: readonly OperatorRule[];
  macros: readonly string[];
  engines: { trino?: EngineRendering };
}

/**
 * The steps of a cast's rewrite, by the type cast to, in order. At `known` a type PostgreSQL would not know
 * is refused (42704), after the reg* and jsonb casts and before the rest; at `typmod` every cast still
 * standing gets DuckDB's spelling of its type (sql/dialect/dialect.ts), and an array literal its ARRAY form.
 */
export const CAST_PHASES = ['regText', 'regprocOid', 'arrayText', 'jsonb', 'regCast', 'known', 'inputText', 'timeOf', 'zone', 'bits', 'bytea', 'width', 'typmod'] as const;
export type CastPhase = (typeof CAST_PHASES)[number];

/** A cast being rewritten: `arg::type`. */
export interface CastSite {
  v: Visit;
  f: Fields;
  /** the TypeName node (its typmods, arrayBounds) */
  tn: Fields;
  /** the type cast to, its pg_catalog qualifier dropped */
  typname: string;
  isArray: boolean;
  /** the argument when it is itself a cast ('pg_class'::regclass::text) */
  inner: Fields | undefined;
  ctx: DialectContext;
  zone: SessionZone;
  typedSafe: (n: unknown) => boolean;
}

export interface CastRule {
  phase: CastPhase;
  /** the types cast to */
  names: readonly string[];
  macros?: readonly string[];
  applies?: (c: CastSite) => boolean;
  /** true when the cast is done */
  rewrite: (c: CastSite) => boolean;
}

/** One PostgreSQL cast target the dialect emulates: the registry's cast entry. */
export interface CastEntry {
  name: string;
  /** how errors name it */
  display: string;
  rewrites: readonly CastRule[];
  macros: readonly string[];
  engines: { trino?: EngineRendering };
}
