/**
 * One open pgJDBC session (tests/integration/java/JdbcSession.java) driven
 * command by command, so a test can act between two statements of the same
 * session (change a policy, then Bind/Execute the same server-prepared statement).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { REPO_ROOT } from './lakegate.js';
import { compileJava, findPgJdbcJar } from './java.js';

let compiled: Promise<void> | null = null;

export type JdbcAnswer = { rows: (string | null)[][]; serverPrepared: boolean } | { error: { sqlstate: string; message: string } };

export class JdbcSession {
  private readonly lines: string[] = [];
  private waiter: (() => void) | null = null;
  private stderr = '';

  private constructor(
    private readonly child: ChildProcess,
    private readonly rl: Interface,
  ) {
    rl.on('line', (l) => {
      this.lines.push(l);
      this.waiter?.();
    });
    child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString('utf8')));
  }

  static async open(host: string, port: number, user: string, password: string, database = 'demo'): Promise<JdbcSession> {
    compiled ??= compileJava('JdbcSession');
    await compiled;
    const classes = path.join(REPO_ROOT, 'tests', 'integration', 'java', 'target');
    const child = spawn('java', ['-Dfile.encoding=UTF-8', '-cp', `${findPgJdbcJar()}${path.delimiter}${classes}`, 'JdbcSession', host, String(port), user, password, database], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const s = new JdbcSession(child, createInterface({ input: child.stdout! }));
    const ready = await s.nextLine(60000);
    if (ready !== 'READY') throw new Error(`JdbcSession did not start: ${ready}\n${s.stderr}`);
    return s;
  }

  private async nextLine(timeoutMs = 30000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length === 0) {
      if (this.child.exitCode !== null) throw new Error(`JdbcSession exited (${this.child.exitCode}): ${this.stderr}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`JdbcSession: no answer within ${timeoutMs} ms\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiter = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.waiter = null;
    }
    return this.lines.shift()!;
  }

  async send(command: string): Promise<JdbcAnswer> {
    this.child.stdin!.write(`${command}\n`);
    const rows: (string | null)[][] = [];
    for (;;) {
      const line = await this.nextLine();
      if (line.startsWith('ROW')) rows.push(line.split('\t').slice(1).map((v) => (v === '\\N' ? null : v)));
      else if (line.startsWith('END ')) return { rows, serverPrepared: /serverPrepared=true/.test(line) };
      else if (line.startsWith('ERROR ')) {
        const [, sqlstate, ...msg] = line.split(' ');
        return { error: { sqlstate: sqlstate!, message: msg.join(' ') } };
      } else throw new Error(`JdbcSession: unexpected line ${line}`);
    }
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null) {
      this.child.stdin!.end('QUIT\n');
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          this.child.kill('SIGKILL');
          resolve();
        }, 5000);
        this.child.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    this.rl.close();
  }
}
