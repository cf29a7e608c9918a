/**
 * An S3-compatible object store for tests: SeaweedFS (`weed server -s3`, built from its
 * Go module by scripts/fetch-seaweedfs.sh, run here once if missing; a failure rejects:
 * tests fail, never skip). It keeps its data in `dir`, binds every port to 127.0.0.1
 * (master, volume, filer and S3, each with its gRPC port, all free ports), and checks
 * AWS Signature V4 against one identity, so a request with other keys is refused (403):
 * credentials matter, as on a real store. Its Iceberg and Lance catalog ports are off.
 *
 * Chosen over moto's server mode (which installs in seconds) because moto accepts any
 * keys unless its IAM emulation is bootstrapped; see scripts/fetch-seaweedfs.sh for the
 * build's time and size.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { S3Access } from './icebergRest.js';
import { freePort, REPO_ROOT } from './lakegate.js';
import { startServiceProcess, type ServiceProcess } from './serviceProcess.js';

export const SEAWEEDFS_VERSION = 'v0.0.0-20261109003541-7506e5f91cd6';
const WEED = join(REPO_ROOT, '.tools', `seaweedfs-${SEAWEEDFS_VERSION}`, 'weed');
const FETCH = join(REPO_ROOT, 'scripts', 'fetch-seaweedfs.sh');

export interface S3Options {
  /** Data directory (created if missing); a store started again on it finds its objects. */
  dir: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  region?: string;
  /** Buckets created once the store is up. */
  buckets?: string[];
  startTimeoutMs?: number;
}

export interface S3Server extends S3Access {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  dir: string;
  logFile: string;
  startupMs: number;
  createBucket(name: string): Promise<void>;
  stop(): Promise<void>;
}

/** The weed binary; runs the build script if it is missing. */
export function ensureWeed(): string {
  if (!existsSync(WEED)) {
    const r = spawnSync('bash', [FETCH], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 2_400_000 });
    if (r.status !== 0 || !existsSync(WEED))
      throw new Error(`scripts/fetch-seaweedfs.sh failed (${r.status ?? r.signal ?? r.error}); SeaweedFS is required for these tests:\n${(r.stderr || '').trim()}`);
  }
  return WEED;
}

export async function startS3(opts: S3Options): Promise<S3Server> {
  const weed = ensureWeed();
  mkdirSync(join(opts.dir, 'data'), { recursive: true });
  const accessKeyId = opts.accessKeyId ?? `LG${randomBytes(8).toString('hex').toUpperCase()}`;
  const secretAccessKey = opts.secretAccessKey ?? randomBytes(24).toString('base64url');
  const region = opts.region ?? 'us-east-1';
  const config = join(opts.dir, 's3-identities.json');
  writeFileSync(
    config,
    JSON.stringify({
      identities: [{ name: 'lakegate-tests', credentials: [{ accessKey: accessKeyId, secretKey: secretAccessKey }], actions: ['Admin', 'Read', 'Write', 'List', 'Tagging'] }],
    }),
  );
  const logFile = join(opts.dir, 'weed.log');
  let proc: ServiceProcess | undefined;
  let s3Port = 0;
  let master = '';
  for (let attempt = 1; !proc; attempt++) {
    const ports: number[] = [];
    while (ports.length < 8) {
      const p = await freePort();
      if (!ports.includes(p)) ports.push(p);
    }
    const [m, mg, v, vg, f, fg, s, sg] = ports as [number, number, number, number, number, number, number, number];
    s3Port = s;
    master = `127.0.0.1:${m}.${mg}`;
    const args = [
      'server',
      '-ip=127.0.0.1',
      '-ip.bind=127.0.0.1',
      `-dir=${join(opts.dir, 'data')}`,
      `-master.port=${m}`,
      `-master.port.grpc=${mg}`,
      '-master.volumeSizeLimitMB=64',
      `-volume.port=${v}`,
      `-volume.port.grpc=${vg}`,
      '-volume.max=20',
      `-filer.port=${f}`,
      `-filer.port.grpc=${fg}`,
      '-s3',
      `-s3.port=${s}`,
      `-s3.port.grpc=${sg}`,
      '-s3.port.iceberg=0',
      '-s3.port.lance=0',
      `-s3.config=${config}`,
    ];
    try {
      proc = await startServiceProcess({
        name: 'SeaweedFS',
        command: weed,
        args,
        cwd: opts.dir,
        logFile,
        // Ready once the S3 gateway answers and the filer behind it lists buckets.
        ready: async () => {
          const res = await fetch(`http://127.0.0.1:${s}/`, { signal: AbortSignal.timeout(3_000) });
          await res.arrayBuffer();
          return weedShell(weed, master, 's3.bucket.list').ok;
        },
        timeoutMs: opts.startTimeoutMs ?? 90_000,
      });
    } catch (err) {
      if (attempt >= 3 || !/address already in use/i.test(String(err))) throw err;
    }
  }
  const p = proc;
  const server: S3Server = {
    endpoint: `http://127.0.0.1:${s3Port}`,
    accessKeyId,
    secretAccessKey,
    region,
    dir: opts.dir,
    logFile,
    startupMs: p.startupMs,
    async createBucket(name: string) {
      const r = weedShell(weed, master, `s3.bucket.create -name ${name}`);
      if (!r.ok || !r.output.includes(`created bucket ${name}`)) throw new Error(`SeaweedFS: could not create bucket ${name}:\n${r.output}`);
    },
    stop: () => p.stop(),
  };
  try {
    for (const b of opts.buckets ?? []) await server.createBucket(b);
  } catch (err) {
    await p.stop();
    throw err;
  }
  return server;
}

/** Runs one `weed shell` command against the master. */
function weedShell(weed: string, master: string, command: string): { ok: boolean; output: string } {
  if (!/^[\w.\- ]+$/.test(command)) throw new Error(`weed shell: unexpected command ${command}`);
  const r = spawnSync(weed, ['shell', `-master=${master}`], { input: `${command}\n`, encoding: 'utf8', timeout: 30_000 });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  // weed shell exits 0 after a failed command too: its message is the tell.
  return { ok: r.status === 0 && !/error|failed/i.test(output), output };
}
