/**
 * A throwaway PostgreSQL server for tests that need the real thing as the
 * reference (expected bytes, error texts). initdb's a cluster in a temp dir,
 * starts it on a free loopback port with trust auth and fsync off, and removes
 * everything on stop(). No server binary → a rejected promise with a clear
 * message: a reference test must fail, never skip, when its reference is missing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RealPostgres {
  host: string;
  port: number;
  stop(): Promise<void>;
}

/** pg_config --bindir first (what the package says), else the newest /usr/lib/postgresql/N/bin. */
export function findBinDir(pgConfig = 'pg_config', root = '/usr/lib/postgresql'): string {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync(pgConfig, ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    // pg_config absent: fall through to the Debian layout.
  }
  if (existsSync(root)) {
    const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(join(root, v, 'bin'));
  }
  const found = candidates.find((d) => existsSync(join(d, 'initdb')) && existsSync(join(d, 'pg_ctl')) && existsSync(join(d, 'postgres')));
  if (!found) {
    throw new Error(
      'No PostgreSQL server binaries found (looked at `pg_config --bindir` and /usr/lib/postgresql/*/bin). ' +
        "Install Debian's `postgresql` package; these tests compare against a real PostgreSQL and cannot run without it.",
    );
  }
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface PostgresOptions {
  /**
   * TCP logins check a password with this method (the postgres user's password
   * is `password`); default: trust. Unix-socket logins stay trusted.
   */
  hostAuth?: { method: 'scram-sha-256' | 'password'; password: string };
  /** Extra postgresql.conf lines (the benchmarks give PostgreSQL more memory than the tests do). */
  settings?: string[];
}

export async function startPostgres(opts: PostgresOptions = {}): Promise<RealPostgres> {
  const bin = findBinDir();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'lakegate-pg-'));
  const data = join(dir, 'data');
  // initdb refuses to run as root: run the cluster as the postgres user, who must own the dir.
  let uid = -1;
  let gid = -1;
  if (asRoot) {
    uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]): void => {
    const full = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] as const : [cmd, args] as const;
    const r = spawnSync(full[0], full[1] as string[], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
    if (r.status !== 0) {
      throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout || r.error}`);
    }
  };
  const cleanup = (): void => rmSync(dir, { recursive: true, force: true });

  try {
    const auth = ['-A', 'trust'];
    if (opts.hostAuth) {
      const pwfile = join(dir, 'pwfile');
      writeFileSync(pwfile, `${opts.hostAuth.password}\n`);
      if (asRoot) chownSync(pwfile, uid, gid);
      auth.splice(0, 2, '--auth-local=trust', `--auth-host=${opts.hostAuth.method}`, `--pwfile=${pwfile}`);
    }
    run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', ...auth, '-E', 'UTF8', '--locale=C', '--no-sync']);
    // The free port can be taken between probing and binding (parallel test workers): retry.
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      const conf = [
        "listen_addresses = '127.0.0.1'",
        `port = ${port}`,
        `unix_socket_directories = '${dir}'`,
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        "shared_buffers = '16MB'",
        'max_connections = 20',
        "timezone = 'UTC'",
        "datestyle = 'ISO, MDY'",
        // cleartext `password` logins need the stored password in a verifier PostgreSQL can check
        "password_encryption = 'scram-sha-256'",
        ...(opts.settings ?? []),
      ].join('\n');
      const confPath = join(data, 'postgresql.auto.conf');
      writeFileSync(confPath, conf + '\n');
      if (asRoot) chownSync(confPath, uid, gid);
      try {
        run(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '30', 'start']);
        break;
      } catch (err) {
        if (attempt >= 3) throw err;
      }
    }
    let stopped = false;
    const stopSync = (): void => {
      if (stopped) return;
      stopped = true;
      process.off('exit', stopSync);
      try {
        run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        cleanup();
      }
    };
    // A test run that dies before afterAll must not leave a postmaster behind.
    process.on('exit', stopSync);
    return {
      host: '127.0.0.1',
      port,
      async stop() {
        stopSync();
      },
    };
  } catch (err) {
    cleanup();
    throw err;
  }
}
