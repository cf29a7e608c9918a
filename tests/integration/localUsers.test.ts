/**
 * Embedded-mode users end to end: the CLI adds a user and changes a password in
 * a users file; node-postgres logs in (SCRAM) against a gateway using that file;
 * repeated failures slow and then stop the address they come from (per address
 * and per user and address, answered like a wrong password), never the user:
 * clients on different loopback addresses (127.0.0.x) play attacker and victim.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, fromAddress, rejection, run } from '../support/clients.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = path.join(repo, 'bin', 'lakegate.js');

const usersDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-users-'));
const usersFile = path.join(usersDir, 'users.json');
// maxFailuresPerUserAddress as its default, the limit of the scenario.
const throttle = { maxFailuresPerUserAddress: 10, maxFailuresPerAddress: 15, windowMs: 60_000, failureDelayMs: 25, maxFailureDelayMs: 400, maxTrackedKeys: 1000 };
let gw: InProcessGateway | undefined;

/** The gateway reads the users file at start. */
async function restart() {
  await gw?.stop();
  gw = await startInProcess(() => ({ usersFile, throttle }));
}

afterAll(async () => {
  await gw?.stop().catch(() => undefined);
  fs.rmSync(usersDir, { recursive: true, force: true });
});

const target = () => ({ host: '127.0.0.1', port: gw!.server.port });

test('lakegate user add / passwd write verifiers only, and the gateway accepts exactly the current password', async () => {
  const add = await run('node', [cli, 'user', 'add', '--users-file', usersFile, 'zoe'], { input: 'first-Pass-1\n' });
  expect(add.code).toBe(0);
  const dup = await run('node', [cli, 'user', 'add', '--users-file', usersFile, 'zoe'], { input: 'x\n' });
  expect(dup.code).toBe(1);
  expect(dup.stderr).toContain('already exists');
  expect(fs.readFileSync(usersFile, 'utf8')).not.toContain('first-Pass-1');

  await restart();
  const c = await connect(target(), { user: 'zoe', password: 'first-Pass-1' });
  expect((await c.query('select current_user as u')).rows[0].u).toBe('zoe');
  await c.end();

  const pw = await run('node', [cli, 'user', 'passwd', '--users-file', usersFile, 'zoe'], { input: 'second-Pass-2\n' });
  expect(pw.code).toBe(0);
  expect(fs.readFileSync(usersFile, 'utf8')).not.toContain('second-Pass-2');
  await restart();
  const old = await rejection(connect(target(), { user: 'zoe', password: 'first-Pass-1' }));
  expect(old.code).toBe('28P01');
  const c2 = await connect(target(), { user: 'zoe', password: 'second-Pass-2' });
  await c2.end();
}, 60_000);

/** A login from a chosen loopback address; resolves with the error (or null) and how long the answer took. */
async function attempt(from: string, user: string, password: string): Promise<{ error: { code?: string; message: string } | null; ms: number }> {
  const t = performance.now();
  try {
    const c = await connect(target(), { user, password, stream: fromAddress(from) });
    await c.end();
    return { error: null, ms: performance.now() - t };
  } catch (e) {
    return { error: e as { code?: string; message: string }, ms: performance.now() - t };
  }
}

test("the issue's lock-out: 12 wrong passwords for zoe from one address, then her right password from another address logs in", async () => {
  const attacker = '127.0.0.2';
  for (let i = 0; i < 12; i++) {
    const { error } = await attempt(attacker, 'zoe', `wrong-${i}`);
    expect(error).toMatchObject({ code: '28P01', message: 'password authentication failed for user "zoe"' });
  }
  // the victim, from her own address: in at once (28P01 for five minutes before)
  const victim = await attempt('127.0.0.3', 'zoe', 'second-Pass-2');
  expect(victim.error).toBeNull();
  // control: the right password from the attacker's address is still refused, exactly like a wrong one
  const fromAttacker = await attempt(attacker, 'zoe', 'second-Pass-2');
  expect(fromAttacker.error).toMatchObject({ code: '28P01', message: 'password authentication failed for user "zoe"' });
  // … and an unknown name gets the same words
  const unknown = await rejection(connect(target(), { user: 'nobody', password: 'x', stream: fromAddress('127.0.0.3') }));
  expect(unknown.message).toBe('password authentication failed for user "nobody"');
}, 60_000);

test('the delay before a failure answer doubles with the failures of the address (25, 50, 100, 200, 400 ms)', async () => {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const { error, ms } = await attempt('127.0.0.4', 'yolanda', `guess-${i}`);
    expect(error?.code).toBe('28P01');
    times.push(ms);
  }
  // lower bounds only: a loaded machine answers later, never sooner (every failure took ~25 ms before)
  [25, 50, 100, 200, 400].forEach((delay, i) => expect(times[i]).toBeGreaterThanOrEqual(delay - 10));
}, 60_000);

test('an address spraying many user names is slowed and then refused for every name; another address is not', async () => {
  const sprayer = '127.0.0.5';
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const { error, ms } = await attempt(sprayer, `user${i}`, 'Password1');
    expect(error?.code).toBe('28P01');
    times.push(ms);
  }
  // distinct names, one address: the address's failures set the delay (it stayed ~25 ms before)
  expect(Math.min(...times.slice(4))).toBeGreaterThanOrEqual(390);
  // past the address's limit even zoe's right password is refused from there, after the same delay …
  const refused = await attempt(sprayer, 'zoe', 'second-Pass-2');
  expect(refused.error).toMatchObject({ code: '28P01', message: 'password authentication failed for user "zoe"' });
  expect(refused.ms).toBeGreaterThanOrEqual(390);
  // … and logs in from another address (control)
  expect((await attempt('127.0.0.6', 'zoe', 'second-Pass-2')).error).toBeNull();
}, 60_000);
