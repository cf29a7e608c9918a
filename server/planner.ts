/**
 * The planner the sessions use: sql/'s query pipeline over the user's
 * catalog. With an Iceberg catalog, every name a statement needs is loaded as
 * the session's user first (catalog/planSnapshot.ts), then planned; the plan
 * is valid while those answers are (the catalog cache TTL). The PostgreSQL
 * catalog emulation is installed on the privileged connection before the
 * engine is locked; its per-user tables are filled on each session's
 * connection before a statement that reads them.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { loadDuckDbCatalog, type Catalog } from '../catalog/catalog.js';
import { installPgCatalog, installUserCatalog } from '../catalog/pgCatalog.js';
import { loadSnapshot } from '../catalog/planSnapshot.js';
import type { CatalogService } from '../catalog/userCatalog.js';
import { planQuery } from '../sql/query.js';
import type { Config } from './config.js';
import type { PlanContext, QueryPlanner } from './query.js';
import type { StorageSecrets } from './storage.js';

export interface PlannerDeps {
  /** The Iceberg catalog, when the database is one. */
  catalog: CatalogService | null;
  /** Object-store secrets (known once the engine runs); null for local warehouses. */
  storage?: () => StorageSecrets | null;
}

export async function createPlanner(admin: DuckDBConnection, config: Config, deps: PlannerDeps = { catalog: null }): Promise<QueryPlanner> {
  if (config.catalog && deps.catalog) {
    const database = config.catalog.database;
    await installPgCatalog(admin, { database });
    return icebergPlanner(deps.catalog, deps.storage ?? (() => null));
  }
  const databases = Object.keys(config.databases);
  if (databases.length !== 1) {
    // The pg_catalog emulation is one per engine today.
    throw new Error('lakegate serves exactly one database per process for now');
  }
  const catalogs = new Map<string, Catalog>();
  for (const database of databases) {
    const catalog = await loadDuckDbCatalog(admin, database);
    await installPgCatalog(admin, { database });
    catalogs.set(database, catalog);
  }
  return {
    async plan(stmt, ctx) {
      const catalog = catalogs.get(ctx.database);
      if (!catalog) throw new Error(`no catalog for database ${ctx.database}`);
      const plan = planQuery(stmt, { ...ctx, catalog });
      return { sql: plan.sql, explain: plan.kind === 'explain', valid: () => true, setup: (conn) => installUserCatalog(conn, catalog) };
    },
  };
}

function icebergPlanner(service: CatalogService, storage: () => StorageSecrets | null): QueryPlanner {
  return {
    async plan(stmt, ctx: PlanContext) {
      const caller = {
        user: ctx.user,
        ...(ctx.accessToken ? { token: ctx.accessToken } : {}),
        ...(ctx.renewToken ? { refresh: ctx.renewToken } : {}),
      };
      const snapshot = await loadSnapshot(service.forUser(ctx.user), caller, stmt.node, ctx, ctx.signal?.());
      const plan = planQuery(stmt, { ...ctx, catalog: snapshot });
      const listing = snapshot.listing;
      const secrets = storage();
      return {
        sql: plan.sql,
        explain: plan.kind === 'explain',
        valid: () => snapshot.valid(),
        setup: async (conn: DuckDBConnection) => {
          if (secrets) for (const t of snapshot.storage) await secrets.ensure(t.location, t.credentials);
          if (listing) await installUserCatalog(conn, snapshot, listing);
        },
      };
    },
  };
}
