/**
 * The pair every differential encoder test compares: a throwaway real
 * PostgreSQL (raw bytes through RawPgClient) and an in-memory DuckDB.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDuck } from './duckRows.js';
import { RawPgClient } from './pgRaw.js';
import { startPostgres } from './realPostgres.js';

export interface ReferencePair {
  pg: RawPgClient;
  duck: DuckDBConnection;
  stop(): Promise<void>;
}

export async function startReferencePair(): Promise<ReferencePair> {
  const server = await startPostgres();
  const pg = await RawPgClient.connect(server.host, server.port);
  const duck = await openDuck();
  return {
    pg,
    duck,
    stop: async () => {
      await pg.end();
      await server.stop();
    },
  };
}
