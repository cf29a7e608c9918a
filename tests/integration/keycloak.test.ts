/**
 * Proves tests/support/keycloak.ts against a real Keycloak 26.7.3 (no lakegate code):
 * discovery, the password grant lakegate will use, the error bodies it must map to
 * 28P01, refresh, session revocation, disable/enable, stop and restart.
 *
 * What Keycloak 26.7.3 really answers (seen with this harness, asserted below):
 *   wrong password  → 400 {"error":"invalid_grant","error_description":"Invalid user credentials"}
 *   unknown user    → 400, the same body (older Keycloaks sent 401 for both)
 *   disabled user   → 400 {"error":"invalid_grant","error_description":"Account disabled"}
 *   refresh after admin logout → 400 invalid_grant (description asserted below)
 */
import { ACCESS_TOKEN_LIFESPAN, CLIENT_ID, CLIENT_SECRET, keycloakForSuite, USERS } from '../support/keycloak.js';

const kc = keycloakForSuite();

interface TokenResponse {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  refresh_expires_in?: number;
  token_type?: string;
  error?: string;
  error_description?: string;
}

interface AccessClaims {
  iss: string;
  aud: string | string[];
  exp: number;
  iat: number;
  azp: string;
  preferred_username: string;
  email?: string;
  groups?: string[];
  realm_access?: { roles: string[] };
}

async function tokenRequest(form: Record<string, string>): Promise<{ status: number; body: TokenResponse; text: string }> {
  const res = await fetch(kc().tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, ...form }).toString(),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as TokenResponse, text };
}

const passwordGrant = (username: string, password: string) => tokenRequest({ grant_type: 'password', username, password });
const refreshGrant = (refreshToken: string) => tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });

function claims(jwt: string): AccessClaims {
  const part = jwt.split('.')[1];
  if (!part) throw new Error(`not a JWT: ${jwt.slice(0, 40)}`);
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as AccessClaims;
}

const audiences = (c: AccessClaims): string[] => (Array.isArray(c.aud) ? c.aud : [c.aud]);

const INVALID_CREDENTIALS = '{"error":"invalid_grant","error_description":"Invalid user credentials"}';
const ACCOUNT_DISABLED = '{"error":"invalid_grant","error_description":"Account disabled"}';

