/**
 * Assemble a running gateway from a configuration: engine (hardened), planner,
 * users, listener.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { Engine } from './engine.js';
import { startServer, type RunningServer } from './listener.js';
import type { QueryPlanner } from './query.js';
import { LocalUsers } from './users.js';
import { randomBytes } from 'node:crypto';
import type { IdentityProvider } from './identity/identity.js';
import { KeycloakIdentityProvider } from './identity/keycloak.js';
import { LocalIdentityProvider } from './identity/local.js';
import { rangerRoles } from './identity/roles.js';
import { LoginThrottle } from './identity/throttle.js';
import { startPolicies } from './policies.js';
import { startCatalog } from './catalog.js';
import { defaultExtensionDirectory, ensureExtensions, type ExtensionName } from './extensions.js';
import type { PlannerDeps } from './planner.js';
import { StorageSecrets } from './storage.js';

/** Builds the planner on the privileged connection, before the engine is locked. */
export type PlannerFactory = (admin: DuckDBConnection, config: Config, deps: PlannerDeps) => Promise<QueryPlanner>;

export async function startGateway(config: Config, log: Logger, makePlanner: PlannerFactory): Promise<RunningServer> {
  const policies = await startPolicies(config.ranger, log);
  const roles = rangerRoles(() => policies.current()?.roleStore ?? null);
  const throttle = new LoginThrottle(config.throttle);
  const identity: IdentityProvider = config.keycloak
    ? new KeycloakIdentityProvider(config.keycloak, roles, throttle, log.child({ component: 'keycloak' }))
    : new LocalIdentityProvider(LocalUsers.load(config.usersFile!), config.localAuth, roles, throttle, randomBytes(32), log);
  const catalog = config.catalog ? await startCatalog(config.catalog, log) : null;
  // DuckDB reads Iceberg with its own extension; httpfs only when a table may live in object storage.
  const extensions: ExtensionName[] = [];
  if (catalog) {
    extensions.push('avro', 'iceberg');
    if (catalog.storageRoots.some((r) => /^s3a?:\/\//.test(r))) extensions.push('httpfs');
  }
  const extensionDirectory = config.engine.extensionDirectory ?? defaultExtensionDirectory();
  if (extensions.length > 0) await ensureExtensions(extensionDirectory, extensions, log);
  let planner: QueryPlanner | null = null;
  let secrets: StorageSecrets | null = null;
  let engine: Engine;
  try {
    engine = await Engine.start({
      databases: config.databases,
      threads: config.engine.threads,
      memoryLimit: config.engine.memoryLimit,
      extensionDirectory,
      extensions,
      allowedDirectories: catalog?.storageRoots ?? [],
      prepare: async (admin) => {
        planner = await makePlanner(admin, config, { policies, log, catalog: catalog?.service ?? null, storage: () => secrets });
      },
    });
  } catch (e) {
    catalog?.stop();
    throw e;
  }
  // The gateway's own connection for object-store secrets (the catalog vends them per table).
  if (extensions.includes('httpfs')) secrets = new StorageSecrets(await engine.connect(), config.catalog?.storage, catalog?.storageRoots ?? []);
  const server = await startServer({ config, engine, planner: planner!, identity, log });
  return {
    ...server,
    close: async () => {
      await server.close();
      await identity.close();
      policies.stop();
      catalog?.stop();
      engine.close();
    },
  };
}
