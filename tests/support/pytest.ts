/**
 * Runs one pytest file from the .venv that scripts/setup-python.sh makes (or
 * LAKEGATE_PYTHON) against a target, and reads each case's outcome from its
 * JUnit report. A case that did not run, or was skipped, is not PASS: the suites
 * turn each case into a Jest test that expects PASS, so a missing tool fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './lakegate.js';
import { run, type RunResult } from './clients.js';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startTarget, type Target } from './target.js';

export function venvPython(venv = '.venv', what = 'psycopg2, psycopg and pytest'): string {
  const env = venv === '.venv' ? process.env['LAKEGATE_PYTHON'] : undefined;
  if (env) return env;
  const py = path.join(REPO_ROOT, venv, 'bin', 'python');
  if (fs.existsSync(py)) return py;
  throw new Error(`no Python with ${what} in ${venv}/: run scripts/setup-python.sh`);
}

function unescapeXml(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#10;/g, '\n')
    .replace(/&amp;/g, '&');
}

export interface PytestRun {
  result: RunResult;
  /** case name → 'PASS' or what went wrong */
  outcome: Map<string, string>;
  /** case names in the order pytest reported them */
  order: string[];
}

export async function runPytest(file: string, t: Pick<Target, 'host' | 'port'>, timeoutMs = 300000): Promise<PytestRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-pytest-'));
  const junit = path.join(dir, 'junit.xml');
  const outcome = new Map<string, string>();
  const order: string[] = [];
  try {
    const result = await run(venvPython(), ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', `--junitxml=${junit}`, file], {
      cwd: REPO_ROOT,
      env: { ...process.env, LAKEGATE_HOST: t.host, LAKEGATE_PORT: String(t.port), PYTHONDONTWRITEBYTECODE: '1' },
      timeoutMs,
    });
    const xml = fs.existsSync(junit) ? fs.readFileSync(junit, 'utf8') : '';
    const re = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
    for (let m = re.exec(xml); m; m = re.exec(xml)) {
      const nameAttr = /\bname="([^"]*)"/.exec(m[1]!);
      if (!nameAttr) continue;
      const name = unescapeXml(nameAttr[1]!);
      const bad = /<(failure|error|skipped)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/.exec(m[3] ?? '');
      if (!bad) outcome.set(name, 'PASS');
      else {
        const msg = /message="([^"]*)"/.exec(bad[2] ?? '');
        outcome.set(name, `${bad[1]!.toUpperCase()}: ${unescapeXml(msg?.[1] ?? '')}\n${unescapeXml(bad[3] ?? '').slice(0, 2000)}`);
      }
      order.push(name);
    }
    return { result, outcome, order };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A Jest suite over one pytest file run against a lakegate demo (startTarget):
 * one test that pytest ran exactly `cases`, in order, then one test per case
 * that expects PASS. `knownFailing` cases (name → cause) run as test.failing,
 * so the suite turns red the day one passes.
 */
export function pytestSuite(title: string, file: string, cases: readonly string[], knownFailing: Readonly<Record<string, string>> = {}): void {
  let t: Target | undefined;
  let py: PytestRun;
  beforeAll(async () => {
    t = await startTarget();
    py = await runPytest(file, t);
  }, 400000);
  afterAll(async () => {
    await t?.stop();
  });
  describe(title, () => {
    test('pytest ran every case', () => {
      const r = py.result;
      expect(r.code === 0 || r.code === 1 ? '' : `exit ${r.code}${r.timedOut ? ' (timed out)' : ''}\n${r.stdout}\n${r.stderr}`).toBe('');
      expect(py.order).toEqual(cases);
    });
    const passing = cases.filter((c) => !(c in knownFailing));
    const failing = cases.filter((c) => c in knownFailing);
    if (passing.length > 0) test.each(passing)('%s', (name) => expect(py.outcome.get(name) ?? 'NOT RUN').toBe('PASS'));
    if (failing.length > 0) test.failing.each(failing)('%s (known failing)', (name) => expect(py.outcome.get(name) ?? 'NOT RUN').toBe('PASS'));
  });
}
