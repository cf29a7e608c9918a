/**
 * Renders results.jsonl (written by run.sh, load-*.ts, check-data.ts, measure.ts)
 * as a Markdown report: absolute figures and lakegate's ratio to each reference.
 *
 * usage: tsx bench/report.ts --in results.jsonl > report.md
 */
import { arg, readJsonl } from './lib/util.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Rec = Record<string, any>;
const recs = readJsonl<Rec>(arg('in'));
const of = (kind: string): Rec[] => recs.filter((r) => r.kind === kind);

const mrows = (n: number): string => (Number.isFinite(n) ? (n / 1e6).toFixed(3) : '—');
const ms = (us: number): string => (Number.isFinite(us) ? (us / 1000).toFixed(3) : '—');
const mib = (kb: number | null | undefined): string => (kb ? (kb / 1024).toFixed(0) : '—');
const ratio = (a: number, b: number): string => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? (a / b).toFixed(2) : '—');
const size = (n: number): string => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));

const machine = of('machine')[0] ?? {};
const lines: string[] = [];
const p = (s = ''): void => { lines.push(s); };

p(`## lakegate bench — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC${machine.quick ? ' (--quick)' : ''}`);
p();
p(`Machine: ${machine.nproc} cores (${machine.cpu}), ${machine.memMiB} MiB RAM, shared. PostgreSQL ${machine.postgres}, PgBouncer ${machine.pgbouncer}, Node ${machine.node}, lakegate commit ${machine.commit}. Whole run: ${machine.elapsedSec} s. Load average (1/5/15 min) at start ${machine.loadStart}, at end ${machine.loadEnd}: other work shares these cores.`);
for (const n of of('note')) p(`\n**Note:** ${n.text}`);
p();

