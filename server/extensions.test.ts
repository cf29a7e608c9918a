/**
 * DuckDB's extensions without a manual step, and never unverified: a
 * pre-seeded directory is used as it is (an air-gapped host needs nothing
 * else), a missing file with no way to fetch it is a clear error naming where
 * to put it, and a binary that is not DuckDB's own does not load (signature
 * checking stays on).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { run } from '../tests/support/clients.js';
import { defaultExtensionDirectory, duckdbPlatform, ensureExtensions, extensionFile } from './extensions.js';

let seeded: string;
let platform: string;
let scratch: string;

beforeAll(async () => {
  seeded = defaultExtensionDirectory();
  await ensureExtensions(seeded, ['avro', 'iceberg']);
  platform = await duckdbPlatform();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-ext-'));
}, 300_000);

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/**
 * ensureExtensions(dir, names) in a process with no python3 (nor anything
 * else) on PATH, so nothing can be fetched; its error message, or '' when it
 * succeeded. (A child process: Jest's process.env is not the one child_process reads.)
 */
async function offline(dir: string, names: string[]): Promise<string> {
  const script = `import { ensureExtensions } from './server/extensions.ts';
try { await ensureExtensions(${JSON.stringify(dir)}, ${JSON.stringify(names)}); } catch (e) { process.stdout.write(e.message); }`;
  const r = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: REPO,
    env: { PATH: path.join(scratch, 'no-bin'), HOME: process.env['HOME'] ?? '/root' },
    timeoutMs: 120_000,
  });
  if (r.code !== 0) throw new Error(`offline check failed: ${r.stderr}`);
  return r.stdout;
}

test('a pre-seeded directory is used as it is, with nothing to fetch', async () => {
  const dir = path.join(scratch, 'seeded');
  for (const name of ['avro', 'iceberg'] as const) {
    fs.mkdirSync(path.dirname(extensionFile(dir, platform, name)), { recursive: true });
    fs.copyFileSync(extensionFile(seeded, platform, name), extensionFile(dir, platform, name));
  }
  expect(await offline(dir, ['avro', 'iceberg'])).toBe('');
  const i = await DuckDBInstance.create(':memory:', { extension_directory: dir, autoinstall_known_extensions: 'false', allow_unsigned_extensions: 'false' });
  const c = await i.connect();
  await c.run('LOAD iceberg');
  const r = await c.runAndReadAll("SELECT extension_name FROM duckdb_extensions() WHERE loaded AND extension_name IN ('iceberg', 'avro') ORDER BY 1");
  expect(r.getRows()).toEqual([['avro'], ['iceberg']]);
  i.closeSync();
});

test('missing and unfetchable: an error that says where to put the file', async () => {
  const dir = path.join(scratch, 'empty');
  const message = await offline(dir, ['iceberg']);
  expect(message).toContain(`pre-seed ${extensionFile(dir, platform, 'iceberg')}`);
  expect(message).toContain('python3 -m pip download duckdb-extension-iceberg==1.5.5');
}, 120_000);

test('a binary that is not DuckDB-signed is refused', async () => {
  const dir = path.join(scratch, 'tampered');
  const file = extensionFile(dir, platform, 'avro');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const bytes = fs.readFileSync(extensionFile(seeded, platform, 'avro'));
  bytes[Math.floor(bytes.length / 2)] ^= 0xff;
  fs.writeFileSync(file, bytes);
  const i = await DuckDBInstance.create(':memory:', { extension_directory: dir, autoinstall_known_extensions: 'false', allow_unsigned_extensions: 'false' });
  const c = await i.connect();
  await expect(c.run('LOAD avro')).rejects.toThrow(/signature/i);
  // control: the untouched file loads in the same way
  fs.copyFileSync(extensionFile(seeded, platform, 'avro'), file);
  const j = await DuckDBInstance.create(':memory:', { extension_directory: dir, autoinstall_known_extensions: 'false', allow_unsigned_extensions: 'false' });
  await (await j.connect()).run('LOAD avro');
  i.closeSync();
  j.closeSync();
});

test('a fetch says what it fetches and why before it starts, then its bytes and percent at most every 2 s', async () => {
  const dir = path.join(scratch, 'progress');
  const bin = path.join(scratch, 'slow-pip-bin');
  fs.mkdirSync(bin, { recursive: true });
  // A stand-in for `python3 -m pip download`: 1 MiB into its TMPDIR every 0.5 s for 5 s, then no network.
  fs.writeFileSync(
    path.join(bin, 'python3'),
    '#!/bin/sh\ni=0\nwhile [ $i -lt 10 ]; do /usr/bin/head -c 1048576 /dev/zero >> "$TMPDIR/partial.whl"; /bin/sleep 0.5; i=$((i+1)); done\necho "ERROR: no network" >&2\nexit 1\n',
    { mode: 0o755 },
  );
  const script = `import pino from 'pino';
import { ensureExtensions } from './server/extensions.ts';
const log = pino({ level: 'info' }, pino.destination({ dest: 1, sync: true }));
try { await ensureExtensions(${JSON.stringify(dir)}, ['iceberg'], log); } catch (e) { log.error({ failed: e.message }); }`;
  const r = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: REPO,
    env: { PATH: bin, HOME: process.env['HOME'] ?? '/root' },
    timeoutMs: 120_000,
  });
  const lines = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { time: number; msg?: string; state?: string; bytes?: number; percent?: number | null; failed?: string });
  const first = lines.find((l) => l.state === 'fetching');
  expect(first?.msg).toContain(`fetching DuckDB extensions iceberg for ${platform}`);
  expect(first?.msg).toContain(`into ${dir}: lakegate reads and writes Iceberg tables through them`);
  const progress = lines.filter((l) => l.state === 'progress');
  // 5 s of fetching: two lines at least, none closer than the interval (a little slack for the timer)
  expect(progress.length).toBeGreaterThanOrEqual(2);
  for (let i = 1; i < progress.length; i++) expect(progress[i]!.time - progress[i - 1]!.time).toBeGreaterThanOrEqual(1900);
  expect(progress[0]!.time - first!.time).toBeGreaterThanOrEqual(1900);
  // bytes grow with what the fetch wrote, and the percent is of the iceberg file's size (50,785,246 bytes on linux_amd64)
  const pip = progress.filter((l) => l.bytes! > 0);
  expect(pip.length).toBeGreaterThanOrEqual(2);
  expect(pip[1]!.bytes).toBeGreaterThan(pip[0]!.bytes!);
  for (const l of pip) expect(l.bytes! % 2 ** 20).toBe(0); // whole MiBs, as the stand-in writes them
  if (platform === 'linux_amd64') expect(pip[pip.length - 1]!.percent).toBe(Math.floor((pip[pip.length - 1]!.bytes! / 50_785_246) * 100));
  expect(lines[lines.length - 1]!.failed).toContain('ERROR: no network');
}, 120_000);
