/**
 * `npm run fidelity`: the corpus against lakegate and a real PostgreSQL.
 * Prints each difference not listed in known.ts (with --verbose, the listed
 * ones too, with their reasons), a count by kind, and ends with
 * `pg-fidelity: P identical, D different, E errors of N`.
 */
import { writeFileSync } from 'node:fs';
import { KNOWN_DIFFERENCES } from './known.js';
import { runCorpus, startSides, summary } from './harness.js';

const verbose = process.argv.includes('--verbose');
// --json FILE: every outcome, for tests/fidelity/fidelity.test.ts (which runs this in its own process:
// under Jest's module sandbox the engine's errors would not be recognised as the server's own)
const jsonAt = process.argv.indexOf('--json');
const jsonFile = jsonAt > 0 ? process.argv[jsonAt + 1] : undefined;
const sides = await startSides();
try {
  const outcomes = await runCorpus(sides);
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify(outcomes));
  const counts = { deliberate: 0, open: 0, unlisted: 0 };
  for (const o of outcomes) {
    if (o.verdict === 'identical') continue;
    const known = KNOWN_DIFFERENCES[o.entry.sql];
    counts[known?.kind ?? 'unlisted']++;
    if (known && !verbose) continue;
    console.log(`${o.verdict.toUpperCase()} [${o.entry.group}] ${o.entry.sql.replace(/\s+/g, ' ').slice(0, 160)}\n    ${o.why}${known ? `\n    ${known.kind}: ${known.reason}` : ''}`);
  }
  console.log(`differences: ${counts.deliberate} deliberate, ${counts.open} open (tests/fidelity/known.ts), ${counts.unlisted} unlisted`);
  console.log(summary(outcomes));
} finally {
  await sides.stop();
}
