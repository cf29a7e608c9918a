/**
 * Runs one pytest file against a target and reads its JUnit report: each case's
 * outcome (PASS, or FAILURE / ERROR / SKIPPED with its message), in run order.
 * A case that was skipped counts as not passed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './lakegate.js';
import { run, type RunResult } from './clients.js';

/** The .venv that scripts/setup-python.sh makes, or LAKEGATE_PYTHON. */
export function python(): string {
  const env = process.env['LAKEGATE_PYTHON'];
  if (env) return env;
  const venv = path.join(REPO_ROOT, '.venv', 'bin', 'python');
  if (fs.existsSync(venv)) return venv;
  throw new Error('no Python with the client libraries and pytest: run scripts/setup-python.sh (or set LAKEGATE_PYTHON)');
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

export interface PytestReport {
  result: RunResult;
  outcome: Map<string, string>;
  order: string[];
}

export async function runPytest(file: string, target: { host: string; port: number }): Promise<PytestReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-pytest-'));
  const junit = path.join(dir, 'junit.xml');
  const outcome = new Map<string, string>();
  const order: string[] = [];
  try {
    const result = await run(python(), ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', `--junitxml=${junit}`, file], {
      cwd: REPO_ROOT,
      env: { ...process.env, LAKEGATE_HOST: target.host, LAKEGATE_PORT: String(target.port), PYTHONDONTWRITEBYTECODE: '1' },
      timeoutMs: 300000,
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
