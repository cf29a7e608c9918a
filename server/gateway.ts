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
import type { PlannerDeps } from './planner.js';

/** Builds the planner on the privileged connection, before the engine is locked. */
export type PlannerFactory = (admin: DuckDBConnection, config: Config, deps: PlannerDeps) => Promise<QueryPlanner>;

export async function startGateway(config: Config, log: Logger, makePlanner: PlannerFactory): Promise<RunningServer> {
  const policies = await startPolicies(config.ranger, log);
  const roles = rangerRoles(() => policies.current()?.roleStore ?? null);
  const throttle = new LoginThrottle(config.throttle);
  const identity: IdentityProvider = config.keycloak
    ? new KeycloakIdentityProvider(config.keycloak, roles, throttle, log.child({ component: 'keycloak' }))
    : new LocalIdentityProvider(LocalUsers.load(config.usersFile!), config.localAuth, roles, throttle, randomBytes(32), log);
  let planner: QueryPlanner | null = null;
  const engine = await Engine.start({
    databases: config.databases,
    threads: config.engine.threads,
    memoryLimit: config.engine.memoryLimit,
    prepare: async (admin) => {
      planner = await makePlanner(admin, config, { policies, log });
    },
  });
  const server = await startServer({ config, engine, planner: planner!, identity, log });
  return {
    ...server,
    close: async () => {
      await server.close();
      await identity.close();
      policies.stop();
      engine.close();
    },
  };
}
