/**
 * A demo gateway inside the test process, for tests that need a
 * configuration the CLI demo does not take (TLS, limits). Run client
 * programs asynchronously: they share this event loop with the server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { parseConfig, type ConfigInput } from '../../server/config.js';
import { demoConfig } from '../../server/demo.js';
import { startGateway, type PlannerFactory } from '../../server/gateway.js';
import type { RunningServer } from '../../server/listener.js';
import { createPlanner } from '../../server/planner.js';

export interface InProcessGateway {
  server: RunningServer;
  dir: string;
  stop(): Promise<void>;
}

export async function startInProcess(
  overrides: (dir: string) => Partial<ConfigInput>,
  opts: { logger?: Logger; makePlanner?: PlannerFactory } = {},
): Promise<InProcessGateway> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-ip-'));
  const base = await demoConfig({ host: '127.0.0.1', port: 0, dataDir: path.join(dir, 'data') });
  const config = parseConfig({ ...base, ...overrides(dir) });
  const server = await startGateway(config, opts.logger ?? pino({ level: 'silent' }), opts.makePlanner ?? createPlanner);
  return {
    server,
    dir,
    stop: async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A warehouse written by pyiceberg into ROOT (catalog.db, warehouse/) as database `lake`, gated by
 * the Ranger policies in `rangerDir` (service lakehouse) and the catalog-gate policies in
 * `polarisDir` (service polaris), realm POLARIS: the overrides the embedded-catalog suites share.
 */
export function embeddedLake(root: string, rangerDir: string, polarisDir: string): Pick<ConfigInput, 'ranger' | 'catalog'> {
  return {
    ranger: { source: { kind: 'local', path: rangerDir, serviceName: 'lakehouse' }, refreshMs: 30_000, maxStalenessMs: 300_000 },
    catalog: {
      database: 'lake',
      cacheTtlMs: 30_000,
      loadConcurrency: 4,
      source: {
        kind: 'embedded',
        sqliteFile: path.join(root, 'catalog.db'),
        warehouse: [path.join(root, 'warehouse')],
        realm: 'POLARIS',
        policies: { source: { kind: 'local', path: polarisDir, serviceName: 'polaris' }, refreshMs: 30_000, maxStalenessMs: 300_000 },
      },
    },
  };
}
