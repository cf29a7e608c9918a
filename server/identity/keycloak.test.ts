/**
 * The Keycloak provider's throttling, with the token endpoint stubbed: failures
 * from one address stop that address (without asking Keycloak), never the user
 * from another address. The real Keycloak logins are tests/integration/keycloakLogin.test.ts.
 */
import pino from 'pino';
import type { StartupInfo } from '../../protocol/handler.js';
import { KeycloakConfigSchema, KeycloakIdentityProvider, type GrantOutcome } from './keycloak.js';
import { LoginThrottle, ThrottleConfigSchema } from './throttle.js';

const info = (user: string, remoteAddress: string): StartupInfo => ({ user, database: 'demo', params: {}, tls: true, remoteAddress });

function provider() {
  const cfg = KeycloakConfigSchema.parse({ issuer: 'http://127.0.0.1:1/realms/none', clientId: 'lakegate', clientSecret: 'secret' });
  const throttle = new LoginThrottle(ThrottleConfigSchema.parse({ failureDelayMs: 0 }));
  const p = new KeycloakIdentityProvider(cfg, { rolesFor: () => ['analyst'] }, throttle, pino({ level: 'silent' }));
  const grants: string[] = [];
  // Keycloak's answer: erin's password is "erin", anything else is invalid_grant.
  p.passwordGrant = async (username: string, password: string): Promise<GrantOutcome> => {
    grants.push(username);
    return password === username ? { kind: 'tokens', tokens: { accessToken: username, refreshToken: undefined, expiresAt: Date.now() + 60_000 } } : { kind: 'bad-credentials' };
  };
  p.verify = async (token: string) => ({ preferred_username: token });
  return { p, grants };
}

async function login(p: KeycloakIdentityProvider, user: string, password: string, address: string) {
  const plan = await p.plan(info(user, address));
  if (plan.method !== 'cleartext') throw new Error('expected cleartext');
  const identity = await plan.verify(password);
  identity?.credential?.close();
  return identity;
}

test('12 wrong passwords for erin from one address: her right password still logs in from another; from that address it is refused without asking Keycloak', async () => {
  const { p, grants } = provider();
  for (let i = 0; i < 12; i++) expect(await login(p, 'erin', `wrong-${i}`, '203.0.113.9')).toBeNull();
  // the default limit of 10 per (user, address): the last two never reached Keycloak
  expect(grants).toHaveLength(10);
  expect((await login(p, 'erin', 'erin', '198.51.100.4'))?.user).toBe('erin');
  // control: the right password from the attacker's address is refused like a wrong one, Keycloak not asked
  expect(await login(p, 'erin', 'erin', '203.0.113.9')).toBeNull();
  expect(grants).toHaveLength(11);
  await p.close();
});
