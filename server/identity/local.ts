/**
 * Embedded mode's identity provider: the local users file (PostgreSQL-format
 * SCRAM-SHA-256 verifiers). Logins use SCRAM — no reusable secret crosses the
 * wire — or, with `localAuth: "password"`, the cleartext password checked
 * against the same verifier. Unknown users get a mock exchange and the same
 * failure as a wrong password. Roles come from the Ranger role store, as with
 * Keycloak.
 */
import type { Logger } from 'pino';
import type { AuthPlan, StartupInfo } from '../../protocol/handler.js';
import { mockVerifier, passwordMatches } from '../../protocol/scram.js';
import type { LocalUsers } from '../users.js';
import type { Identity, IdentityProvider } from './identity.js';
import type { RoleResolver } from './roles.js';
import type { LoginThrottle } from './throttle.js';

export class LocalIdentityProvider implements IdentityProvider {
  constructor(
    private readonly users: LocalUsers,
    private readonly mode: 'scram-sha-256' | 'password',
    private readonly roles: RoleResolver,
    private readonly throttle: LoginThrottle,
    private readonly serverSecret: Buffer,
    private readonly log: Logger,
  ) {}

  async plan(info: StartupInfo): Promise<AuthPlan<Identity>> {
    const { user: name, remoteAddress } = info;
    const user = this.users.get(name);
    const allowed = this.throttle.allows(name, remoteAddress);
    if (!user) this.log.info({ event: 'login', user: name, outcome: 'unknown-user', remote: remoteAddress });
    if (!allowed) this.log.warn({ event: 'login', user: name, outcome: 'throttled', remote: remoteAddress });
    // A throttled login runs against a mock verifier: it fails exactly like a wrong password. A real
    // user's mock keeps the real salt and iteration count, so a throttled attempt shows the account as it always looks;
    // an unknown user's salt derives from the server secret and the name, the same at every attempt.
    const usable = user && allowed ? user : null;
    const verifier = usable
      ? usable.verifier
      : user
        ? { ...mockVerifier(name, this.serverSecret), salt: user.verifier.salt, iterations: user.verifier.iterations }
        : mockVerifier(name, this.serverSecret);
    const identity = (): Identity | null => (usable ? { user: usable.name, groups: [], roles: this.roles.rolesFor(usable.name, []) } : null);
    const settle = async (ok: boolean) => {
      if (ok) {
        this.throttle.succeeded(name, remoteAddress);
        return;
      }
      this.log.info({ event: 'login', user: name, outcome: allowed ? 'bad-credentials' : 'throttled', remote: remoteAddress });
      await this.throttle.failed(name, remoteAddress);
    };
    if (this.mode === 'password') {
      return {
        method: 'cleartext',
        verify: async (password) => {
          // Always run the check (against the mock verifier for unknown names) so timing tells nothing.
          const matched = await passwordMatches(verifier, password);
          const ok = usable !== null && matched;
          await settle(ok);
          return ok ? identity() : null;
        },
      };
    }
    return { method: 'scram-sha-256', verifier, identity: identity(), settle };
  }

  async close(): Promise<void> {}
}
