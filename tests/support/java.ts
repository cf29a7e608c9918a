/** pgJDBC programs under tests/integration/java: find the driver jar, compile, run. */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './lakegate.js';
import { run, type RunResult } from './clients.js';

export const JAVA_DIR = path.join(REPO_ROOT, 'tests', 'integration', 'java');
const CLASSES = path.join(JAVA_DIR, 'target');

export function findPgJdbcJar(): string {
  const env = process.env['LAKEGATE_PGJDBC_JAR'];
  if (env) {
    if (!fs.existsSync(env)) throw new Error(`LAKEGATE_PGJDBC_JAR=${env} does not exist`);
    return env;
  }
  const dir = path.join(REPO_ROOT, '.tools', 'pgjdbc');
  const jars = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^postgresql-.*\.jar$/.test(f)).sort() : [];
  if (jars.length) return path.join(dir, jars[jars.length - 1]!);
  if (fs.existsSync('/usr/share/java/postgresql.jar')) return '/usr/share/java/postgresql.jar';
  throw new Error('pgJDBC driver jar not found: run scripts/fetch-pgjdbc.sh (or set LAKEGATE_PGJDBC_JAR)');
}

/** Compiles tests/integration/java/<name>.java against the driver jar. */
export async function compileJava(name: string): Promise<void> {
  fs.mkdirSync(CLASSES, { recursive: true });
  const javac = await run('javac', ['-encoding', 'UTF-8', '-d', CLASSES, '-cp', findPgJdbcJar(), path.join(JAVA_DIR, `${name}.java`)], {
    timeoutMs: 120000,
  });
  if (javac.code !== 0) throw new Error(`javac failed (${javac.code}):\n${javac.stdout}\n${javac.stderr}`);
}

export function runJava(mainClass: string, args: string[], timeoutMs = 240000): Promise<RunResult> {
  return run('java', ['-Dfile.encoding=UTF-8', '-cp', `${findPgJdbcJar()}${path.delimiter}${CLASSES}`, mainClass, ...args], { timeoutMs });
}
