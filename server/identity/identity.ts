/**
 * Who a session runs as, and the seam identity providers (local users file,
 * Keycloak) implement. The protocol asks a provider how to check a login; the
 * session keeps the identity, and with it the credential it acts with later
 * (the bearer token for Polaris), which may end while the session is open.
 */
import type { AuthPlan, StartupInfo } from '../../protocol/handler.js';

export interface Identity {
  user: string;
  /** Ranger roles (and token roles where configured), sorted. */
  roles: readonly string[];
  /** Groups as the identity provider reports them (Ranger groups). */
  groups: readonly string[];
  /** Present for providers that issue tokens. */
  credential?: SessionCredential;
}

export interface SessionCredential {
  /** The current access token (a bearer token for downstream services). */
  accessToken(): string;
  /**
   * Renew the access token now (the catalog answered 401): resolves true with
   * a new token, false when it cannot be renewed (the credential has ended).
   */
  renew(): Promise<boolean>;
  /** null while the credential is usable; else why the session must end. */
  endedReason(): string | null;
  /** Stop refreshing (the session is over). */
  close(): void;
}

export interface IdentityProvider {
  /** How this login is checked: SCRAM against a verifier, or the cleartext password. */
  plan(info: StartupInfo): Promise<AuthPlan<Identity>>;
  close(): Promise<void>;
}
