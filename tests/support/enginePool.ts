/** An engine pool for tests that drive the engine processes directly (server/engine/pool.ts). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { EnginePool, type EnginePoolOptions } from '../../server/engine/pool.js';
import type { EngineConnection } from '../../server/engine/connection.js';

export async function startTestPool(
  start: Partial<EnginePoolOptions['start']> = {},
  over: Partial<Omit<EnginePoolOptions, 'start'>> = {},
  prepare?: (admin: EngineConnection) => Promise<void>,
): Promise<{ pool: EnginePool; close(): Promise<void> }> {
  const spill = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-pool-'));
  const pool = await EnginePool.start(
    {
      start: { config: { threads: '2' }, extensions: [], databases: {}, allowedDirectories: [], ...start },
      tempDirectory: spill,
      threadpoolSize: 16,
      maxProcesses: 4,
      spares: 0,
      idleMs: 60_000,
      processMemoryBytes: 4 * 2 ** 30,
      totalMemoryBytes: 8 * 2 ** 30,
      processOverheadBytes: 256 * 2 ** 20,
      watchIntervalMs: 1000,
      log: pino({ level: 'silent' }),
      ...over,
    },
    prepare,
  );
  return {
    pool,
    close: async () => {
      await pool.close();
      fs.rmSync(spill, { recursive: true, force: true });
    },
  };
}
