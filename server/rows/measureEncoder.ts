/**
 * Encoding throughput, not a test: `npx tsx server/rows/measureEncoder.ts [rows] [wide]`.
 * Default columns: (int, bigint, varchar, decimal(10,2), date, timestamp, bool);
 * `wide` adds timestamptz in Europe/Berlin, double, uuid and a short int list.
 * Materialises the chunks first so only encodeChunk is timed; the writer is
 * reset per chunk as the server does after handing a batch to the socket.
 */
import { DuckDBInstance, type DuckDBDataChunk } from '@duckdb/node-api';
import { MessageWriter } from '../../protocol/writer.js';
import { createRowEncoder } from './encoder.js';

const rows = Number(process.argv[2] ?? 1_000_000);
const wide = process.argv[3] === 'wide';
const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const conn = await instance.connect();
const result = await conn.run(`
  SELECT i::INTEGER AS a, (i * 7919)::BIGINT AS b, 'name_' || i AS c,
         (i % 100000 / 100)::DECIMAL(10,2) AS d, DATE '2000-01-01' + (i % 10000)::INTEGER AS e,
         TIMESTAMP '2020-01-01' + to_microseconds(i * 1234567) AS f, i % 3 = 0 AS g
         ${wide ? ", TIMESTAMPTZ '2020-01-01 00:00:00+00' + to_microseconds(i * 7654321) AS h, i / 7 AS k, uuid() AS u, [i, i + 1] AS l" : ''}
  FROM range(${rows}) t(i)`);
const chunks: DuckDBDataChunk[] = [];
for (let ch = await result.fetchChunk(); ch && ch.rowCount > 0; ch = await result.fetchChunk()) chunks.push(ch);

for (const formats of [[0], [1]] as (0 | 1)[][]) {
  const encoder = createRowEncoder(result.columnTypes(), formats, { timeZone: wide ? 'Europe/Berlin' : 'UTC' });
  const out = new MessageWriter(1 << 20);
  let best = Infinity;
  let bestCpu = Infinity;
  let bytes = 0;
  for (let run = 0; run < 5; run++) {
    bytes = 0;
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    for (const ch of chunks) {
      encoder.encodeChunk(ch, out, 0, ch.rowCount);
      bytes += out.length;
      out.reset();
    }
    const cpu = process.cpuUsage(c0);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
    // CPU time as well: the wall clock is noisy on a shared machine.
    bestCpu = Math.min(bestCpu, (cpu.user + cpu.system) / 1e6);
  }
  console.log(
    `${formats[0] ? 'binary' : 'text  '}: ${rows} rows in ${(best * 1000).toFixed(0)} ms wall = ${(rows / best / 1e6).toFixed(2)} M rows/s` +
      ` (${(rows / bestCpu / 1e6).toFixed(2)} M rows/s per CPU second), ${(bytes / rows).toFixed(1)} bytes/row`,
  );
}
