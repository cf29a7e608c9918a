/**
 * The local identity provider: roles come from the Ranger role store (the demo's
 * roles JSON, as Ranger Admin serves it), unknown users and throttled attempts
 * fail exactly like a wrong password.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { parseRangerRoles } from '../../policy/ranger/model.js';
import { RoleStore } from '../../policy/ranger/roles.js';
import { makeVerifier } from '../../protocol/scram.js';
import type { StartupInfo } from '../../protocol/handler.js';
import { demoAssetDir } from '../demo.js';
import { LocalUsers } from '../users.js';
import { LocalIdentityProvider } from './local.js';
import { rangerRoles } from './roles.js';
import { LoginThrottle, ThrottleConfigSchema } from './throttle.js';

const demoRoles = new RoleStore(parseRangerRoles(JSON.parse(readFileSync(join(demoAssetDir(), 'ranger', 'lakehouse_roles.json'), 'utf8')), 'demo'));

function usersFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lakegate-users-'));
  const file = join(dir, 'users.json');
  writeFileSync(file, JSON.stringify({ users: ['bob', 'dave'].map((name) => ({ name, scram: makeVerifier(`${name}-pw`) })) }));
  return file;
}

const info = (user: string, remoteAddress = '10.1.1.1'): StartupInfo => ({ user, database: 'demo', params: {}, tls: true, remoteAddress });

function provider(mode: 'scram-sha-256' | 'password', roles = demoRoles) {
  const throttle = new LoginThrottle(ThrottleConfigSchema.parse({ maxFailuresPerUserAddress: 2, maxFailuresPerAddress: 100, failureDelayMs: 0 }));
  return new LocalIdentityProvider(LocalUsers.load(usersFile()), mode, rangerRoles(() => roles), throttle, Buffer.alloc(32, 7), pino({ level: 'silent' }));
}

test('roles are what the Ranger role store says (bob: analyst + engineer; dave: none)', async () => {
  const p = provider('password');
  const bob = await p.plan(info('bob'));
  if (bob.method !== 'cleartext') throw new Error('expected cleartext');
  expect(await bob.verify('bob-pw')).toEqual({ user: 'bob', groups: [], roles: ['analyst', 'engineer'] });
  const dave = await p.plan(info('dave'));
  if (dave.method !== 'cleartext') throw new Error('expected cleartext');
  expect(await dave.verify('dave-pw')).toEqual({ user: 'dave', groups: [], roles: [] });
});

test('no usable role store (never loaded): no roles at all', async () => {
  const throttle = new LoginThrottle(ThrottleConfigSchema.parse({ failureDelayMs: 0 }));
  const p = new LocalIdentityProvider(LocalUsers.load(usersFile()), 'password', rangerRoles(() => null), throttle, Buffer.alloc(32), pino({ level: 'silent' }));
  const plan = await p.plan(info('bob'));
  if (plan.method !== 'cleartext') throw new Error('expected cleartext');
  expect((await plan.verify('bob-pw'))?.roles).toEqual([]);
});

test('SCRAM plan: the real verifier for a known user, a mock one (and no identity) for an unknown name', async () => {
  const p = provider('scram-sha-256');
  const known = await p.plan(info('bob'));
  const unknown = await p.plan(info('mallory'));
  if (known.method !== 'scram-sha-256' || unknown.method !== 'scram-sha-256') throw new Error('expected scram');
  expect(known.identity?.roles).toEqual(['analyst', 'engineer']);
  expect(unknown.identity).toBeNull();
  expect(unknown.verifier.iterations).toBe(known.verifier.iterations);
});

test('throttled: after the limit even the right password fails like a wrong one from that address; other addresses and users unaffected', async () => {
  const p = provider('password');
  for (let i = 0; i < 2; i++) {
    const plan = await p.plan(info('bob'));
    if (plan.method !== 'cleartext') throw new Error('expected cleartext');
    expect(await plan.verify('wrong')).toBeNull();
  }
  const locked = await p.plan(info('bob'));
  if (locked.method !== 'cleartext') throw new Error('expected cleartext');
  expect(await locked.verify('bob-pw')).toBeNull();
  // bob from another address is not throttled: failures elsewhere never lock a user out
  const elsewhere = await p.plan(info('bob', '10.2.2.2'));
  if (elsewhere.method !== 'cleartext') throw new Error('expected cleartext');
  expect((await elsewhere.verify('bob-pw'))?.user).toBe('bob');
  const dave = await p.plan(info('dave'));
  if (dave.method !== 'cleartext') throw new Error('expected cleartext');
  expect((await dave.verify('dave-pw'))?.user).toBe('dave');
});

test('SCRAM failures count too (settle), and a throttled SCRAM login gets no identity', async () => {
  const p = provider('scram-sha-256');
  for (let i = 0; i < 2; i++) {
    const plan = await p.plan(info('bob'));
    if (plan.method !== 'scram-sha-256') throw new Error('expected scram');
    await plan.settle?.(false);
  }
  const locked = await p.plan(info('bob'));
  if (locked.method !== 'scram-sha-256') throw new Error('expected scram');
  expect(locked.identity).toBeNull();
});
