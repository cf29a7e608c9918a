/**
 * Shared plumbing for the Ranger / Polaris conformance drivers: where the fixtures
 * live, how a fixture file is read, and the shape every driver reports in.
 *
 * The fixtures are Apache Ranger's and Apache Polaris's own test data; they are read
 * from ../shared/ranger-conformance (or $LAKEGATE_RANGER_CONFORMANCE) and never
 * copied into this repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function conformanceDir(): string {
  return process.env.LAKEGATE_RANGER_CONFORMANCE ?? resolve(repoRoot, '..', 'shared', 'ranger-conformance');
}

export function fixturesPresent(): boolean {
  return existsSync(join(conformanceDir(), 'MANIFEST.md'));
}

/** `test` when the fixtures are there; else skipped, except under CI=true, where that is a failure. */
export function fixtureTest(): typeof test {
  if (fixturesPresent()) return test;
  if (process.env.CI === 'true') throw new Error(`Ranger conformance fixtures are missing at ${conformanceDir()} (set LAKEGATE_RANGER_CONFORMANCE)`);
  return test.skip;
}

/** Gson reads these files leniently: `#` starts a comment that runs to the end of the line. */
function stripHashComments(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else out += c;
  }
  return out;
}

export function readFixture(relPath: string): unknown {
  const text = readFileSync(join(conformanceDir(), relPath), 'utf8');
  return JSON.parse(stripHashComments(text));
}

export type CaseStatus = 'pass' | 'fail' | 'skip';

export interface CaseResult {
  name: string;
  status: CaseStatus;
  /** For a skip: why (also listed in skips.ts). For a failure: expected vs got. */
  detail?: string;
}

export interface FileResult {
  /** Path relative to the conformance folder. */
  file: string;
  cases: CaseResult[];
}

export interface Driver {
  /** A short name for the family, e.g. "resource matcher". */
  name: string;
  run(): FileResult[];
}

export function count(results: FileResult[]): { passed: number; failed: number; skipped: number } {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const f of results)
    for (const c of f.cases) {
      if (c.status === 'pass') passed++;
      else if (c.status === 'fail') failed++;
      else skipped++;
    }
  return { passed, failed, skipped };
}

/**
 * `describe` for a conformance suite: runs when the fixtures are there; without
 * them it is skipped with a note — except under CI=true, where missing fixtures
 * are a failure, never a silent skip.
 */
export function describeWithFixtures(title: string, body: () => void): void {
  if (fixturesPresent()) {
    describe(title, body);
    return;
  }
  if (process.env.CI === 'true') throw new Error(`Ranger conformance fixtures are missing at ${conformanceDir()} (set LAKEGATE_RANGER_CONFORMANCE)`);
  console.warn(`Ranger conformance fixtures not found at ${conformanceDir()}: "${title}" skipped`);
  describe.skip(title, body);
}
