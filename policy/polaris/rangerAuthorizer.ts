/**
 * Polaris's Ranger authorizer (RangerPolarisAuthorizer), evaluated here: which
 * Ranger access types each Polaris operation needs and on which securable
 * (RangerPolarisOperationSemantics; see reference/polaris-iceberg-keycloak.md
 * §1.2–§1.5), how a Polaris request becomes Ranger access requests against the
 * `polaris` service def, and the authorizer the embedded catalog is handed
 * (catalog/catalogGate.ts CatalogAuthorizer; server/catalog.ts wires it).
 *
 * A Polaris request is one multi-access request: every target is checked for
 * the operation's target access types, every secondary for its secondary ones,
 * and the operation is allowed only if every single check is. An operation
 * missing from the table (principal-role, catalog-role and grant management) is
 * always refused: under Ranger, grants live in Ranger.
 *
 * Access types are matched by name (their itemIds differ between Ranger's 2.8.0
 * and 2.9.0 polaris defs); `unknownAccessTypes` lists any a def lacks.
 *
 * Requests are typed by what is read of them (PolarisRequest): catalog/
 * builds them (catalog/polaris/authorization.ts) and policy/ does not import it.
 */
import type { PolicyEngine } from '../ranger/engine.js';
import type { ServiceDef } from '../ranger/model.js';
import type { AccessRequest, AccessResult } from '../ranger/request.js';
import { parseResourceName } from '../ranger/resourceName.js';

/**
 * Where an operation's access is checked. `namespace-or-catalog` is the parent
 * namespace, or the catalog itself for a top-level namespace; `view` is a
 * TABLE_LIKE entity, i.e. the `table` resource.
 */
export type ResourceLevel = 'root' | 'catalog' | 'principal' | 'namespace' | 'namespace-or-catalog' | 'table' | 'view' | 'policy';

export interface AccessCheck {
  accessTypes: readonly string[];
  level: ResourceLevel;
}

export interface OperationAccess {
  target: AccessCheck;
  /** Checked on the operation's secondary securable (rename destination, policy-attachment object). */
  secondary?: AccessCheck;
}

const at = (level: ResourceLevel, ...accessTypes: string[]): AccessCheck => ({ accessTypes, level });
const op = (target: AccessCheck, secondary?: AccessCheck): OperationAccess => (secondary ? { target, secondary } : { target });

