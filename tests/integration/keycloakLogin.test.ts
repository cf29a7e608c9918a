/**
 * Login with a Keycloak password, against a real Keycloak (tests/support/keycloak.ts)
 * and a lakegate gateway configured for it, with real clients (psql, pgJDBC,
 * node-postgres). The realm is the test fixture with a 6-second access-token
 * lifespan, so sessions live through several token lifetimes within a test.
 *
 * Roles come from a Ranger role store in local files: the demo's roles plus a role
 * granted to the group data-team, which the token's group claim gives alice.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { capturedLogger } from '../fixtures/rangerAdmin/capturedLogger.js';
import { connect, rejection, run, sleep } from '../support/clients.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';
import { compileJava, runJava } from '../support/java.js';
import { keycloakForSuite, REALM_FIXTURE, gatewayKeycloakConfig } from '../support/keycloak.js';
import { demoAssetDir } from '../../server/demo.js';

const LIFESPAN_S = 6;
const realmDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-realm-'));
const realmFile = path.join(realmDir, 'realm-lakegate.json');
fs.writeFileSync(realmFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(REALM_FIXTURE, 'utf8')), accessTokenLifespan: LIFESPAN_S }));
// Ranger's role store: the demo roles plus team_reader, granted to the group data-team.
const rangerDir = path.join(realmDir, 'ranger');
fs.mkdirSync(rangerDir);
fs.copyFileSync(path.join(demoAssetDir(), 'ranger', 'lakehouse.json'), path.join(rangerDir, 'lakehouse.json'));
const demoRoles = JSON.parse(fs.readFileSync(path.join(demoAssetDir(), 'ranger', 'lakehouse_roles.json'), 'utf8'));
demoRoles.rangerRoles.push({ id: 99, name: 'team_reader', users: [], groups: [{ name: 'data-team', isAdmin: false }], roles: [] });
fs.writeFileSync(path.join(rangerDir, 'lakehouse_roles.json'), JSON.stringify(demoRoles));

const kc = keycloakForSuite({ realmFile });
const log = capturedLogger();
let gw: InProcessGateway;

beforeAll(async () => {
  await compileJava('JdbcLogin');
  gw = await startInProcess(
    () => ({
      keycloak: gatewayKeycloakConfig(kc(), 3000),
      ranger: { source: { kind: 'local', path: rangerDir, serviceName: 'lakehouse' }, refreshMs: 30_000, maxStalenessMs: 300_000 },
      throttle: { maxFailuresPerUserAddress: 10, maxFailuresPerAddress: 1000, windowMs: 60_000, failureDelayMs: 50, maxFailureDelayMs: 200, maxTrackedKeys: 1000 },
    }),
    { logger: log.logger },
  );
}, 300_000);

afterAll(async () => {
  await gw?.stop();
  fs.rmSync(realmDir, { recursive: true, force: true });
});

const target = () => ({ host: '127.0.0.1', port: gw.server.port });
const psql = (user: string, password: string, sql = 'select current_user') =>
  run('psql', ['-X', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(gw.server.port), '-U', user, '-d', 'demo', '-c', sql], {
    env: { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: '20', PGSSLMODE: 'disable' },
    timeoutMs: 30_000,
  });

test('psql logs in with the Keycloak password; roles from Ranger, groups from the token', async () => {
  const r = await psql('alice', 'alice');
  expect(r.stderr).toBe('');
  expect(r.stdout.trim()).toBe('alice');
  const login = log.records().find((l) => l['event'] === 'login' && l['outcome'] === 'ok' && l['user'] === 'alice');
  expect(login?.['groups']).toEqual(['data-team']);
  expect(login?.['roles']).toEqual(['analyst', 'team_reader']);
});

test('pgJDBC logs in with the Keycloak password', async () => {
  const r = await runJava('JdbcLogin', ['127.0.0.1', String(gw.server.port), 'demo', 'bob', 'bob'], 60_000);
  expect(r.stdout.trim()).toBe('OK bob');
});

test('with requireTls: over TLS the Keycloak login works; over plain TCP the password is never asked for', async () => {
  const tlsLog = capturedLogger();
  const tlsGw = await startInProcess(
    (dir) => {
      const cert = path.join(dir, 'cert.pem');
      const key = path.join(dir, 'key.pem');
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
      return {
        keycloak: gatewayKeycloakConfig(kc(), 3000),
        tls: { certFile: cert, keyFile: key },
        requireTls: true,
      };
    },
    { logger: tlsLog.logger },
  );
  try {
    const t = { host: '127.0.0.1', port: tlsGw.server.port };
    const plain = await rejection(connect(t, { user: 'alice', password: 'alice', ssl: false }));
    expect(plain.code).toBe('28000');
    expect(plain.message).toBe('password authentication requires an encrypted connection');
    // Refused before the password exchange: Keycloak was never asked.
    expect(tlsLog.records().filter((l) => l['event'] === 'login')).toEqual([]);
    const c = await connect(t, { user: 'alice', password: 'alice', ssl: { rejectUnauthorized: false } });
    expect((await c.query('select current_user as u')).rows[0].u).toBe('alice');
    await c.end();
  } finally {
    await tlsGw.stop();
  }
});

test('wrong password and unknown user get the same 28P01, PostgreSQL\'s text', async () => {
  const wrong = await rejection(connect(target(), { user: 'carol', password: 'not-carols' }));
  const unknown = await rejection(connect(target(), { user: 'zelda', password: 'whatever' }));
  expect(wrong.code).toBe('28P01');
  expect(wrong.message).toBe('password authentication failed for user "carol"');
  expect(unknown.code).toBe('28P01');
  expect(unknown.message).toBe('password authentication failed for user "zelda"');
  const j = await runJava('JdbcLogin', ['127.0.0.1', String(gw.server.port), 'demo', 'carol', 'nope'], 60_000);
  expect(j.stdout).toMatch(/^ERROR 28P01 .*password authentication failed for user "carol"/);
});

test('a disabled account gets 28000', async () => {
  const e = await rejection(connect(target(), { user: 'frank', password: 'frank' }));
  expect(e.code).toBe('28000');
  expect(e.message).toBe('account of user "frank" cannot log in');
});

test('the password reaches no log line', () => {
  const all = log.lines.join('\n');
  for (const pw of ['not-carols', 'whatever']) expect(all).not.toContain(pw);
  // The successful passwords are user names, which logs do carry; check the token field names instead.
  expect(all).not.toMatch(/access_token|refresh_token|"password"/);
});

test(`a session outlives several ${LIFESPAN_S}-second token lifetimes (refreshed in the background)`, async () => {
  const c = await connect(target(), { user: 'carol', password: 'carol' });
  const started = Date.now();
  while (Date.now() - started < LIFESPAN_S * 3.5 * 1000) {
    expect((await c.query('select current_user as u')).rows[0].u).toBe('carol');
    await sleep(1500);
  }
  await c.end();
  expect(log.records().filter((l) => l['event'] === 'token-refresh' && l['user'] === 'carol').length).toBeGreaterThanOrEqual(3);
}, 60_000);

test('a user disabled in Keycloak mid-session: the session ends with a FATAL at its next statement', async () => {
  const c = await connect(target(), { user: 'erin', password: 'erin' });
  expect((await c.query('select 1 as one')).rows[0].one).toBe(1);
  await kc().disableUser('erin');
  await kc().logoutUser('erin');
  // The next refresh (half a lifetime at most) is refused.
  await sleep(LIFESPAN_S * 1000);
  const e = await rejection(c.query('select 1'));
  expect(e.code).toBe('28000');
  expect(e.message).toBe('terminating connection: the login of user "erin" is no longer valid');
  expect(e.severity).toBe('FATAL');
  await kc().enableUser('erin');
}, 60_000);

test('Keycloak stopped: new logins fail fast with 08006, an open session ends cleanly once its token lapses', async () => {
  const open = await connect(target(), { user: 'dave', password: 'dave' });
  await kc().stop();
  const t0 = Date.now();
  const e = await rejection(connect(target(), { user: 'alice', password: 'alice' }));
  expect(e.code).toBe('08006');
  expect(e.message).toBe('identity provider unavailable');
  expect(Date.now() - t0).toBeLessThan(10_000);
  // Refresh is retried while the token lasts; after that, the next statement ends the session.
  await sleep((LIFESPAN_S + 1) * 1000);
  const ended = await rejection(open.query('select 1'));
  expect(ended.code).toBe('28000');
  expect(ended.severity).toBe('FATAL');
  // The cause went to the server log only.
  expect(log.records().some((l) => l['outcome'] === 'idp-unavailable' && typeof l['cause'] === 'string')).toBe(true);

  await kc().start();
  const back = await psql('alice', 'alice');
  expect(back.stdout.trim()).toBe('alice');
}, 120_000);
