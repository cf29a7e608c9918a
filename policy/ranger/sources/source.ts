/**
 * Where a policy set comes from: one interface for Ranger Admin (REST) and for the
 * embedded mode's files, so the cache neither knows nor cares which one it polls.
 *
 * A snapshot is everything the evaluator needs at one moment: the service's
 * policies (with tag policies and zones inside ServicePolicies), the role store,
 * the service's tags and the user store. It is replaced whole, never patched.
 */
import type { RangerRoles, ServicePolicies, ServiceTags, UserStore } from '../model.js';

/** Versions as Ranger numbers them; null when the JSON carries none. */
export interface SnapshotVersions {
  policyVersion: number | null;
  roleVersion: number | null;
  tagVersion: number | null;
  userStoreVersion: number | null;
}

/** What the caller already holds: the source answers "unchanged" only against these. */
export type KnownVersions = Pick<SnapshotVersions, 'policyVersion' | 'roleVersion' | 'tagVersion'>;

export interface PolicySnapshot {
  policies: ServicePolicies;
  roles: RangerRoles;
  /** null when the deployment has no tag service (tag policies then never match). */
  tags: ServiceTags | null;
  userStore: UserStore | null;
  versions: SnapshotVersions;
}

export type FetchResult = { changed: false } | { changed: true; snapshot: PolicySnapshot };

export interface PolicySource {
  /** For logs: which server or path, never a credential. */
  describe(): string;
  /**
   * Returns `changed: false` only when the held set is provably current for
   * `known`; anything else yields a whole snapshot. Throws PolicySourceError.
   */
  fetch(known: KnownVersions | null, signal?: AbortSignal): Promise<FetchResult>;
}

export function versionsOf(s: Omit<PolicySnapshot, 'versions'>): SnapshotVersions {
  return {
    policyVersion: s.policies.policyVersion ?? null,
    roleVersion: s.roles.roleVersion ?? null,
    tagVersion: s.tags?.tagVersion ?? null,
    userStoreVersion: s.userStore?.userStoreVersion ?? null,
  };
}

export function sameKnownVersions(a: KnownVersions | null, b: KnownVersions | null): boolean {
  if (a === null || b === null) return false;
  return a.policyVersion === b.policyVersion && a.roleVersion === b.roleVersion && a.tagVersion === b.tagVersion;
}

/**
 * Why a fetch failed. `retryable` is true only for failures another attempt may
 * cure soon (network errors, 5xx); a refusal, a missing service or bad JSON
 * will be the same on the next try.
 */
export type PolicySourceErrorKind =
  | 'unreachable' // connection refused / reset / DNS
  | 'timeout'
  | 'server' // 5xx
  | 'auth' // 401 / 403
  | 'not-found' // 404: the service does not exist
  | 'refused' // other 4xx
  | 'malformed' // not JSON, or JSON the model refuses
  | 'io'; // local files: missing, unreadable

export class PolicySourceError extends Error {
  constructor(
    readonly kind: PolicySourceErrorKind,
    message: string,
    readonly details: { status?: number; jsonPath?: string; retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'PolicySourceError';
  }

  get retryable(): boolean {
    return this.details.retryable ?? false;
  }
  get status(): number | undefined {
    return this.details.status;
  }
  get jsonPath(): string | undefined {
    return this.details.jsonPath;
  }
}
