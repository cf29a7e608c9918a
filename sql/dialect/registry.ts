/**
 * The registry of PostgreSQL functions the dialect emulates: one entry per
 * function name, gathered from the rules of the family modules. The dialect's
 * call rewrite (sql/dialect/dialect.ts transformFuncCall) is a lookup here; a
 * name with no entry reaches DuckDB as written (after RENAMED_FUNCTIONS).
 * Adding a function is one rule in its family module and one test
 * (sql/dialect/registry.test.ts checks that it has one).
 */
import { BUILTIN_OPERATOR_RULES, BUILTIN_RULES } from './builtin.js';
import { CAST_RULES } from './casts.js';
import { FORMAT_RULES } from './format.js';
import { JSON_OPERATOR_RULES, JSON_RULES } from './json.js';
import { NUMERIC_RULES } from './numeric.js';
import { SESSION_RULES } from './session.js';
import { TRINO_RENDERINGS } from './trino.js';
import {
  CAST_PHASES,
  OPERATOR_PHASES,
  PHASES,
  type CastEntry,
  type CastPhase,
  type CastRule,
  type FunctionEntry,
  type OperatorEntry,
  type OperatorPhase,
  type OperatorRule,
  type Phase,
  type Rewrite,
  type Rule,
} from './rule.js';

export type { Call, CastEntry, CastRule, CastSite, FunctionEntry, OperatorCall, OperatorEntry, OperatorRule, Phase, Rewrite, Rule } from './rule.js';

const RULES: readonly Rule[] = [...SESSION_RULES, ...JSON_RULES, ...FORMAT_RULES, ...BUILTIN_RULES, ...NUMERIC_RULES];

export const PHASE_RANK: Readonly<Record<Phase, number>> = Object.fromEntries(PHASES.map((p, i) => [p, i])) as Record<Phase, number>;

function gather(rules: readonly Rule[]): ReadonlyMap<string, FunctionEntry> {
  const byName = new Map<string, { rewrites: Rewrite[]; macros: Set<string> }>();
  for (const rule of rules) {
    for (const name of rule.names) {
      const entry = byName.get(name) ?? { rewrites: [], macros: new Set<string>() };
      byName.set(name, entry);
      entry.rewrites.push(rule);
      for (const m of rule.macros ?? []) entry.macros.add(m);
    }
  }
  const entries = new Map<string, FunctionEntry>();
  for (const [name, { rewrites, macros }] of byName) {
    // a stable sort: within a phase, the order the family module wrote its rules in
    rewrites.sort((a, b) => PHASE_RANK[a.phase] - PHASE_RANK[b.phase]);
    const trino = Object.hasOwn(TRINO_RENDERINGS, name) ? TRINO_RENDERINGS[name] : undefined;
    entries.set(name, { name, display: name, rewrites, macros: [...macros].sort(), engines: trino ? { trino } : {} });
  }
  return entries;
}

/** Every emulated function, by PostgreSQL name. */
export const FUNCTION_REGISTRY: ReadonlyMap<string, FunctionEntry> = gather(RULES);

const placed = (r: Rewrite, asTable: boolean): boolean => {
  const at = r.at ?? 'expression';
  return at === 'anywhere' || (at === 'from') === asTable;
};

/**
 * The rewrites a call may take, in order: those of its name's entry that fit where it stands and how it
 * is qualified (bare or `pg_catalog.` reaches every rewrite; another qualifier only the ones that never
 * looked at it).
 */
export function rewritesOf(nameParts: readonly string[], asTable: boolean): readonly Rewrite[] {
  const entry = FUNCTION_REGISTRY.get(nameParts[nameParts.length - 1] ?? '');
  if (!entry) return [];
  const builtin = nameParts.length === 1 || nameParts[0] === 'pg_catalog';
  return entry.rewrites.filter((r) => (builtin || r.schemas === 'any') && placed(r, asTable));
}

const OPERATOR_RANK: Readonly<Record<OperatorPhase, number>> = Object.fromEntries(OPERATOR_PHASES.map((p, i) => [p, i])) as Record<OperatorPhase, number>;

function gatherOperators(rules: readonly OperatorRule[]): ReadonlyMap<string, OperatorEntry> {
  const byName = new Map<string, OperatorRule[]>();
  for (const rule of rules) for (const name of rule.names) byName.set(name, [...(byName.get(name) ?? []), rule]);
  const entries = new Map<string, OperatorEntry>();
  for (const [name, rewrites] of byName) {
    rewrites.sort((a, b) => OPERATOR_RANK[a.phase] - OPERATOR_RANK[b.phase]);
    const macros = [...new Set(rewrites.flatMap((r) => r.macros ?? []))].sort();
    entries.set(name, { name, display: `operator ${name}`, rewrites, macros, engines: {} });
  }
  return entries;
}

/** Every emulated operator, by PostgreSQL name. */
export const OPERATOR_REGISTRY: ReadonlyMap<string, OperatorEntry> = gatherOperators([...BUILTIN_OPERATOR_RULES, ...JSON_OPERATOR_RULES]);

/** An operator's rewrites, in order (its pg_catalog qualifier is dropped before: OPERATOR(pg_catalog.+) is +). */
export function operatorRewritesOf(op: string): readonly OperatorRule[] {
  return OPERATOR_REGISTRY.get(op)?.rewrites ?? [];
}

export const CAST_RANK: Readonly<Record<CastPhase, number>> = Object.fromEntries(CAST_PHASES.map((p, i) => [p, i])) as Record<CastPhase, number>;

function gatherCasts(rules: readonly CastRule[]): ReadonlyMap<string, CastEntry> {
  const byName = new Map<string, CastRule[]>();
  for (const rule of rules) for (const name of rule.names) byName.set(name, [...(byName.get(name) ?? []), rule]);
  const entries = new Map<string, CastEntry>();
  for (const [name, rewrites] of byName) {
    rewrites.sort((a, b) => CAST_RANK[a.phase] - CAST_RANK[b.phase]);
    const macros = [...new Set(rewrites.flatMap((r) => r.macros ?? []))].sort();
    entries.set(name, { name, display: `cast to ${name}`, rewrites, macros, engines: {} });
  }
  return entries;
}

/** Every type whose casts the dialect emulates, by PostgreSQL's name for it. */
export const CAST_REGISTRY: ReadonlyMap<string, CastEntry> = gatherCasts(CAST_RULES);

/** The rewrites of a cast to this type (its pg_catalog qualifier dropped), in order. */
export function castRewritesOf(typname: string): readonly CastRule[] {
  return CAST_REGISTRY.get(typname)?.rewrites ?? [];
}
