/**
 * Casts put on a statement's parameters before it is planned: the type
 * PostgreSQL would have given a parameter the engine cannot type on its own,
 * written into the tree as `$n::pg_catalog.type` (server/queryStatement.ts
 * decides which). And which parameters the statement itself casts to an
 * unconstrained numeric.
 */
import { walk, type PgNode } from './walk.js';

/** A parameter's cast: a PostgreSQL type name, its modifiers, and whether it is that type's array. */
export interface ParamCast {
  type: string;
  typmods?: number[];
  array?: boolean;
}

export function castParams(node: PgNode, casts: Map<number, ParamCast>): PgNode {
  const copy = structuredClone(node);
  walk(copy, (v) => {
    if (v.kind !== 'ParamRef') return;
    const cast = casts.get(v.fields['number'] as number);
    if (!cast) return;
    const paramRef = { ParamRef: { ...v.fields } };
    const typeName: Record<string, unknown> = {
      names: [{ String: { sval: 'pg_catalog' } }, { String: { sval: cast.type } }],
      typemod: -1,
    };
    // Shaped as libpg-query prints it (a zero ival is an empty object), so the planner's re-parse check matches.
    if (cast.array) typeName['arrayBounds'] = [{ Integer: { ival: -1 } }];
    if (cast.typmods) typeName['typmods'] = cast.typmods.map((m) => ({ A_Const: { ival: m === 0 ? {} : { ival: m } } }));
    for (const k of Object.keys(v.node)) delete v.node[k];
    (v.node as Record<string, unknown>)['TypeCast'] = { arg: paramRef, typeName };
    return false;
  });
  return copy;
}

/**
 * Parameters cast to unconstrained numeric (`$1::numeric`). PostgreSQL keeps
 * the scale each value comes with; DuckDB's decimals have a fixed scale, so
 * these parameters get a statement shape per scale at Bind.
 */
export function numericCastParams(node: PgNode): Set<number> {
  const out = new Set<number>();
  walk(node, (v) => {
    if (v.kind !== 'TypeCast') return;
    const arg = v.fields['arg'] as PgNode | undefined;
    const tn = v.fields['typeName'] as { names?: PgNode[]; typmods?: unknown[]; arrayBounds?: unknown[] } | undefined;
    const name = tn?.names?.[tn.names.length - 1]?.['String']?.['sval'];
    if (arg?.['ParamRef'] && (name === 'numeric' || name === 'decimal') && !tn?.typmods?.length && !tn?.arrayBounds) {
      out.add(arg['ParamRef']['number'] as number);
    }
  });
  return out;
}