/** Polaris operation → access types, as RangerPolarisOperationSemantics (Polaris main = 1.7.0). */
export const OPERATION_ACCESS: Readonly<Record<string, OperationAccess>> = Object.freeze({
  // namespaces
  LIST_NAMESPACES: op(at('namespace-or-catalog', 'namespace-list')),
  CREATE_NAMESPACE: op(at('namespace-or-catalog', 'namespace-create')),
  LOAD_NAMESPACE_METADATA: op(at('namespace', 'namespace-properties-read')),
  NAMESPACE_EXISTS: op(at('namespace', 'namespace-list')),
  DROP_NAMESPACE: op(at('namespace', 'namespace-drop')),
  UPDATE_NAMESPACE_PROPERTIES: op(at('namespace', 'namespace-properties-write')),
  // tables
  LIST_TABLES: op(at('namespace', 'table-list')),
  CREATE_TABLE_DIRECT: op(at('namespace', 'table-create')),
  CREATE_TABLE_DIRECT_WITH_WRITE_DELEGATION: op(at('namespace', 'table-create', 'table-data-write')),
  CREATE_TABLE_STAGED: op(at('namespace', 'table-create')),
  CREATE_TABLE_STAGED_WITH_WRITE_DELEGATION: op(at('namespace', 'table-create', 'table-data-write')),
  REGISTER_TABLE: op(at('namespace', 'table-create')),
  REGISTER_TABLE_WITH_READ_DELEGATION: op(at('namespace', 'table-create', 'table-data-read')),
  REGISTER_TABLE_WITH_WRITE_DELEGATION: op(at('namespace', 'table-create', 'table-data-write')),
  REGISTER_TABLE_OVERWRITE: op(at('table', 'table-metadata-full')),
  REGISTER_TABLE_OVERWRITE_WITH_READ_DELEGATION: op(at('table', 'table-metadata-full', 'table-data-read')),
  REGISTER_TABLE_OVERWRITE_WITH_WRITE_DELEGATION: op(at('table', 'table-metadata-full', 'table-data-write')),
  LOAD_TABLE: op(at('table', 'table-properties-read')),
  LOAD_TABLE_WITH_READ_DELEGATION: op(at('table', 'table-data-read')),
  LOAD_TABLE_WITH_WRITE_DELEGATION: op(at('table', 'table-data-write')),
  UPDATE_TABLE: op(at('table', 'table-properties-write')),
  UPDATE_TABLE_FOR_STAGED_CREATE: op(at('namespace', 'table-create')),
  DROP_TABLE_WITHOUT_PURGE: op(at('table', 'table-drop')),
  DROP_TABLE_WITH_PURGE: op(at('table', 'table-drop', 'table-data-write')),
  TABLE_EXISTS: op(at('table', 'table-list')),
  RENAME_TABLE: op(at('table', 'table-drop'), at('namespace-or-catalog', 'table-list', 'table-create')),
  COMMIT_TRANSACTION: op(at('table', 'table-properties-write', 'table-create')),
  REPORT_READ_METRICS: op(at('table', 'table-data-read')),
  LIST_TABLE_METRICS: op(at('table', 'table-data-read')),
  REPORT_WRITE_METRICS: op(at('table', 'table-data-write')),
  SEND_NOTIFICATIONS: op(at('table', 'table-create', 'table-properties-write', 'table-drop', 'namespace-create', 'namespace-drop')),
  // fine-grained table updates (one per Iceberg update kind, see UPDATE_KIND_OPERATION)
  ASSIGN_TABLE_UUID: op(at('table', 'table-uuid-assign')),
  UPGRADE_TABLE_FORMAT_VERSION: op(at('table', 'table-format-version-upgrade')),
  ADD_TABLE_SCHEMA: op(at('table', 'table-schema-add')),
  SET_TABLE_CURRENT_SCHEMA: op(at('table', 'table-schema-set-current')),
  ADD_TABLE_PARTITION_SPEC: op(at('table', 'table-partition-spec-add')),
  ADD_TABLE_SORT_ORDER: op(at('table', 'table-sort-order-add')),
  SET_TABLE_DEFAULT_SORT_ORDER: op(at('table', 'table-sort-order-set-default')),
  ADD_TABLE_SNAPSHOT: op(at('table', 'table-snapshot-add')),
  SET_TABLE_SNAPSHOT_REF: op(at('table', 'table-snapshot-ref-set')),
  REMOVE_TABLE_SNAPSHOTS: op(at('table', 'table-snapshots-remove')),
  REMOVE_TABLE_SNAPSHOT_REF: op(at('table', 'table-snapshot-ref-remove')),
  SET_TABLE_LOCATION: op(at('table', 'table-location-set')),
  SET_TABLE_PROPERTIES: op(at('table', 'table-properties-set')),
  REMOVE_TABLE_PROPERTIES: op(at('table', 'table-properties-remove')),
  SET_TABLE_STATISTICS: op(at('table', 'table-statistics-set')),
  REMOVE_TABLE_STATISTICS: op(at('table', 'table-statistics-remove')),
  REMOVE_TABLE_PARTITION_SPECS: op(at('table', 'table-partition-specs-remove')),
  // views (TABLE_LIKE entities: the `table` resource)
  LIST_VIEWS: op(at('namespace', 'view-list')),
  CREATE_VIEW: op(at('namespace', 'view-create')),
  REGISTER_VIEW: op(at('namespace', 'view-create')),
  LOAD_VIEW: op(at('view', 'view-properties-read')),
  REPLACE_VIEW: op(at('view', 'view-properties-write')),
  DROP_VIEW: op(at('view', 'view-drop')),
  VIEW_EXISTS: op(at('view', 'view-list')),
  RENAME_VIEW: op(at('view', 'view-drop'), at('namespace-or-catalog', 'view-list', 'view-create')),
  // realm, catalogs, principals
  LIST_CATALOGS: op(at('root', 'catalog-list')),
  CREATE_CATALOG: op(at('root', 'catalog-create')),
  GET_CATALOG: op(at('catalog', 'catalog-properties-read')),
  UPDATE_CATALOG: op(at('catalog', 'catalog-properties-write')),
  DELETE_CATALOG: op(at('catalog', 'catalog-drop')),
  LIST_PRINCIPALS: op(at('root', 'principal-list')),
  CREATE_PRINCIPAL: op(at('root', 'principal-create')),
  GET_PRINCIPAL: op(at('principal', 'principal-properties-read')),
  UPDATE_PRINCIPAL: op(at('principal', 'principal-properties-write')),
  DELETE_PRINCIPAL: op(at('principal', 'principal-drop')),
  ROTATE_CREDENTIALS: op(at('principal', 'principal-credentials-rotate')),
  RESET_CREDENTIALS: op(at('principal', 'principal-credentials-reset')),
  // policies
  CREATE_POLICY: op(at('namespace', 'policy-create')),
  LIST_POLICY: op(at('namespace', 'policy-list')),
  LOAD_POLICY: op(at('policy', 'policy-read')),
  UPDATE_POLICY: op(at('policy', 'policy-write')),
  DROP_POLICY: op(at('policy', 'policy-drop')),
  ATTACH_POLICY_TO_CATALOG: op(at('policy', 'policy-attach'), at('catalog', 'catalog-policy-attach')),
  ATTACH_POLICY_TO_NAMESPACE: op(at('policy', 'policy-attach'), at('namespace', 'namespace-policy-attach')),
  ATTACH_POLICY_TO_TABLE: op(at('policy', 'policy-attach'), at('table', 'table-policy-attach')),
  DETACH_POLICY_FROM_CATALOG: op(at('policy', 'policy-detach'), at('catalog', 'catalog-policy-detach')),
  DETACH_POLICY_FROM_NAMESPACE: op(at('policy', 'policy-detach'), at('namespace', 'namespace-policy-detach')),
  DETACH_POLICY_FROM_TABLE: op(at('policy', 'policy-detach'), at('table', 'table-policy-detach')),
  GET_APPLICABLE_POLICIES_ON_CATALOG: op(at('catalog', 'catalog-properties-read')),
  GET_APPLICABLE_POLICIES_ON_NAMESPACE: op(at('namespace', 'namespace-properties-read')),
  GET_APPLICABLE_POLICIES_ON_TABLE: op(at('table', 'table-properties-read')),
});

