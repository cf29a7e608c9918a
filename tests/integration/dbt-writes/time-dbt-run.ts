/**
 * Issue 19's speed line: the wall time of one full first-run `dbt run` of this project (the dbt
 * process from start to exit: its Python start and parse included, on an empty schema after
 * `dbt seed`), three times, each on a fresh server, and the median; next to it dbt's own time for
 * running the six models (run_results.json's elapsed_time), which leaves out Python and the parse.
 *
 *   npx tsx tests/integration/dbt-writes/time-dbt-run.ts              # a real PostgreSQL 15, as bob
 *   npx tsx tests/integration/dbt-writes/time-dbt-run.ts --lakegate   # `lakegate demo` (dist/), as bob
 */
import os from 'node:os';
import { DbtProject, startReferenceDemo, type DbtConnection } from '../../support/dbtWrites.js';
import { startLakegate } from '../../support/lakegate.js';

const RUNS = 3;
const onLakegate = process.argv.includes('--lakegate');

async function freshServer(): Promise<{ conn: DbtConnection; stop: () => Promise<void> }> {
  if (onLakegate) {
    const lg = await startLakegate();
    return { conn: { host: lg.host, port: lg.port, user: 'bob', password: 'bob', dbname: 'demo' }, stop: lg.stop };
  }
  const pg = await startReferenceDemo();
  return { conn: pg.engineer, stop: pg.stop };
}

const times: number[] = [];
const nodeTimes: number[] = [];
for (let i = 1; i <= RUNS; i++) {
  const server = await freshServer();
  const project = new DbtProject();
  try {
    const seed = await project.dbt(server.conn, 1, 'seed');
    if (seed.code !== 0) throw new Error(`dbt seed exited ${seed.code}\n${seed.output}`);
    const run = await project.dbt(server.conn, 1, 'run');
    if (run.code !== 0) throw new Error(`dbt run exited ${run.code}\n${run.output}`);
    times.push(run.elapsedMs);
    nodeTimes.push(run.nodesSeconds ?? NaN);
    console.log(
      `run ${i}: dbt run ${(run.elapsedMs / 1000).toFixed(2)} s, of which running the models ${run.nodesSeconds?.toFixed(2)} s (load average ${os.loadavg()[0]!.toFixed(1)})`,
    );
  } finally {
    project.remove();
    await server.stop();
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `${onLakegate ? 'lakegate demo' : 'PostgreSQL 15'}: first-run dbt run, median of ${RUNS}: ${(median(times) / 1000).toFixed(2)} s wall, ${median(nodeTimes).toFixed(2)} s running the models`,
);
