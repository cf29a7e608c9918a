/**
 * DuckDB's iceberg, avro and httpfs extensions, provided without a manual
 * step. Extensions are built for one exact DuckDB version and platform; the
 * files live in lakegate's own extension directory as
 * `<dir>/v1.5.5/linux_amd64/<name>.duckdb_extension`, where DuckDB looks for
 * them with `LOAD <name>` (signature checking stays on: the binaries carry
 * DuckDB's own signature).
 *
 * A missing file is fetched once: first with DuckDB's own `INSTALL` (its
 * extension repository, where reachable), else from the PyPI wheels DuckDB
 * publishes (`duckdb-extension-<name>`), downloaded with pip, checked against
 * the sha256 pinned below and unpacked. An air-gapped host is pre-seeded by
 * copying the three files into the directory (README, "DuckDB extensions").
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Logger } from 'pino';

const run = promisify(execFile);

/** The DuckDB build @duckdb/node-api 1.5.5-r.5 links (`SELECT version()`). */
export const DUCKDB_VERSION = 'v1.5.5';

export type ExtensionName = 'iceberg' | 'avro' | 'httpfs';

/** The wheels' own digests (pip download --no-deps duckdb-extension-<name>==1.5.5, manylinux2014_x86_64). */
const WHEELS: Record<string, Record<ExtensionName, { version: string; sha256: string }>> = {
  linux_amd64: {
    iceberg: { version: '1.5.5', sha256: 'cb7d238d733dff8047771be11f75d21aa417152c992e26ed7688d0d334285bb4' },
    avro: { version: '1.5.5', sha256: '9b7b37455a8e9ae498b0fa97404831c15c412aa5fd2c969c032e1d8231a43049' },
    httpfs: { version: '1.5.5', sha256: '84913dbe172ccb54368de2c4a020c38ca8b0e76f99df548f7fac37934cc7826f' },
  },
};
const WHEEL_PLATFORM: Record<string, string> = { linux_amd64: 'manylinux2014_x86_64' };

/** The files' sizes (v1.5.5, linux_amd64), for the fetch's percent; elsewhere only bytes are shown. */
const EXTENSION_BYTES: Record<string, Record<ExtensionName, number>> = {
  linux_amd64: { iceberg: 50_785_246, avro: 12_075_206, httpfs: 21_570_542 },
};

/** A fetch's progress lines come at most this often. */
export const PROGRESS_INTERVAL_MS = 2000;

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** Bytes of the files in a folder and below (a fetch's partial files); 0 when it is gone. */
function bytesUnder(dir: string): number {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    try {
      total += e.isDirectory() ? bytesUnder(p) : statSync(p).size;
    } catch {
      // moved or removed meanwhile
    }
  }
  return total;
}

/**
 * A first start fetches ~80 MB, which takes a while: a line says what and why before it starts, and
 * one every PROGRESS_INTERVAL_MS the bytes so far (whole files fetched, and what is being written now).
 */
class FetchProgress {
  private readonly timer: NodeJS.Timeout;
  private readonly started = Date.now();
  private readonly total: number | null;
  /** folders a fetch writes its partial files to */
  readonly scratch = new Set<string>();
  step = '';

  constructor(
    private readonly log: Logger | undefined,
    private readonly dir: string,
    private readonly platform: string,
    private readonly names: readonly ExtensionName[],
  ) {
    const sizes = EXTENSION_BYTES[platform];
    this.total = sizes ? names.reduce((n, name) => n + sizes[name], 0) : null;
    log?.info(
      { event: 'extensions', state: 'fetching', names, dir, expectedBytes: this.total },
      `fetching DuckDB extensions ${names.join(', ')} for ${platform}${this.total ? ` (${mb(this.total)})` : ''} into ${dir}: ` +
        'lakegate reads and writes Iceberg tables through them; this happens once, later starts use the files',
    );
    this.timer = setInterval(() => this.tick(), PROGRESS_INTERVAL_MS);
    this.timer.unref();
  }

  /** The missing extensions' files (whole or partial) and the fetch's scratch folders; files already there do not count. */
  private done(): number {
    const platformDir = join(this.dir, DUCKDB_VERSION, this.platform);
    let bytes = 0;
    let entries: string[] = [];
    try {
      entries = readdirSync(platformDir);
    } catch {
      // not there yet
    }
    for (const f of entries) {
      if (!this.names.some((n) => f.startsWith(`${n}.`))) continue;
      try {
        bytes += statSync(join(platformDir, f)).size;
      } catch {
        // renamed meanwhile
      }
    }
    for (const d of this.scratch) bytes += bytesUnder(d);
    return bytes;
  }

