/**
 * Login with a Keycloak password (reference/polaris-iceberg-keycloak.md §5–6):
 * the cleartext password the client sends is exchanged once for tokens with the
 * OIDC password grant, the access token is verified against the realm's JWKS
 * (signature, issuer, audience or azp, expiry), and the user name comes from a
 * configurable claim. The password is used for that one request and never kept,
 * logged or put in an error.
 *
 * The session keeps the tokens and refreshes them before they expire. When a
 * refresh is refused (user disabled, session revoked) the credential ends and
 * the session is closed at its next statement; a statement already running is
 * not interrupted.
 */
import * as oidc from 'openid-client';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { Logger } from 'pino';
import { z } from 'zod';
import { PgError, SqlState } from '../../protocol/errors.js';
import type { AuthPlan, StartupInfo } from '../../protocol/handler.js';
import type { Identity, IdentityProvider, SessionCredential } from './identity.js';
import type { RoleResolver } from './roles.js';
import type { LoginThrottle } from './throttle.js';

export const KeycloakConfigSchema = z.object({
  /** The realm URL, e.g. https://sso.example.com/realms/lakehouse (Keycloak ≥ 17 has no /auth). */
  issuer: z.string().url(),
  clientId: z.string().min(1),
  /** A confidential client with direct access grants enabled. */
  clientSecret: z.string().min(1),
  scope: z.string().default('openid'),
  /** The claim that names the user. */
  usernameClaim: z.string().default('preferred_username'),
  /** Accepted `aud` values; the token passes if `aud` holds one of them or `azp` is the client. Default: the client id. */
  audience: z.array(z.string()).optional(),
  /** Add the token's realm roles (realm_access.roles) to the roles from Ranger. */
  tokenRoles: z.boolean().default(false),
  /** Take the user's groups from this claim (needs Keycloak's group-membership mapper). */
  groupsClaim: z.string().default('groups'),
  /** Per request to Keycloak. */
  timeoutMs: z.number().int().min(100).default(5000),
  /** Refresh this long before the access token expires (at most half its lifetime). */
  refreshMarginMs: z.number().int().min(0).default(30_000),
});
export type KeycloakConfig = z.output<typeof KeycloakConfigSchema>;

/** Keycloak's answer to a password grant, sorted into what the client may learn. */
export type GrantOutcome =
  | { kind: 'tokens'; tokens: Tokens }
  | { kind: 'bad-credentials' }
  | { kind: 'disabled'; description: string }
  | { kind: 'unavailable'; cause: string };

export interface Tokens {
  accessToken: string;
  refreshToken: string | undefined;
  /** Absolute expiry of the access token, ms since epoch. */
  expiresAt: number;
}

const UNAVAILABLE = 'identity provider unavailable';

export class KeycloakIdentityProvider implements IdentityProvider {
  private configuration: Promise<oidc.Configuration> | null = null;
  private jwks: ReturnType<typeof createRemoteJWKSet> | null = null;
  private readonly credentials = new Set<KeycloakCredential>();

  constructor(
    private readonly cfg: KeycloakConfig,
    private readonly roles: RoleResolver,
    private readonly throttle: LoginThrottle,
    private readonly log: Logger,
  ) {}

  async plan(info: StartupInfo): Promise<AuthPlan<Identity>> {
    return { method: 'cleartext', verify: (password) => this.login(info, password) };
  }

  async close(): Promise<void> {
    for (const c of this.credentials) c.close();
  }

