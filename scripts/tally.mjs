// Turn Jest's --json report into the closing line "N passed, N failed".
// A test file that failed without running its tests (compile error, failing
// beforeAll, crash) counts as one failure; a Jest run that produced no report
// or exited non-zero with nothing failed counts as one failure too.
import fs from 'node:fs';

const [file, rcArg, extraPassed, extraFailed] = process.argv.slice(2);
const rc = Number(rcArg ?? 0);
// checks run outside Jest (type checks) are added to the count
let passed = Number(extraPassed ?? 0);
let failed = Number(extraFailed ?? 0);
let skipped = 0;
if (!file || !fs.existsSync(file)) {
  console.error('tally: no Jest report (Jest crashed or timed out)');
  failed++;
} else {
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const suite of r.testResults ?? []) {
    const tests = suite.assertionResults ?? [];
    for (const t of tests) {
      if (t.status === 'passed') passed++;
      else if (t.status === 'failed') failed++;
      else skipped++;
    }
    if (suite.status !== 'passed' && !tests.some((t) => t.status === 'failed')) {
      console.error(`tally: ${suite.name} failed outside its tests:\n${(suite.message ?? '').slice(0, 4000)}`);
      failed++;
    }
  }
  if (rc !== 0 && failed === Number(extraFailed ?? 0)) {
    console.error(`tally: Jest exited ${rc} with no failed test`);
    failed++;
  }
  if ((r.numTotalTests ?? 0) === 0) {
    console.error('tally: no test ran');
    failed++;
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
