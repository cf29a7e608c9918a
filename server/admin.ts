/**
 * The admin room as the gateway runs it: which policy store GRANT writes
 * (the embedded catalog's local polaris policy files, or Ranger Admin), the
 * polaris-service policies it reads, and the small piece a session calls to
 * run an access-control statement and write its answer.
 */
import { basename, dirname } from 'node:path';
import type { Logger } from 'pino';
import type { AdminResult } from '../policy/admin/results.js';
import { AdminRoom, type AdminCaller } from '../policy/admin/room.js';
import { LocalPolicyFileStore } from '../policy/admin/localStore.js';
import { RangerAdminPolicyStore } from '../policy/admin/rangerAdminStore.js';
import type { AdminAudit } from '../policy/admin/audit.js';
import type { CatalogAsker, LoadableObjects } from '../policy/admin/objects.js';
import type { AdminStatement } from '../policy/admin/statement.js';
import type { DataGateWrites } from '../policy/admin/dataGateWrites.js';
import type { PolicyStore } from '../policy/admin/store.js';
import type { PgField } from './rows/api.js';
import type { Config } from './config.js';
import type { RunningCatalog } from './catalog.js';
import type { CatalogService } from '../catalog/userCatalog.js';
import type { Caller } from '../catalog/iceberg/api.js';
import { SqlError } from '../sql/errors.js';
import { startPolicies, type GatewayPolicies } from './policies.js';
import { commitColumnTag, commitColumnTagRest } from '../catalog/iceberg/tagCommit.js';
import { LocalServiceTagsFile, RangerAdminTagProjection, type TagProjection } from '../policy/admin/tagProjection.js';
import { textField, type TextResult } from './textResult.js';

export interface AdminRoomDeps {
  catalog: RunningCatalog | null;
  /** The data gate's policies (flushed after SET TAG). */
  dataGate?: GatewayPolicies;
  userExists?: (name: string) => boolean;
  audit?: AdminAudit;
  log: Logger;
}

export interface RunningAdminRoom {
  room: AdminRoom;
  stop(): void;
}

/** Null when access-control statements cannot be written (no catalog, or no policy store for it). */
export async function startAdminRoom(config: Config, deps: AdminRoomDeps): Promise<RunningAdminRoom | null> {
  const cat = config.catalog;
  if (!cat || !deps.catalog) return null;
  const ac = config.accessControl;
  const s = cat.source;
  let store: PolicyStore;
  let policies: GatewayPolicies;
  let own: GatewayPolicies | null = null;
  let realm: string;
  if (ac.ranger) {
    const r = ac.ranger;
    store = new RangerAdminPolicyStore({ url: r.url, serviceName: r.serviceName, username: r.username, password: r.password, timeoutMs: r.timeoutMs });
    // An embedded catalog reading the same Ranger Admin has these policies already.
    const same = s.kind === 'embedded' && s.policies.source.kind === 'admin' && s.policies.source.url === r.url && s.policies.source.serviceName === r.serviceName;
    if (same) policies = deps.catalog.policies!;
    else {
      own = await startPolicies(
        { source: { kind: 'admin', url: r.url, serviceName: r.serviceName, username: r.username, password: r.password, timeoutMs: r.timeoutMs, retries: 1, tagService: false }, refreshMs: r.refreshMs, maxStalenessMs: Math.max(300_000, r.refreshMs) },
        deps.log.child({ component: 'admin-policies' }),
        'polaris-admin',
      );
      policies = own;
    }
    realm = s.kind === 'embedded' ? s.realm : (s.realm ?? 'POLARIS');
  } else if (s.kind === 'embedded') {
    const src = s.policies.source;
    policies = deps.catalog.policies!;
    realm = s.realm;
    store =
      src.kind === 'local'
        ? new LocalPolicyFileStore({ folder: src.path, serviceName: src.serviceName ?? 'polaris', ...(deps.userExists ? { userExists: deps.userExists } : {}) })
        : new RangerAdminPolicyStore({ url: src.url, serviceName: src.serviceName, username: src.username, password: src.password, timeoutMs: src.timeoutMs });
  } else {
    deps.log.warn({ event: 'admin', state: 'no-store' }, 'GRANT / REVOKE are not available: a REST catalog needs accessControl.ranger (the Ranger Admin Polaris reads)');
    return null;
  }
  let writes: DataGateWrites | null = null;
  if (ac.projectWrites) {
    const dg = config.ranger?.source;
    if (!dg || !deps.dataGate) throw new Error('invalid configuration: accessControl.projectWrites needs the data gate policies (ranger)');
    const dataGate = deps.dataGate;
    writes = {
      store:
        dg.kind === 'local'
          ? new LocalPolicyFileStore({ ...localFiles(dg.path, dg.serviceName), ...(deps.userExists ? { userExists: deps.userExists } : {}) })
          : new RangerAdminPolicyStore({ url: dg.url, serviceName: dg.serviceName, username: dg.username, password: dg.password, timeoutMs: dg.timeoutMs }),
      serviceName: dg.kind === 'local' ? localFiles(dg.path, dg.serviceName).serviceName : dg.serviceName,
      engine: () => dataGate.current(),
      flush: () => dataGate.flush(),
    };
  }
  let projection: TagProjection | null = null;
  if (ac.projectTags) {
    const dg = config.ranger?.source;
    if (!dg) throw new Error('invalid configuration: accessControl.projectTags needs the data gate policies (ranger)');
    projection =
      dg.kind === 'local'
        ? new LocalServiceTagsFile(dg.path, dg.serviceName ?? 'lakehouse')
        : new RangerAdminTagProjection({ url: dg.url, serviceName: dg.serviceName, username: dg.username, password: dg.password, timeoutMs: dg.timeoutMs });
  }
  const room = new AdminRoom({
    store,
    engine: () => policies.current(),
    objects: loadableObjects(deps.catalog.service),
    flush: async () => {
      await own?.flush();
      await deps.catalog!.flush();
    },
    catalog: s.kind === 'embedded' ? (s.catalogName ?? cat.database) : s.warehouse,
    realmValue: ac.realm,
    requestRealm: realm,
    grantAuthority: ac.grantAuthority,
    adminRoles: ac.adminRoles,
    ...(deps.audit ? { audit: deps.audit } : {}),
    log: deps.log.child({ component: 'admin' }),
    columnTags:
      s.kind === 'embedded'
        ? (c) => commitColumnTag({ ...c, sqliteFile: s.sqliteFile, catalogName: s.catalogName ?? cat.database })
        : (c, caller) => commitColumnTagRest(deps.catalog!.service.client, { user: caller.user, ...(caller.token ? { token: caller.token } : {}) }, c),
    projection,
    ...(deps.dataGate ? { flushDataGate: () => deps.dataGate!.flush() } : {}),
    projectWrites: writes,
    ...(config.ranger?.source.serviceName ? { dataGateService: config.ranger.source.serviceName } : {}),
  });
  return { room, stop: () => own?.stop() };
}