describe('Keycloak test harness', () => {
  it('starts Keycloak and reports how long it took', () => {
    process.stderr.write(`keycloak.test: Keycloak started in ${kc().startupMs} ms on ${kc().url} (log ${kc().logFile})\n`);
    expect(kc().startupMs).toBeGreaterThan(0);
    expect(kc().issuer).toBe(`http://127.0.0.1:${kc().port}/realms/lakegate`);
  });

  it('serves discovery with the pinned issuer, whatever Host the client uses', async () => {
    for (const base of [kc().url, `http://localhost:${kc().port}`]) {
      const res = await fetch(`${base}/realms/lakegate/.well-known/openid-configuration`);
      expect(res.status).toBe(200);
      const doc = (await res.json()) as { issuer: string; token_endpoint: string; grant_types_supported: string[] };
      expect(doc.issuer).toBe(kc().issuer);
      expect(doc.token_endpoint).toBe(kc().tokenEndpoint);
      expect(doc.grant_types_supported).toEqual(expect.arrayContaining(['password', 'refresh_token']));
    }
  });

  it('password grant for alice: preferred_username, realm roles, aud lakegate, lifespan', async () => {
    const { status, body } = await passwordGrant('alice', 'alice');
    expect(status).toBe(200);
    expect(body.token_type).toBe('Bearer');
    // expires_in is exp minus Keycloak's clock when it writes the response: one second
    // less when that crosses a second boundary (seen under load); exp - iat is exact.
    expect(body.expires_in).toBeGreaterThanOrEqual(ACCESS_TOKEN_LIFESPAN - 2);
    expect(body.expires_in).toBeLessThanOrEqual(ACCESS_TOKEN_LIFESPAN);
    expect(body.refresh_token).toEqual(expect.any(String));
    const c = claims(body.access_token!);
    expect(c.iss).toBe(kc().issuer);
    expect(c.preferred_username).toBe('alice');
    expect(c.email).toBe('alice@lakegate.test');
    expect(c.azp).toBe('lakegate');
    expect(audiences(c)).toContain('lakegate');
    expect(c.realm_access?.roles).toEqual(expect.arrayContaining(['analyst']));
    expect(c.realm_access?.roles).not.toContain('engineer');
    expect(c.groups).toEqual(['data-team']);
    expect(c.exp - c.iat).toBe(ACCESS_TOKEN_LIFESPAN);
  });

  it.each(['bob', 'carol', 'dave', 'erin'] as const)('realm roles of %s match the fixture', async (user) => {
    const { status, body } = await passwordGrant(user, user);
    expect(status).toBe(200);
    const roles = claims(body.access_token!).realm_access?.roles ?? [];
    const ours = roles.filter((r) => ['analyst', 'engineer', 'sqe_admin'].includes(r)).sort();
    expect(ours).toEqual([...USERS[user].roles].sort());
  });

  it('wrong password → 400 invalid_grant "Invalid user credentials"', async () => {
    const r = await passwordGrant('alice', 'not-alice');
    expect(r.status).toBe(400);
    expect(r.text).toBe(INVALID_CREDENTIALS);
  });

  it('unknown user → exactly the same status and body as a wrong password', async () => {
    const wrong = await passwordGrant('alice', 'not-alice');
    const unknown = await passwordGrant('nobody-here', 'whatever');
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.text).toBe(wrong.text);
  });

  it('disabled user frank → 400 invalid_grant "Account disabled" (with the right password)', async () => {
    const r = await passwordGrant('frank', 'frank');
    expect(r.status).toBe(400);
    expect(r.text).toBe(ACCOUNT_DISABLED);
  });

  it('disableUser / enableUser through the admin API', async () => {
    await kc().disableUser('erin');
    try {
      const r = await passwordGrant('erin', 'erin');
      expect(r.status).toBe(400);
      expect(r.text).toBe(ACCOUNT_DISABLED);
    } finally {
      await kc().enableUser('erin');
    }
    const ok = await passwordGrant('erin', 'erin');
    expect(ok.status).toBe(200);
    expect(claims(ok.body.access_token!).email).toBe('erin@lakegate.test'); // profile kept by the PUT
  });

  it('refresh_token grant works; after logoutUser(alice) the refresh fails with invalid_grant', async () => {
    const login = await passwordGrant('alice', 'alice');
    expect(login.status).toBe(200);
    const refreshed = await refreshGrant(login.body.refresh_token!);
    expect(refreshed.status).toBe(200);
    const c = claims(refreshed.body.access_token!);
    expect(c.preferred_username).toBe('alice');
    expect(c.exp - c.iat).toBe(ACCESS_TOKEN_LIFESPAN);

    await kc().logoutUser('alice');
    const after = await refreshGrant(refreshed.body.refresh_token!);
    expect(after.status).toBe(400);
    expect(after.body.error).toBe('invalid_grant');
    expect(after.body.error_description).toBe('Session not active');
    // A new login still works.
    expect((await passwordGrant('alice', 'alice')).status).toBe(200);
  });

  it('stop(): token requests fail at once with a connection error; start() serves again on the same port', async () => {
    const port = kc().port;
    await kc().stop();
    expect(kc().running).toBe(false);
    const t0 = Date.now();
    const err = await passwordGrant('alice', 'alice').then(
      () => undefined,
      (e: unknown) => e as Error & { cause?: { code?: string } },
    );
    expect(err).toBeDefined();
    expect(err?.cause?.code).toBe('ECONNREFUSED');
    expect(Date.now() - t0).toBeLessThan(2_000);

    await kc().start();
    process.stderr.write(`keycloak.test: Keycloak restarted in ${kc().startupMs} ms\n`);
    expect(kc().port).toBe(port);
    const again = await passwordGrant('bob', 'bob');
    expect(again.status).toBe(200);
    expect(claims(again.body.access_token!).iss).toBe(kc().issuer);
    // Same data: frank is still disabled, the realm was not imported twice.
    expect((await passwordGrant('frank', 'frank')).text).toBe(ACCOUNT_DISABLED);
  }, 240_000);
});
