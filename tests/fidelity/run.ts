/**
 * `npm run fidelity`: the corpus against lakegate and a real PostgreSQL.
 * Prints one line per answer that differs (with --verbose, also which
 * differences are listed as known) and ends with
 * `pg-fidelity: P identical, D different, E errors of N`.
 */
import { KNOWN_DIFFERENCES } from './known.js';
import { runCorpus, startSides, summary } from './harness.js';

const verbose = process.argv.includes('--verbose');
const sides = await startSides();
try {
  const outcomes = await runCorpus(sides);
  for (const o of outcomes) {
    if (o.verdict === 'identical') continue;
    const known = KNOWN_DIFFERENCES[o.entry.sql];
    if (known && !verbose) continue;
    console.log(`${o.verdict.toUpperCase()} [${o.entry.group}] ${o.entry.sql.replace(/\s+/g, ' ').slice(0, 160)}\n    ${o.why}${known ? `\n    known: ${known}` : ''}`);
  }
  const listed = outcomes.filter((o) => o.verdict !== 'identical' && KNOWN_DIFFERENCES[o.entry.sql]).length;
  console.log(`${listed} of the differences are listed in tests/fidelity/known.ts`);
  console.log(summary(outcomes));
} finally {
  await sides.stop();
}