/** A local policy source names a folder and its service, or the service's policies file itself (`<folder>/<service>.json`). */
function localFiles(path: string, serviceName: string | undefined): { folder: string; serviceName: string } {
  if (path.endsWith('.json')) return { folder: dirname(path), serviceName: basename(path, '.json') };
  return { folder: path, serviceName: serviceName ?? 'lakehouse' };
}

/**
 * The catalog as the admin room's asker sees it: the same per-user answers
 * (and cache) a SELECT gets, so a hidden table and a missing one are alike.
 */
function loadableObjects(service: CatalogService): LoadableObjects {
  const caller = (a: CatalogAsker): Caller => ({
    user: a.user,
    ...(a.token ? { token: a.token } : {}),
    ...(a.origin?.clientIp ? { clientAddress: a.origin.clientIp } : {}),
    ...(typeof a.origin?.sessionId === 'number' ? { sessionId: a.origin.sessionId } : {}),
  });
  return {
    relation: async (a, namespace, name) => {
      let found;
      try {
        found = (await service.forUser(a.user).lookup(caller(a), namespace.join('.'), name)).value;
      } catch (e) {
        // `orders@<snapshot>` is time travel in a query, not a name: its selector's errors are not this name's
        if (e instanceof SqlError && name.includes('@')) return null;
        throw e;
      }
      return found && found.name === name ? found.kind : null;
    },
    namespaces: async (a) => (await service.forUser(a.user).namespaces(caller(a))).value,
    relations: async (a) => {
      const user = service.forUser(a.user);
      const namespaces = (await user.namespaces(caller(a))).value;
      const { tables, views } = (await user.listing(caller(a))).value;
      return [...tables, ...views].map((r) => ({ namespace: namespaces.find((n) => n.join('.') === r.schema) ?? [r.schema], name: r.name }));
    },
    columnTags: async (a, namespace, name) => {
      const found = (await service.forUser(a.user).lookup(caller(a), namespace.join('.'), name)).value;
      if (!found || found.kind !== 'table' || found.name !== name) return null;
      // undefined: the table has no tags; null: its property cannot be read
      const tags = found.table.columnTags;
      return tags === undefined ? {} : tags;
    },
  };
}

const TYPE_OID = { text: 25, bool: 16, timestamptz: 1184 } as const;

/** The row description of a statement's answer (null: a command tag only). */
export function adminFields(stmt: AdminStatement): PgField[] | null {
  if (stmt.kind === 'show-grants') {
    return ['privilege', 'resource', 'grantee_type', 'grantee_name', 'effect', 'granted_by', 'granted_at'].map((n) => ({
      ...textField(n),
      ...(n === 'granted_at' ? { typeOid: TYPE_OID.timestamptz, typeLen: 8 } : {}),
    }));
  }
  if (stmt.kind === 'show-tags') return [textField('column'), textField('tag')];
  if (stmt.kind === 'check-access') return [{ ...textField('allowed'), typeOid: TYPE_OID.bool, typeLen: 1 }, textField('reason')];
  return null;
}

export async function runAdmin(room: AdminRoom, stmt: AdminStatement, text: string, caller: AdminCaller): Promise<TextResult> {
  const r: AdminResult = await room.run(stmt, text, caller);
  const notices = (r.notices ?? []).map((n) => ({ severity: 'NOTICE' as const, code: '00000', message: n.message, ...(n.hint ? { hint: n.hint } : {}) }));
  return { fields: adminFields(stmt) ?? [], rows: r.rows ?? [], tag: r.tag, ...(notices.length > 0 ? { notices } : {}) };
}
