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

/** Builds the planner on the privileged connection, before the engine is locked. */
export type PlannerFactory = (admin: DuckDBConnection, config: Config) => Promise<QueryPlanner>;

export async function startGateway(config: Config, log: Logger, makePlanner: PlannerFactory): Promise<RunningServer> {
  const users = LocalUsers.load(config.usersFile);
  let planner: QueryPlanner | null = null;
  const engine = await Engine.start({
    databases: config.databases,
    threads: config.engine.threads,
    memoryLimit: config.engine.memoryLimit,
    prepare: async (admin) => {
      planner = await makePlanner(admin, config);
    },
  });
  const server = await startServer({ config, engine, planner: planner!, users, log });
  return {
    ...server,
    close: async () => {
      await server.close();
      engine.close();
    },
  };
}
