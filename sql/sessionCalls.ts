/**
 * Which SELECTs are answered from the session's own state, not from data:
 * calls to pg_sleep, set_config, txid_current, pg_cancel_backend and
 * pg_terminate_backend with constant arguments, and nothing else (how clients
 * and tools call them: `SELECT pg_sleep(1)`, `SELECT set_config('search_path',
 * 'sales', false)`). Read from the parse tree only; the session computes the
 * answers (server/sessionFunctions.ts). Anywhere else these functions are not
 * known to the planner and are refused like any unknown function.
 */
import { constantValue } from './utilityStatements.js';
import type { Fields, PgNode } from './walk.js';

export const SESSION_FUNCTIONS = ['pg_sleep', 'set_config', 'txid_current', 'pg_cancel_backend', 'pg_terminate_backend'] as const;

export type SessionFunction = (typeof SESSION_FUNCTIONS)[number];

const isSessionFunction = (name: string): name is SessionFunction => (SESSION_FUNCTIONS as readonly string[]).includes(name);

/** A constant's text (null: SQL NULL), or a parameter `$n` bound later. */
export type SessionArg = string | null | { param: number };

export interface SessionCall {
  fn: SessionFunction;
  column: string;
  args: SessionArg[];
}

/** Clauses that make a SELECT more than a list of calls. */
const OTHER_CLAUSES = [
  'fromClause', 'whereClause', 'groupClause', 'havingClause', 'sortClause', 'limitCount', 'limitOffset',
  'distinctClause', 'valuesLists', 'withClause', 'windowClause', 'lockingClause', 'intoClause',
];

function constant(node: PgNode, pid: number): SessionArg | undefined {
  if (node['ParamRef']) return { param: node['ParamRef']['number'] as number };
  // `pg_cancel_backend(pg_backend_pid())`: the one call allowed inside.
  const fc = node['FuncCall'];
  if (fc) {
    const names = ((fc['funcname'] as PgNode[]) ?? []).map((n) => String(n['String']?.['sval']));
    const plain = names.length === 1 || (names.length === 2 && names[0] === 'pg_catalog');
    return plain && names[names.length - 1] === 'pg_backend_pid' && !fc['args'] ? String(pid) : undefined;
  }
  const cast = node['TypeCast']?.['arg'] as PgNode | undefined;
  if (cast && (cast['ParamRef'] || cast['FuncCall'])) return constant(cast, pid);
  return constantValue(node);
}

/**
 * The calls, when the SELECT is only calls to session functions with constant
 * arguments; else null. `pid` is what `pg_backend_pid()` inside stands for.
 */
export function sessionCalls(select: Fields, pid = 0): SessionCall[] | null {
  if (select['op'] && select['op'] !== 'SETOP_NONE') return null;
  if (OTHER_CLAUSES.some((k) => select[k] !== undefined)) return null;
  const targets = (select['targetList'] as PgNode[] | undefined) ?? [];
  if (targets.length === 0) return null;
  const calls: SessionCall[] = [];
  for (const t of targets) {
    const rt = t['ResTarget'];
    const call = rt?.['val']?.['FuncCall'] as Fields | undefined;
    if (!call) return null;
    const names = ((call['funcname'] as PgNode[]) ?? []).map((n) => String(n['String']?.['sval']));
    const name = names[names.length - 1]!;
    if (!isSessionFunction(name) || (names.length === 2 && names[0] !== 'pg_catalog') || names.length > 2) return null;
    if (call['agg_star'] || call['agg_distinct'] || call['over'] || call['agg_filter'] || call['agg_order'] || call['func_variadic']) return null;
    const args: SessionArg[] = [];
    for (const a of (call['args'] as PgNode[] | undefined) ?? []) {
      if (a['NamedArgExpr']) return null;
      const v = constant(a, pid);
      if (v === undefined) return null;
      args.push(v);
    }
    calls.push({ fn: name, column: (rt!['name'] as string | undefined) ?? name, args });
  }
  return calls;
}