p('### Data');
p();
for (const c of of('data-check')) p(`- ${size(c.rows)} rows: PostgreSQL and DuckDB checksums ${c.equal ? 'equal' : '**DIFFER**'}.`);
for (const s of of('sample')) {
  p(`- ${size(s.rows)} rows: ${s.lines} sample rows through psql, lakegate vs PostgreSQL text: ${s.equal ? 'byte-identical' : `**different** — first difference: PostgreSQL \`${s.firstDiff?.postgres}\` vs lakegate \`${s.firstDiff?.lakegate}\``}.`);
}
p();

const streams = of('stream');
if (streams.length) {
  p('### Streaming `select * from bench.t_N` (7 columns), rows/s — median of the runs');
  p();
  p('Clients: `psql` = `psql -At -c …` to /dev/null (simple query); `node-pg` = node-postgres, extended protocol, one Execute, rows counted and dropped; `node-pg-cursor` = the same, fetching the portal 10,000 rows per Execute (PortalSuspended), as pg-cursor does.');
  p();
  p('| rows | client | PostgreSQL M rows/s | lakegate M rows/s | lakegate / PostgreSQL | target (≥ 1.00) |');
  p('|---|---|---|---|---|---|');
  const sizes = [...new Set(streams.map((s) => s.rows as number))].sort((a, b) => a - b);
  for (const rows of sizes) {
    for (const client of ['psql', 'node-pg', 'node-pg-cursor']) {
      const pgS = streams.find((s) => s.target === 'postgres' && s.client === client && s.rows === rows);
      const lgS = streams.find((s) => s.target === 'lakegate' && s.client === client && s.rows === rows);
      if (!pgS) continue;
      const lgCell = lgS ? (lgS.error ? `FAILED: ${lgS.error}` : mrows(lgS.rowsPerSec)) : 'not run';
      const r = lgS && !lgS.error ? lgS.rowsPerSec / pgS.rowsPerSec : NaN;
      p(`| ${size(rows)} | ${client} | ${pgS.error ? 'FAILED: ' + pgS.error : mrows(pgS.rowsPerSec)} | ${lgCell} | ${ratio(lgS?.rowsPerSec, pgS.rowsPerSec)} | ${Number.isFinite(r) ? (r >= 1 ? 'met' : '**missed**') : '—'} |`);
    }
  }
  const dd = streams.filter((s) => s.target === 'duckdb');
  if (dd.length) {
    p();
    p('DuckDB direct (in-process @duckdb/node-api, same SELECT; no wire, no client): ' +
      sizes.map((rows) => {
        const c = dd.find((s) => s.rows === rows && s.client === 'duckdb-node-chunks');
        const v = dd.find((s) => s.rows === rows && s.client === 'duckdb-node-values');
        return `${size(rows)}: ${mrows(c?.rowsPerSec)} M rows/s reading chunks, ${mrows(v?.rowsPerSec)} M rows/s converting every value to JS`;
      }).join('; ') + '.');
  }
  p();
  p('### Server memory while streaming: lakegate process vs PostgreSQL client backend, largest of the runs');
  p();
  p('Peak RSS is VmHWM (reset before each lakegate run); for PostgreSQL it includes the shared buffers the backend touched. Private is the largest RssAnon sampled every 100 ms.');
  p();
  p('| rows | client | PostgreSQL peak RSS MiB (private) | lakegate peak RSS MiB (private) | lakegate / PostgreSQL peak RSS |');
  p('|---|---|---|---|---|');
  for (const rows of sizes) {
    for (const client of ['psql', 'node-pg', 'node-pg-cursor']) {
      const pgS = streams.find((s) => s.target === 'postgres' && s.client === client && s.rows === rows);
      const lgS = streams.find((s) => s.target === 'lakegate' && s.client === client && s.rows === rows);
      if (!pgS) continue;
      p(`| ${size(rows)} | ${client} | ${mib(pgS.peakRssKb)} (${mib(pgS.peakAnonKb)}) | ${lgS ? `${mib(lgS.peakRssKb)} (${mib(lgS.peakAnonKb)})` : '—'} | ${ratio(lgS?.peakRssKb, pgS.peakRssKb)} |`);
    }
  }
  p();
}

const lat = of('latency');
if (lat.length) {
  const rows = lat[0].rows;
  const pgb = lat.find((l) => l.target !== 'duckdb') ?? lat[0];
  p(`### Prepared point SELECT \`… FROM bench.t_${rows} WHERE id = $1\` (pgbench, ${pgb.seconds} s per point, random ids)`);
  p();
  p('PostgreSQL has a primary key on id; lakegate (DuckDB) has no index (DuckDB prunes by min/max zone maps; ids are stored in order).');
  p();
  p('DuckDB direct is the same prepared statement run in-process through @duckdb/node-api on 1 or 16 connections (not pgbench): the engine\'s floor under lakegate.');
  p();
  p('| clients | target | mode | tx | p50 ms | p99 ms | tps | lakegate / this p50 | lakegate / this p99 |');
  p('|---|---|---|---|---|---|---|---|---|');
  for (const clients of [1, 16]) {
    const lg = lat.find((l) => l.target === 'lakegate' && l.clients === clients && !l.error);
    const order = ['lakegate', 'duckdb', 'postgres', 'pgbouncer'];
    for (const l of lat.filter((x) => x.clients === clients).sort((a, b) => order.indexOf(a.target) - order.indexOf(b.target))) {
      const name = { pgbouncer: 'PgBouncer → PostgreSQL', postgres: 'PostgreSQL direct', duckdb: 'DuckDB direct (in-process, no wire)', lakegate: 'lakegate' }[l.target as string] ?? l.target;
      const err = l.error ? ` (${l.error}${l.failed ? `, ${l.failed} failed` : ''})` : '';
      const self = l.target === 'lakegate';
      p(`| ${clients} | ${name}${err} | ${l.mode} | ${l.count} | ${ms(l.p50us)} | ${ms(l.p99us)} | ${Number.isFinite(l.tps) ? l.tps.toFixed(0) : '—'} | ${self ? '' : ratio(lg?.p50us, l.p50us)} | ${self ? '' : ratio(lg?.p99us, l.p99us)} |`);
    }
  }
  p();
  p('Latency ratios above 1 mean lakegate is slower.');
}

process.stdout.write(lines.join('\n') + '\n');

// --check (the CI smoke run): a target that stops answering or a result that differs fails the run; timings are not judged.
if (process.argv.includes('--check')) {
  const failures = [
    ...of('data-check').filter((c) => !c.equal).map((c) => `${c.rows} rows: PostgreSQL and DuckDB data differ`),
    ...of('sample').filter((x) => !x.equal).map((x) => `${x.rows} rows: lakegate's text differs from PostgreSQL's`),
    ...[...streams, ...lat].filter((x) => x.error).map((x) => `${x.target} ${x.client ?? `${x.clients} clients ${x.mode}`}: ${x.error}`),
    ...of('note').filter((n) => /did not start|exited during the run|not measured/.test(n.text)).map((n) => n.text),
  ];
  const targets = new Set([...streams, ...lat].map((x) => x.target));
  if (!targets.has('lakegate')) failures.push('lakegate was not measured');
  for (const f of failures) process.stderr.write(`check: ${f}\n`);
  process.stderr.write(`check: ${failures.length === 0 ? 'every target answered and every result matched' : `${failures.length} failures`}\n`);
  if (failures.length > 0) process.exitCode = 3;
}
