/**
 * `npm run conformance`: runs every Ranger / Polaris fixture driver, prints a
 * table per file and, last, `ranger-conformance: P passed, F failed, S skipped`.
 * Exits non-zero on any failure, and when the fixtures are missing under CI.
 */
import { count, fixturesPresent, conformanceDir, type FileResult } from './harness.js';
import { drivers } from './drivers.js';

function pad(s: string | number, n: number): string {
  return String(s).padEnd(n);
}

function main(): number {
  if (!fixturesPresent()) {
    console.log(`ranger-conformance: fixtures not found at ${conformanceDir()} (set LAKEGATE_RANGER_CONFORMANCE)`);
    console.log('ranger-conformance: 0 passed, 0 failed, 0 skipped');
    return process.env.CI === 'true' ? 1 : 0;
  }
  const verbose = process.argv.includes('--verbose');
  const all: FileResult[] = [];
  for (const d of drivers) {
    const results = d.run();
    all.push(...results);
    console.log(`\n== ${d.name}`);
    console.log(`${pad('file', 84)} ${pad('pass', 5)} ${pad('fail', 5)} skip`);
    for (const f of results) {
      const c = count([f]);
      console.log(`${pad(f.file, 84)} ${pad(c.passed, 5)} ${pad(c.failed, 5)} ${c.skipped}`);
      for (const k of f.cases)
        if (k.status === 'fail' || (verbose && k.status === 'skip')) console.log(`    ${k.status.toUpperCase()} ${k.name}: ${k.detail ?? ''}`);
    }
  }
  const c = count(all);
  const ran = c.passed + c.failed;
  const total = ran + c.skipped;
  console.log(`\nran ${ran} of ${total} cases (${total ? ((100 * ran) / total).toFixed(1) : '0'}%)`);
  console.log(`ranger-conformance: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
  return c.failed > 0 ? 1 : 0;
}

process.exitCode = main();
