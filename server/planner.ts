/**
 * The planner the sessions use: sql/'s query pipeline over the catalog of the
 * attached data, with the PostgreSQL catalog emulation installed on the
 * privileged connection before the engine is locked.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { loadDuckDbCatalog, type Catalog } from '../catalog/catalog.js';
import { planQuery } from '../sql/query.js';
import type { Config } from './config.js';
import type { QueryPlanner } from './query.js';

export async function createPlanner(admin: DuckDBConnection, config: Config): Promise<QueryPlanner> {
  const catalogs = new Map<string, Catalog>();
  for (const database of Object.keys(config.databases)) {
    catalogs.set(database, await loadDuckDbCatalog(admin, database));
  }
  return {
    plan(stmt, ctx) {
      const catalog = catalogs.get(ctx.database);
      if (!catalog) throw new Error(`no catalog for database ${ctx.database}`);
      const plan = planQuery(stmt, { ...ctx, catalog });
      return { sql: plan.sql, explain: plan.kind === 'explain' };
    },
  };
}
