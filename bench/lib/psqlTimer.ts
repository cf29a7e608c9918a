/**
 * A psql session fed statement by statement on its stdin, timed by psql itself
 * (`\timing on`: from sending the statement to its result, as a user at the
 * prompt sees it). psql flushes each `Time:` line, so statements of two
 * sessions can be interleaved one by one.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface PsqlTarget {
  host: string;
  port: number;
  user: string;
  password?: string;
  database: string;
}

export class PsqlTimer {
  private readonly child: ChildProcessWithoutNullStreams;
  private out = '';
  private err = '';
  private waiting: { resolve: (ms: number) => void; reject: (e: Error) => void } | null = null;
  private exited: string | null = null;

  constructor(t: PsqlTarget) {
    this.child = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', t.host, '-p', String(t.port), '-U', t.user, '-d', t.database], {
      env: { ...process.env, PGPASSWORD: t.password ?? '', PGSSLMODE: 'disable', PGCONNECT_TIMEOUT: '30' },
    });
    this.child.stdout.on('data', (d: Buffer) => {
      this.out += d.toString('utf8');
      this.settle();
    });
    this.child.stderr.on('data', (d: Buffer) => {
      this.err += d.toString('utf8');
    });
    this.child.once('exit', (code, signal) => {
      this.exited = `psql exited (${code ?? signal}): ${this.err.trim()}`;
      this.waiting?.reject(new Error(this.exited));
      this.waiting = null;
    });
    this.child.stdin.write('\\timing on\n');
  }

  private settle(): void {
    const m = /Time: ([\d.]+) ms[^\n]*\n/.exec(this.out);
    if (!m || !this.waiting) return;
    this.out = this.out.slice(m.index + m[0].length);
    const w = this.waiting;
    this.waiting = null;
    w.resolve(Number(m[1]));
  }

  /** Run one statement (one line); psql's time for it in ms. */
  time(sql: string, timeoutMs = 60000): Promise<number> {
    if (this.exited) return Promise.reject(new Error(this.exited));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`psql: no result within ${timeoutMs} ms for ${sql.slice(0, 80)}`)), timeoutMs);
      this.waiting = {
        resolve: (ms) => (clearTimeout(timer), resolve(ms)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      };
      this.child.stdin.write(`${sql.replace(/\n/g, ' ')};\n`);
      this.settle();
    });
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const done = new Promise((r) => this.child.once('exit', r));
    this.child.stdin.end('\\q\n');
    const t = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await done;
    clearTimeout(t);
  }
}
