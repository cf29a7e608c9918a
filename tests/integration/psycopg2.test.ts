/**
 * psycopg2: runs tests/integration/python/test_psycopg2.py with pytest (from the
 * .venv that scripts/setup-python.sh makes, or LAKEGATE_PYTHON) against a lakegate
 * demo, and turns each pytest case of its JUnit report into a Jest test. A case that
 * did not run, or was skipped, is a failure.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startTarget, type Target } from '../support/target.js';
import { REPO_ROOT } from '../support/lakegate.js';
import { run, type RunResult } from '../support/clients.js';

const PY_FILE = path.join(REPO_ROOT, 'tests', 'integration', 'python', 'test_psycopg2.py');

const ROUND_TRIP_IDS = [
  'int2',
  'int4',
  'int8',
  'float8',
  'float8 tiny',
  'numeric',
  'bool',
  'text',
  'text quotes backslash',
  'varchar',
  'date',
  'timestamp',
  'uuid',
  'null',
];

/** Every pytest case in test_psycopg2.py, as JUnit names them. */
const CASES = [
  'test_login_and_parameter_status',
  'test_wrong_password',
  'test_unknown_database',
  'test_fetch_orders_decoded',
  'test_search_path_option_unqualified_table',
  'test_set_search_path_then_unqualified',
  ...ROUND_TRIP_IDS.map((id) => `test_types_round_trip[${id}]`),
  'test_bytea_round_trip',
  'test_timestamptz_round_trip',
  'test_many_types_one_row',
  'test_error_rollback_recover',
  'test_explicit_transaction_statuses',
  'test_autocommit',
  'test_syntax_error_position',
  'test_refused_statement',
  'test_several_statements_last_result',
  'test_dbt_query_comment',
  'test_cancel',
];

function python(): string {
  const env = process.env['LAKEGATE_PYTHON'];
  if (env) return env;
  const venv = path.join(REPO_ROOT, '.venv', 'bin', 'python');
  if (fs.existsSync(venv)) return venv;
  throw new Error('no Python with psycopg2 and pytest: run scripts/setup-python.sh (or set LAKEGATE_PYTHON)');
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

let t: Target;
let result: RunResult;
const outcome = new Map<string, string>();
const order: string[] = [];

beforeAll(async () => {
  const py = python();
  t = await startTarget();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-pytest-'));
  const junit = path.join(dir, 'junit.xml');
  try {
    result = await run(py, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', `--junitxml=${junit}`, PY_FILE], {
      cwd: REPO_ROOT,
      env: { ...process.env, LAKEGATE_HOST: t.host, LAKEGATE_PORT: String(t.port), PYTHONDONTWRITEBYTECODE: '1' },
      timeoutMs: 300000,
    });
    const xml = fs.existsSync(junit) ? fs.readFileSync(junit, 'utf8') : '';
    const re = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
    for (let m = re.exec(xml); m; m = re.exec(xml)) {
      const nameAttr = /\bname="([^"]*)"/.exec(m[1]!);
      if (!nameAttr) continue;
      const name = unescapeXml(nameAttr[1]!);
      const body = m[3] ?? '';
      const bad = /<(failure|error|skipped)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/.exec(body);
      if (!bad) outcome.set(name, 'PASS');
      else {
        const msg = /message="([^"]*)"/.exec(bad[2] ?? '');
        outcome.set(name, `${bad[1]!.toUpperCase()}: ${unescapeXml(msg?.[1] ?? '')}\n${unescapeXml(bad[3] ?? '').slice(0, 2000)}`);
      }
      order.push(name);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 400000);

afterAll(async () => {
  await t?.stop();
});

describe('psycopg2 (pytest test_psycopg2.py)', () => {
  test('pytest ran every case', () => {
    const detail = result.code === 0 || result.code === 1 ? '' : `exit ${result.code}${result.timedOut ? ' (timed out)' : ''}\n${result.stdout}\n${result.stderr}`;
    expect(detail).toBe('');
    expect(order).toEqual(CASES);
  });

  test.each(CASES)('%s', (name) => {
    expect(outcome.get(name) ?? 'NOT RUN').toBe('PASS');
  });
});
