/**
 * MASK_HASH throughput in-process, next to its ceiling in SQL: the installed
 * macro (HMAC-SHA256: two sha256 calls over four 64-byte blocks for a short
 * value) and DuckDB's sha256 of the value alone (one block: no HMAC written
 * in SQL can be faster), interleaved run by run; Node's createHmac per row for
 * comparison. The macro is checked against Node's crypto first.
 */
import { createHmac } from 'node:crypto';
import { DuckDBInstance } from '@duckdb/node-api';
import { installMaskMacros } from '../../policy/rewrite/macros.js';
import { EMULATION_DB } from '../../sql/emulation.js';
import { median } from '../lib/util.js';
import { MASK_KEY } from './setup.js';

export interface HashFigures {
  rows: number;
  /** M rows/s of each expression, the time of `max(v)` over the same rows subtracted */
  macroRowsPerSec: number;
  sha256RowsPerSec: number;
  jsRowsPerSec: number;
  runs: number;
}

export async function maskHashThroughput(rows: number, runs = 5): Promise<HashFigures> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    await conn.run(`ATTACH ':memory:' AS ${EMULATION_DB}`);
    await installMaskMacros((s) => conn.run(s), MASK_KEY);
    const macro = `${EMULATION_DB}.lgp.mask_hash`;
    // correctness first: generated values and the edge cases, against Node's crypto
    await conn.run(`CREATE TABLE s AS SELECT CAST(i AS VARCHAR) || '-' || CAST(i * 7 AS VARCHAR) || '-ssn' AS v FROM range(${rows}) r(i)`);
    const sample = (await conn.runAndReadAll(`SELECT v, ${macro}(v) FROM ((SELECT v FROM s LIMIT 1000) UNION ALL (SELECT unnest(['', 'é漢字🙂', repeat('x', 300)])))`)).getRows();
    for (const [v, h] of sample) {
      if (createHmac('sha256', MASK_KEY).update(String(v), 'utf8').digest('hex') !== h) throw new Error(`MASK_HASH of ${String(v)} differs from Node's HMAC`);
    }
    if ((await conn.runAndReadAll(`SELECT ${macro}(NULL::VARCHAR)`)).getRows()[0]![0] !== null) throw new Error('MASK_HASH of NULL is not NULL');
    const exprs = { base: 'v', sha256: 'sha256(v)', macro: `${macro}(v)` };
    const times: Record<string, number[]> = { base: [], sha256: [], macro: [] };
    for (let i = 0; i <= runs; i++) {
      for (const [k, e] of Object.entries(exprs)) {
        const t0 = performance.now();
        await conn.runAndReadAll(`SELECT max(${e}) FROM s`);
        if (i > 0) times[k]!.push(performance.now() - t0); // the first round warms up
      }
    }
    const base = median(times['base']!);
    const perSec = (k: string) => rows / ((median(times[k]!) - base) / 1000);
    const n = 1_000_000;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) createHmac('sha256', MASK_KEY).update(`${i}-${i * 7}-ssn`).digest('hex');
    const jsMs = performance.now() - t0;
    return { rows, macroRowsPerSec: perSec('macro'), sha256RowsPerSec: perSec('sha256'), jsRowsPerSec: n / (jsMs / 1000), runs };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
