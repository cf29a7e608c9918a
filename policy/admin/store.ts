/**
 * Where GRANT writes: the polaris service's policies, read whole and written
 * back change by change. Two backends: the local policy files of the
 * embedded mode (localStore.ts) and Ranger Admin (rangerAdminStore.ts).
 */
import type { Json } from './merge.js';
import type { Grantee } from './statement.js';

export interface PolicyChanges {
  /** Every policy after the change (for a backend that writes the whole set). */
  all: Json[];
  created: Json[];
  updated: Json[];
  deleted: Json[];
}

/** A refusal by the policy store (Ranger's own error text, passed on to the client). */
export class PolicyStoreError extends Error {
  constructor(
    message: string,
    readonly kind: 'unknown-grantee' | 'refused' | 'unavailable' | 'conflict',
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PolicyStoreError';
  }
}

/** Puts the service's access policies back as they were when it was taken. */
export type Restore = () => Promise<void>;

export interface PolicyStore {
  describe(): string;
  /** The service's access policies now (copies the caller may change). */
  load(): Promise<Json[]>;
  /** Writes the changes; the store refuses an unknown grantee as Ranger does. */
  commit(changes: PolicyChanges): Promise<void>;
  /**
   * The access policies as they are now, to be put back if a later write of
   * the same statement fails (a GRANT written to two services is written to
   * both or to neither). Restoring re-creates, rewrites or deletes exactly the
   * policies that differ from the checkpoint.
   */
  checkpoint(): Promise<Restore>;
  /** Whether a grantee exists for the store (Ranger refuses a policy item naming an unknown one). */
  checkGrantee(g: Grantee): Promise<void>;
  /**
   * Ranger's grant / revoke endpoint (ranger-delegate mode): Ranger merges and
   * decides whether the grantor may; a refusal is a PolicyStoreError with status 403.
   */
  grantRevoke?(kind: 'grant' | 'revoke', call: GrantRevokeCall): Promise<void>;
}

export interface GrantRevokeCall {
  grantor: string;
  resource: Record<string, string>;
  grantee: Grantee;
  accessTypes: readonly string[];
  delegateAdmin: boolean;
}

/** Ranger's refusal of a policy item naming a principal it does not know (ServiceDBStore). */
export function unknownGrantee(g: Grantee): PolicyStoreError {
  return new PolicyStoreError(`${g.type === 'USER' ? 'user' : 'role'} with name: ${g.name} does not exist`, 'unknown-grantee', 400);
}
