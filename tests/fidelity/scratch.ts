// scratch (not committed): run only the corpus entries of a group, or ad-hoc SQL from a file
import { readFileSync } from 'node:fs';
import { CORPUS } from './corpus.js';
import { KNOWN_DIFFERENCES } from './known.js';
import { runCorpus, startSides, summary } from './harness.js';
const group = process.argv[2] ?? 'analyst2';
const file = process.argv[3];
const entries = file ? readFileSync(file, 'utf8').split('\n@@\n').map((s) => s.trim()).filter(Boolean).map((sql) => ({ group: 'adhoc', sql, ordered: true })) : CORPUS.filter((e) => e.group === group);
const sides = await startSides();
try {
  const outcomes = await runCorpus(sides, entries);
  for (const o of outcomes) {
    if (o.verdict === 'identical') continue;
    const k = KNOWN_DIFFERENCES[o.entry.sql];
    console.log(`${o.verdict.toUpperCase()}${k ? ' (' + k.kind + ')' : ''} ${o.entry.sql}\n    ${o.why}\n    PG: ${JSON.stringify(o.pg).slice(0, 400)}\n    LG: ${JSON.stringify(o.lakegate).slice(0, 400)}`);
  }
  console.log(summary(outcomes));
} finally { await sides.stop(); }