  private async login(info: StartupInfo, password: string): Promise<Identity | null> {
    const { user, remoteAddress } = info;
    if (!this.throttle.allows(user, remoteAddress)) {
      this.log.warn({ event: 'login', user, remote: remoteAddress, outcome: 'throttled' });
      await this.throttle.failed(user, remoteAddress);
      return null;
    }
    // An empty password is a wrong one: refused like any other (counted, after the same delay), without asking Keycloak.
    const outcome: GrantOutcome = password === '' ? { kind: 'bad-credentials' } : await this.passwordGrant(user, password);
    switch (outcome.kind) {
      case 'bad-credentials':
        this.log.info({ event: 'login', user, remote: remoteAddress, outcome: 'bad-credentials' });
        await this.throttle.failed(user, remoteAddress);
        return null;
      case 'disabled':
        this.log.info({ event: 'login', user, remote: remoteAddress, outcome: 'disabled', reason: outcome.description });
        await this.throttle.failed(user, remoteAddress);
        throw new PgError(SqlState.invalidAuthorizationSpecification, `account of user "${user}" cannot log in`, {
          severity: 'FATAL',
          detail: 'The identity provider reports the account disabled or not fully set up.',
        });
      case 'unavailable':
        this.log.error({ event: 'login', user, remote: remoteAddress, outcome: 'idp-unavailable', cause: outcome.cause });
        throw new PgError(SqlState.connectionFailure, UNAVAILABLE, { severity: 'FATAL' });
      case 'tokens': {
        let claims: JWTPayload;
        try {
          claims = await this.verify(outcome.tokens.accessToken);
        } catch (e) {
          this.log.error({ event: 'login', user, outcome: 'token-rejected', cause: (e as Error).message });
          throw new PgError(SqlState.connectionFailure, UNAVAILABLE, { severity: 'FATAL' });
        }
        const name = claims[this.cfg.usernameClaim];
        // The token must be for the name the client logged in with: Keycloak also
        // accepts e-mail addresses, but the session user is what PostgreSQL sees.
        if (typeof name !== 'string' || name !== user) {
          this.log.warn({ event: 'login', user, outcome: 'name-mismatch', claim: this.cfg.usernameClaim });
          await this.throttle.failed(user, remoteAddress);
          return null;
        }
        this.throttle.succeeded(user, remoteAddress);
        const groups = stringList(claims[this.cfg.groupsClaim]);
        const tokenRoles = this.cfg.tokenRoles ? stringList((claims['realm_access'] as { roles?: unknown } | undefined)?.roles) : [];
        const credential = new KeycloakCredential(this, outcome.tokens, user, this.cfg.refreshMarginMs, this.log);
        this.credentials.add(credential);
        credential.onClose = () => this.credentials.delete(credential);
        return { user, groups, roles: this.roles.rolesFor(user, groups, tokenRoles), credential };
      }
    }
  }

  /** The realm's metadata, fetched once; a failed discovery is retried at the next login. */
  private config(): Promise<oidc.Configuration> {
    if (!this.configuration) {
      const issuer = new URL(this.cfg.issuer);
      const p = oidc.discovery(issuer, this.cfg.clientId, this.cfg.clientSecret, undefined, {
        execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
        timeout: this.cfg.timeoutMs / 1000,
      });
      this.configuration = p;
      p.then(
        (c) => {
          this.jwks = createRemoteJWKSet(new URL(c.serverMetadata().jwks_uri!), { timeoutDuration: this.cfg.timeoutMs });
        },
        () => {
          this.configuration = null;
        },
      );
    }
    return this.configuration;
  }

  passwordGrant(username: string, password: string): Promise<GrantOutcome> {
    return this.grant((config) => oidc.genericGrantRequest(config, 'password', { username, password, scope: this.cfg.scope }));
  }

  refresh(refreshToken: string): Promise<GrantOutcome> {
    return this.grant((config) => oidc.refreshTokenGrant(config, refreshToken));
  }

  /** One token request, its failures sorted into what the client may learn. */
  private async grant(request: (config: oidc.Configuration) => Promise<oidc.TokenEndpointResponse>): Promise<GrantOutcome> {
    let config: oidc.Configuration;
    try {
      config = await this.config();
    } catch (e) {
      return { kind: 'unavailable', cause: `discovery failed: ${describe(e)}` };
    }
    try {
      return { kind: 'tokens', tokens: toTokens(await request(config)) };
    } catch (e) {
      return classifyGrantError(e);
    }
  }

  /** Signature (realm JWKS), issuer, expiry, and audience — or azp — naming this client. */
  async verify(accessToken: string): Promise<JWTPayload> {
    await this.config();
    const { payload } = await jwtVerify(accessToken, this.jwks!, { issuer: this.cfg.issuer, clockTolerance: 5 });
    const audiences = this.cfg.audience ?? [this.cfg.clientId];
    const aud = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
    if (!aud.some((a) => audiences.includes(a)) && !(payload['azp'] === this.cfg.clientId)) {
      throw new Error(`token audience ${JSON.stringify(payload.aud)} / azp ${String(payload['azp'])} does not name ${audiences.join(', ')}`);
    }
    return payload;
  }
}

