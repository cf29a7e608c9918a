/**
 * Embedded-mode users end to end: the CLI adds a user and changes a password in
 * a users file; node-postgres logs in (SCRAM) against a gateway using that file;
 * repeated failures are throttled per user like a wrong password.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, rejection, run } from '../support/clients.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = path.join(repo, 'bin', 'lakegate.js');

const usersDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-users-'));
const usersFile = path.join(usersDir, 'users.json');
const throttle = { maxFailuresPerUser: 3, maxFailuresPerAddress: 1000, windowMs: 60_000, failureDelayMs: 50, maxTrackedKeys: 1000 };
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

test('throttling: after 3 failures the right password fails too, with the same error; other users still log in', async () => {
  for (let i = 0; i < 3; i++) {
    const e = await rejection(connect(target(), { user: 'zoe', password: `wrong-${i}` }));
    expect(e.code).toBe('28P01');
  }
  const locked = await rejection(connect(target(), { user: 'zoe', password: 'second-Pass-2' }));
  expect(locked.code).toBe('28P01');
  expect(locked.message).toBe('password authentication failed for user "zoe"');
  const unknown = await rejection(connect(target(), { user: 'nobody', password: 'x' }));
  expect(unknown.message).toBe('password authentication failed for user "nobody"');
}, 60_000);
