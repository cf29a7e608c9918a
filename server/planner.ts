/**
 * The planner the sessions use: sql/'s query pipeline over the catalog of the
 * attached data, with the PostgreSQL catalog emulation installed on the
 * privileged connection before the engine is locked.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { loadDuckDbCatalog, type Catalog } from '../catalog/catalog.js';
import { installPgCatalog } from '../catalog/pgCatalog.js';
import { planQuery } from '../sql/query.js';
import type { Config } from './config.js';
import type { QueryPlanner } from './query.js';

export async function createPlanner(admin: DuckDBConnection, config: Config): Promise<QueryPlanner> {
  const catalogs = new Map<string, Catalog>();
  const databases = Object.keys(config.databases);
  if (databases.length !== 1) {
    // The pg_catalog emulation is one per engine today.
    throw new Error('lakegate serves exactly one database per process for now');
  }
  for (const database of databases) {
    const catalog = await loadDuckDbCatalog(admin, database);
    await installPgCatalog(admin, { database, catalog });
    catalogs.set(database, catalog);
  }
  return {
    async plan(stmt, ctx) {
      const catalog = catalogs.get(ctx.database);
      if (!catalog) throw new Error(`no catalog for database ${ctx.database}`);
      const plan = planQuery(stmt, { ...ctx, catalog });
      return { sql: plan.sql, explain: plan.kind === 'explain', valid: () => true };
    },
  };
}