/**
 * A session's tokens. Refreshes itself before the access token expires; a
 * refused refresh ends it for good, an unreachable Keycloak is retried until the
 * access token has expired.
 */
export class KeycloakCredential implements SessionCredential {
  private timer: NodeJS.Timeout | null = null;
  private ended: string | null = null;
  private renewing: Promise<boolean> | null = null;
  onClose: (() => void) | null = null;

  constructor(
    private readonly provider: KeycloakIdentityProvider,
    private tokens: Tokens,
    private readonly user: string,
    private readonly marginMs: number,
    private readonly log: Logger,
  ) {
    this.schedule();
  }

  accessToken(): string {
    return this.tokens.accessToken;
  }

  /** One refresh now, whatever the schedule; concurrent callers share it. */
  renew(): Promise<boolean> {
    if (this.ended !== null) return Promise.resolve(false);
    this.renewing ??= (async () => {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      const before = this.tokens.accessToken;
      await this.refresh();
      return this.ended === null && this.tokens.accessToken !== before;
    })().finally(() => {
      this.renewing = null;
    });
    return this.renewing;
  }

  endedReason(): string | null {
    if (this.ended === null && Date.now() >= this.tokens.expiresAt) this.end('the access token expired and could not be refreshed');
    return this.ended;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.ended === null) this.ended = 'session closed';
    this.onClose?.();
  }

  private schedule(): void {
    const lifetime = this.tokens.expiresAt - Date.now();
    // Refresh `margin` before expiry, but never earlier than half-way: short-lived
    // tokens must not turn into a refresh loop.
    const margin = Math.min(this.marginMs, lifetime / 2);
    this.timer = setTimeout(() => void this.refresh(), Math.max(1000, lifetime - margin));
    this.timer.unref();
  }

  private async refresh(): Promise<void> {
    this.timer = null;
    if (this.ended !== null) return;
    if (!this.tokens.refreshToken) return this.end('the identity provider issued no refresh token');
    const r = await this.provider.refresh(this.tokens.refreshToken);
    if (this.ended !== null) return;
    if (r.kind === 'tokens') {
      try {
        await this.provider.verify(r.tokens.accessToken);
      } catch (e) {
        return this.end(`the refreshed token was rejected: ${(e as Error).message}`);
      }
      this.tokens = r.tokens;
      this.log.debug({ event: 'token-refresh', user: this.user, outcome: 'ok' });
      this.schedule();
      return;
    }
    if (r.kind === 'unavailable' && Date.now() < this.tokens.expiresAt - 1000) {
      // Keycloak may come back before the token runs out: try again shortly.
      this.log.warn({ event: 'token-refresh', user: this.user, outcome: 'retry', cause: r.cause });
      this.timer = setTimeout(() => void this.refresh(), Math.min(5000, (this.tokens.expiresAt - Date.now()) / 2));
      this.timer.unref();
      return;
    }
    this.end(r.kind === 'unavailable' ? `the identity provider is unavailable (${r.cause})` : 'the identity provider refused to renew the login (account disabled or session ended)');
  }

  private end(reason: string): void {
    if (this.ended !== null) return;
    this.ended = reason;
    this.log.info({ event: 'session-credential-ended', user: this.user, reason });
  }
}

function toTokens(r: oidc.TokenEndpointResponse): Tokens {
  const expiresIn = typeof r.expires_in === 'number' ? r.expires_in : 60;
  return { accessToken: r.access_token, refreshToken: r.refresh_token, expiresAt: Date.now() + expiresIn * 1000 };
}

/** invalid_grant is a login problem the user may learn about; anything else is ours. */
export function classifyGrantError(e: unknown): GrantOutcome {
  if (e instanceof oidc.ResponseBodyError) {
    if (e.error === 'invalid_grant') {
      const d = e.error_description ?? '';
      if (/disabled|not fully set up/i.test(d)) return { kind: 'disabled', description: d };
      return { kind: 'bad-credentials' };
    }
    return { kind: 'unavailable', cause: `${e.status} ${e.error}: ${e.error_description ?? ''}` };
  }
  return { kind: 'unavailable', cause: describe(e) };
}

function describe(e: unknown): string {
  if (e instanceof Error) {
    const cause = e.cause instanceof Error ? `: ${e.cause.message}` : '';
    return `${e.name}: ${e.message}${cause}`;
  }
  return String(e);
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