/** The access an operation needs; null for an operation Polaris's Ranger authorizer always refuses. */
export function accessFor(operation: string): OperationAccess | null {
  return Object.hasOwn(OPERATION_ACCESS, operation) ? OPERATION_ACCESS[operation]! : null;
}

/** Every access type the table can ask for. */
export function allAccessTypes(): string[] {
  const out = new Set<string>();
  for (const a of Object.values(OPERATION_ACCESS)) for (const t of [...a.target.accessTypes, ...(a.secondary?.accessTypes ?? [])]) out.add(t);
  return [...out].sort();
}

/** Access types the table uses that a service def does not define (none for Ranger 2.9.0's polaris def). */
export function unknownAccessTypes(def: ServiceDef): string[] {
  const known = new Set(def.accessTypes.map((a) => a.name));
  return allAccessTypes().filter((t) => !known.has(t));
}

// ---------------------------------------------------------------- securables

/** A resolved Polaris path as the authorizer reads it: the leaf entity's type (ROOT, CATALOG, NAMESPACE, TABLE_LIKE …), the realm id, then every name below the root. */
export interface PolarisSecurable {
  leafType: string;
  names: readonly string[];
}

/** The Ranger resource type of a leaf entity type; an entity type without one is sent as it is. */
const RESOURCE_TYPE: ReadonlyMap<string, string> = new Map([
  ['ROOT', 'root'],
  ['PRINCIPAL', 'principal'],
  ['CATALOG', 'catalog'],
  ['NAMESPACE', 'namespace'],
  ['TABLE_LIKE', 'table'],
  ['POLICY', 'policy'],
]);

/**
 * The Ranger resource name Polaris sends: `<type>:<realm>/<name>/…`, the type
 * from the leaf entity, names joined by `/` without escaping (as Polaris does;
 * see policy/ranger/resourceName.ts for what that makes of nested namespaces).
 */
export function rangerResourceName(path: PolarisSecurable): string {
  return `${RESOURCE_TYPE.get(path.leafType) ?? path.leafType}:${path.names.join('/')}`;
}

// ---------------------------------------------------------------- requests

/** A request the authorizer cannot check: a needed target missing, a path the def cannot hold (Polaris fails it instead of refusing it). */
export class PolarisAuthzError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolarisAuthzError';
  }
}

/** One operation on its securables, for one principal (catalog/polaris/authorization.ts PolarisAuthzRequest). */
export interface PolarisRequest {
  principal: {
    name: string;
    /** Activated principal roles, sent to Ranger as the user's roles (none: Ranger's role store decides). */
    roles?: readonly string[];
  };
  operation: string;
  targets: readonly PolarisSecurable[];
  secondaries?: readonly PolarisSecurable[];
}

/** One Ranger check: a resource and the access types it must allow. */
export interface RangerAccessCheck {
  resourceName: string;
  resource: Record<string, string>;
  accessTypes: readonly string[];
}

/**
 * The checks a request makes; null when the operation is unmapped (refused).
 * Throws PolarisAuthzError when a needed target is missing or a path does not
 * fit the def (Polaris fails such a request instead of refusing it).
 */
