/**
 * An identity provider whose refused logins are audited: a wrong password, an
 * unknown or throttled user, a disabled account, an identity provider that
 * cannot be reached. Successful logins are audited by the listener once the
 * session is open (the database is checked only after the password). The
 * password passes through untouched and is never handed to the auditor.
 */
import type { AuthPlan, StartupInfo } from '../../protocol/handler.js';
import type { Auditor } from '../audit/auditor.js';
import type { Identity, IdentityProvider } from './identity.js';

/** The words a refused login is audited with; the client hears no more than "authentication failed". */
const REFUSED = 'authentication failed';

export function auditedIdentity(inner: IdentityProvider, audit: Auditor): IdentityProvider {
  if (!audit.enabled) return inner;
  const refused = (info: StartupInfo, reason: string) =>
    audit.login(
      { user: info.user, clientIp: info.remoteAddress, clientType: info.params['application_name'] ?? null },
      { database: info.database, allowed: false, reason },
    );
  return {
    close: () => inner.close(),
    async plan(info: StartupInfo): Promise<AuthPlan<Identity>> {
      const plan = await inner.plan(info);
      if (plan.method === 'cleartext') {
        return {
          method: 'cleartext',
          verify: async (password) => {
            try {
              const identity = await plan.verify(password);
              if (!identity) refused(info, REFUSED);
              return identity;
            } catch (e) {
              refused(info, e instanceof Error ? e.message : REFUSED);
              throw e;
            }
          },
        };
      }
      const settle = plan.settle;
      return {
        ...plan,
        settle: async (ok: boolean) => {
          if (!ok) refused(info, REFUSED);
          await settle?.(ok);
        },
      };
    },
  };
}