  private tick(): void {
    const bytes = this.done();
    const seconds = Math.round((Date.now() - this.started) / 1000);
    const percent = this.total ? Math.min(99, Math.floor((bytes / this.total) * 100)) : null;
    this.log?.info(
      { event: 'extensions', state: 'progress', bytes, expectedBytes: this.total, percent, seconds, step: this.step },
      `fetching DuckDB extensions: ${mb(bytes)}${this.total ? ` of ${mb(this.total)} (${percent} %)` : ''} after ${seconds} s${this.step ? `, ${this.step}` : ''}`,
    );
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** lakegate's extension directory unless configured: LAKEGATE_EXTENSION_DIR, else ~/.lakegate/extensions. */
export function defaultExtensionDirectory(): string {
  return process.env['LAKEGATE_EXTENSION_DIR'] ?? join(homedir(), '.lakegate', 'extensions');
}

export function extensionFile(dir: string, platform: string, name: ExtensionName): string {
  return join(dir, DUCKDB_VERSION, platform, `${name}.duckdb_extension`);
}

/** The platform string DuckDB uses in extension paths (linux_amd64, osx_arm64 …). */
export async function duckdbPlatform(): Promise<string> {
  const instance = await DuckDBInstance.create(':memory:');
  try {
    const conn = await instance.connect();
    const r = await conn.runAndReadAll('PRAGMA platform');
    return String(r.getRows()[0]![0]);
  } finally {
    instance.closeSync();
  }
}

/** Make sure every named extension is in `dir`; fetches what is missing. Throws with what to do when it cannot. */
export async function ensureExtensions(dir: string, names: readonly ExtensionName[], log?: Logger): Promise<void> {
  const platform = await duckdbPlatform();
  const missing = names.filter((n) => !existsSync(extensionFile(dir, platform, n)));
  if (missing.length === 0) return;
  mkdirSync(join(dir, DUCKDB_VERSION, platform), { recursive: true });
  const progress = new FetchProgress(log, dir, platform, missing);
  try {
    progress.step = "trying DuckDB's extension repository";
    const viaInstall = await installWithDuckDb(dir, missing);
    const still = missing.filter((n) => !existsSync(extensionFile(dir, platform, n)));
    if (still.length === 0) {
      log?.info({ event: 'extensions', via: 'duckdb-install', names: viaInstall }, 'DuckDB extensions installed');
      return;
    }
    const wheels = WHEELS[platform];
    if (!wheels) {
      throw new Error(
        `DuckDB extensions ${still.join(', ')} for ${platform} are not in ${dir} and DuckDB's extension repository is not reachable; ` +
          `copy ${still.map((n) => `${n}.duckdb_extension`).join(', ')} (DuckDB ${DUCKDB_VERSION}) into ${join(dir, DUCKDB_VERSION, platform)}`,
      );
    }
    for (const [i, name] of still.entries()) {
      progress.step = `${name} (${i + 1} of ${still.length}) from its PyPI wheel`;
      await fetchWheel(dir, platform, name, wheels[name], progress.scratch);
    }
    log?.info({ event: 'extensions', via: 'pypi-wheels', names: still }, 'DuckDB extensions unpacked from their PyPI wheels');
  } finally {
    progress.stop();
  }
}

/** DuckDB's own INSTALL from its extension repository; quietly gives up when it is unreachable. */
async function installWithDuckDb(dir: string, names: readonly ExtensionName[]): Promise<ExtensionName[]> {
  const instance = await DuckDBInstance.create(':memory:', { extension_directory: dir, autoload_known_extensions: 'false' });
  const done: ExtensionName[] = [];
  try {
    const conn = await instance.connect();
    for (const name of names) {
      // An unreachable repository usually fails at once (no DNS); a silent network must not hang the start.
      const timer = setTimeout(() => conn.interrupt(), 30_000);
      try {
        await conn.run(`INSTALL ${name}`);
        done.push(name);
      } catch {
        // fall through to the wheels
      } finally {
        clearTimeout(timer);
      }
    }
  } finally {
    instance.closeSync();
  }
  return done;
}

async function fetchWheel(dir: string, platform: string, name: ExtensionName, wheel: { version: string; sha256: string }, scratch: Set<string>): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'lakegate-ext-'));
  scratch.add(work);
  try {
    const pkg = `duckdb-extension-${name}==${wheel.version}`;
    try {
      await run(
        'python3',
        ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--platform', WHEEL_PLATFORM[platform]!, '--disable-pip-version-check', '-q', '-d', work, pkg],
        // pip's partial download lands in `work`, where the progress lines measure it
        { timeout: 300_000, maxBuffer: 4 << 20, env: { ...process.env, TMPDIR: work } },
      );
    } catch (e) {
      throw new Error(
        `could not fetch DuckDB extension ${name}: DuckDB's repository is not reachable and \`python3 -m pip download ${pkg}\` failed ` +
          `(${firstLine(e)}); pre-seed ${extensionFile(dir, platform, name)} (README, "DuckDB extensions")`,
      );
    }
    const wheelFile = join(work, `duckdb_extension_${name}-${wheel.version}-py3-none-${WHEEL_PLATFORM[platform]}.whl`);
    if (!existsSync(wheelFile)) throw new Error(`pip did not produce ${wheelFile}`);
    const digest = createHash('sha256').update(readFileSync(wheelFile)).digest('hex');
    if (digest !== wheel.sha256) {
      throw new Error(`the wheel for DuckDB extension ${name} has sha256 ${digest}, expected ${wheel.sha256}: refused`);
    }
    const target = extensionFile(dir, platform, name);
    const partial = `${target}.${process.pid}.partial`;
    const member = `duckdb_extension_${name}/extensions/${DUCKDB_VERSION}/${name}.duckdb_extension`;
    // A wheel is a zip; Python (needed for pip anyway) unpacks the one member.
    await run(
      'python3',
      ['-c', 'import shutil,sys,zipfile\nwith zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as s, open(sys.argv[3], "wb") as d: shutil.copyfileobj(s, d)', wheelFile, member, partial],
      { timeout: 120_000 },
    );
    // Atomic: another process fetching the same file at the same time sees a whole file or none.
    renameSync(partial, target);
  } finally {
    scratch.delete(work);
    rmSync(work, { recursive: true, force: true });
  }
}

function firstLine(e: unknown): string {
  const err = e as { stderr?: string; message?: string };
  return String(err.stderr || err.message || e).trim().split('\n').pop() ?? '';
}