export function rangerChecks(def: ServiceDef, req: PolarisRequest): RangerAccessCheck[] | null {
  const access = accessFor(req.operation);
  if (!access) return null;
  const checks: RangerAccessCheck[] = [];
  const add = (paths: readonly PolarisSecurable[] | undefined, check: AccessCheck, role: string) => {
    if (!paths || paths.length === 0) throw new PolarisAuthzError(`${req.operation} needs a ${role} for ${check.accessTypes.join(', ')}`);
    for (const p of paths) {
      const resourceName = rangerResourceName(p);
      let resource: Record<string, string>;
      try {
        resource = parseResourceName(def, resourceName).resource;
      } catch (e) {
        throw new PolarisAuthzError(`${req.operation}: ${(e as Error).message}`);
      }
      checks.push({ resourceName, resource, accessTypes: check.accessTypes });
    }
  };
  add(req.targets, access.target, 'target');
  // Polaris ignores secondaries an operation has no access types for.
  if (access.secondary) add(req.secondaries, access.secondary, 'secondary');
  return checks;
}

/** The Ranger access requests for one check, one per access type. */
export function accessRequests(check: RangerAccessCheck, req: PolarisRequest, accessTime: Date = new Date()): AccessRequest[] {
  return check.accessTypes.map((accessType) => {
    const r: AccessRequest = {
      resource: check.resource,
      accessType,
      user: req.principal.name,
      // Polaris never sends groups.
      userGroups: new Set<string>(),
      action: req.operation,
      accessTime,
    };
    if (req.principal.roles && req.principal.roles.length > 0) r.userRoles = new Set(req.principal.roles);
    return r;
  });
}

export interface PolarisDecision {
  allowed: boolean;
  /** Polaris's refusal message when not allowed. */
  reason: string | null;
  /** Every access type checked, with the engine's answer. */
  checks: { resourceName: string; accessType: string; result: AccessResult }[];
}

/** Decides a Polaris request the way RangerPolarisAuthorizer does: allowed only if every check allows. */
export function authorizePolaris(engine: PolicyEngine, req: PolarisRequest, accessTime: Date = new Date()): PolarisDecision {
  const refused = `Principal '${req.principal.name}' is not authorized for op '${req.operation}'`;
  const checks = rangerChecks(engine.serviceDef, req);
  if (!checks) return { allowed: false, reason: refused, checks: [] };
  const out: PolarisDecision['checks'] = [];
  for (const check of checks)
    for (const r of accessRequests(check, req, accessTime))
      out.push({ resourceName: check.resourceName, accessType: r.accessType, result: engine.isAccessAllowed(r) });
  // Ranger answers ALLOW only when every permission's access is determined and allowed.
  const allowed = out.every((c) => c.result.isAccessDetermined && c.result.isAllowed);
  return { allowed, reason: allowed ? null : refused, checks: out };
}

// ---------------------------------------------------------------- the authorizer

/** One catalog call, as the embedded catalog asks about it (catalog/catalogGate.ts CatalogCall). */
export interface PolarisCall<C extends { user: string }> {
  caller: C;
  operations: readonly string[];
  target: PolarisSecurable;
  secondary?: PolarisSecurable;
  /** the entity exists: its decisions are told to `onDecision` */
  recorded: boolean;
}

/** A decision on an entity that exists, with the policies that made it (what Polaris's own authorizer would audit). */
export interface PolarisDecisionEvent<C> {
  engine: PolicyEngine;
  caller: C;
  operation: string;
  decision: PolarisDecision;
}

/**
 * The Ranger-backed authorizer over the polaris-service policies in force
 * (`policies()`: null when not loaded, or stale, which refuses everything).
 * The policies are read once per call, so every operation of a commit is
 * decided by the same set.
 */
export class RangerPolarisAuthorizer<C extends { user: string }> {
  constructor(
    private readonly policies: () => PolicyEngine | null,
    private readonly onDecision?: (d: PolarisDecisionEvent<C>) => void,
  ) {}

  /** Decides every operation of the call; the first refused one (Polaris's 403 names it), or null when all are allowed. */
  firstRefused(call: PolarisCall<C>): string | null {
    const engine = this.policies();
    let refused: string | null = null;
    for (const operation of call.operations) {
      const decision =
        engine !== null
          ? authorizePolaris(engine, { principal: { name: call.caller.user }, operation, targets: [call.target], ...(call.secondary ? { secondaries: [call.secondary] } : {}) })
          : null;
      if (call.recorded && engine && decision) this.onDecision?.({ engine, caller: call.caller, operation, decision });
      if (decision?.allowed !== true && refused === null) refused = operation;
    }
    return refused;
  }
}
