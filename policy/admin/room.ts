/**
 * The admin room: runs access-control statements against the policy store.
 * It knows nothing of sockets; the server hands it a statement, the caller
 * and the text, and writes back what it answers.
 *
 * A GRANT / REVOKE / DENY is read-merge-write under one lock (statements of
 * all sessions are serialized), then the policy and catalog caches are
 * flushed, so the grantee's next statement sees the change. With
 * projectWrites, a write privilege is also written to the data gate's
 * policies, after the catalog gate's; when that fails, the catalog gate's are
 * put back as they were and the statement fails (58030).
 */
import type { Logger } from 'pino';
import type { PolicyEngine } from '../ranger/engine.js';
import { SqlError } from '../../sql/errors.js';
import { noAdminAudit, type AdminAudit, type AdminOrigin } from './audit.js';
import { delegatedRefusal, granteeSubject, holds, needsAdmin, type GrantAuthority, type Subject } from './authority.js';
import { checkAccess } from './checkAccess.js';
import { DATA_GATE_TYPES, holdsOnDataGate, planDataGate, type DataGateWrites } from './dataGateWrites.js';
import { applyGrant, applyRevoke, findPolicy, holdsAt, POLARIS_TYPES, type Json, type TypeRules } from './merge.js';
import { missingForGrant, missingForReading, type LoadableObjects } from './objects.js';
import { planGrant, planOwnLevel, planRevoke, refuseWildcardNames, resolveTarget, type LevelWrite, type PlanContext, type Target } from './plan.js';
import { dataGateTypes, isWritePrivilege, PRIVILEGE_TEXT, type Privilege } from './privileges.js';
import type { AdminNotice, AdminResult } from './results.js';
import { policyRows, showGrants } from './showGrants.js';
import type { AdminStatement, Grantee, GrantStatement, ObjectRef } from './statement.js';
import { commandTag } from './statement.js';
import { PolicyStoreError, type PolicyChanges, type PolicyStore, type Restore } from './store.js';
import type { TagProjection } from './tagProjection.js';
import { visiblePolicies } from './visibleGrants.js';

export interface AdminRoomOptions {
  store: PolicyStore;
  /** The polaris-service engine in force (CHECK ACCESS, held traversal, delegated admin). */
  engine: () => PolicyEngine | null;
  /** What the catalog lets a user load: a GRANT's object must exist for the grantor; what a user's SHOW GRANTS and CHECK ACCESS may name. */
  objects: LoadableObjects;
  /** Flushes the policy and catalog caches; resolves once the change is in force. */
  flush: () => Promise<void>;
  catalog: string;
  /** `root` written into policies (`*`: every realm). */
  realmValue: string;
  /** The realm Polaris sends in requests (for evaluating what a user holds). */
  requestRealm: string;
  grantAuthority: GrantAuthority;
  adminRoles: readonly string[];
  audit?: AdminAudit;
  log: Logger;
  now?: () => number;
  /** SET TAG's table commit (the `sqe.column-tags` property); absent: SET TAG is not available. */
  columnTags?: (c: { namespace: string[]; table: string; column: string; tag: string; add: boolean }, caller: AdminCaller) => Promise<{ rollback(): Promise<void> }>;
  /** project-tags: the tag also written to Ranger's tag store; its failure rolls the commit back. */
  projection?: TagProjection | null;
  /** Flushes the data gate's policies (its tags) after SET TAG. */
  flushDataGate?: () => Promise<void>;
  /** project-writes: write privileges also written to the data gate's policies; absent, a GRANT of one says the data gate must allow it too. */
  projectWrites?: DataGateWrites | null;
  /** The data gate's service, for that message when nothing is projected. */
  dataGateService?: string;
}

export interface AdminCaller extends Subject {
  /** The schema of unqualified names (first of search_path). */
  defaultSchema: string | null;
  /** The session's bearer token (REST catalogs: SET TAG commits as the user). */
  token?: () => string;
  /** For the audit trail: the session's client address and backend id. */
  origin?: AdminOrigin;
}

export const SHOW_TAGS_COLUMNS: NonNullable<AdminResult['columns']> = [
  { name: 'column', type: 'text' },
  { name: 'tag', type: 'text' },
];

/** What a statement touched, for the audit trail and the answer. */
interface Trail {
  /** dotted polaris-service resources written or read */
  resources: string[];
  policyIds: number[];
  /** dotted data-gate resources written (projectWrites) */
  dataGate: string[];
  notices: AdminNotice[];
}

/** The data gate's part of a statement: where, and the policy of each write privilege. */
interface DataGateWork {
  gate: DataGateWrites;
  writes: LevelWrite[];
}

/** Access types the service def does not define are left out (Ranger refuses them; 2.8.0's and 2.9.0's polaris defs differ): matched by name, never by itemId. */
function definedBy(engine: PolicyEngine | null, ws: LevelWrite[]): LevelWrite[] {
  if (!engine) return ws;
  const known = new Set(engine.serviceDef.accessTypes.map((a) => a.name));
  return ws.map((w) => ({ ...w, types: w.types.filter((t) => known.has(t)) }));
}

export class AdminRoom {
  private lock: Promise<unknown> = Promise.resolve();
  private readonly audit: AdminAudit;
  private readonly now: () => number;
  private seq = 0;

  constructor(private readonly o: AdminRoomOptions) {
    this.audit = o.audit ?? noAdminAudit;
    this.now = o.now ?? Date.now;
  }

  isAdmin(c: Subject): boolean {
    return this.o.adminRoles.some((r) => c.roles.has(r));
  }

  private ctx(c: AdminCaller): PlanContext {
    return { catalog: this.o.catalog, realm: this.o.realmValue, defaultSchema: c.defaultSchema };
  }

  async run(stmt: AdminStatement, text: string, caller: AdminCaller): Promise<AdminResult> {
    const trail: Trail = { resources: [], policyIds: [], dataGate: [], notices: [] };
    const event = (allowed: boolean, action: string, reason: string) =>
      this.audit.statement({
        action,
        user: caller.user,
        statement: text,
        allowed,
        reason,
        resources: trail.resources,
        policyIds: trail.policyIds,
        ...(trail.dataGate.length > 0 && this.o.projectWrites ? { dataGate: { service: this.o.projectWrites.serviceName, resources: trail.dataGate } } : {}),
        time: new Date(this.now()),
        ...(caller.origin ? { origin: caller.origin } : {}),
      });
    try {
      const result = await this.dispatch(stmt, caller, trail);
      event(true, commandTag(stmt) === 'SELECT' || stmt.kind === 'set-tag' || stmt.kind === 'unset-tag' ? stmt.kind.toUpperCase().replace('-', ' ') : commandTag(stmt), 'done');
      return trail.notices.length > 0 ? { ...result, notices: trail.notices } : result;
    } catch (e) {
      event(false, stmt.kind.toUpperCase().replace('-', ' '), e instanceof Error ? e.message : String(e));
      if (e instanceof PolicyStoreError) {
        throw new SqlError(e.kind === 'unknown-grantee' ? '42704' : e.kind === 'unavailable' ? '58030' : '42501', e.message);
      }
      throw e;
    }
  }

  private async dispatch(stmt: AdminStatement, caller: AdminCaller, trail: Trail): Promise<AdminResult> {
    switch (stmt.kind) {
      case 'grant':
      case 'deny':
      case 'revoke':
        await this.grant(stmt, caller, trail);
        return { tag: commandTag(stmt) };
      case 'show-grants': {
        const admin = this.isAdmin(caller);
        if (!admin && !(stmt.to?.type === 'USER' && stmt.to.name === caller.user)) {
          throw needsAdmin('SHOW GRANTS other than TO USER <yourself>', this.o.adminRoles);
        }
        const on = stmt.on ? this.objectPrefix(stmt.on, caller) : null;
        const filter = { ...(on ? { on } : {}), ...(stmt.to ? { to: stmt.to } : {}) };
        const policies = await this.o.store.load();
        if (admin) return showGrants(policies, filter);
        // A user sees rows only about what the catalog lets them load: a hidden table is not named.
        const theirs = policies.filter((p) => policyRows(p, filter).length > 0);
        return showGrants(await visiblePolicies(theirs, this.o.catalog, caller, this.o.objects), filter);
      }
      case 'check-access': {
        const admin = this.isAdmin(caller);
        if (!admin && stmt.user !== caller.user) throw needsAdmin('CHECK ACCESS for another user', this.o.adminRoles);
        const engine = this.o.engine();
        if (!engine) throw new SqlError('58030', 'the catalog policies are not loaded: access cannot be checked');
        const t = resolveTarget(stmt.object, this.ctx(caller));
        if (!admin) {
          // What SELECT answers: an object this user may not load is a missing one, never a policy's name.
          const missing = await missingForReading(stmt.object, t, caller, this.o.objects);
          if (missing) throw missing;
        }
        // Everything the privilege grants at its level, as far as the catalog's service def knows it (Polaris asks no other)
        const [write] = definedBy(engine, [planOwnLevel(this.normalize(stmt.privilege, stmt.object), t, this.ctx(caller))]);
        trail.resources.push(write!.display);
        return checkAccess(engine, stmt.user, write!, this.o.requestRealm);
      }
      case 'set-tag':
      case 'unset-tag':
        await this.tag(stmt.kind === 'set-tag', stmt.tag, stmt.column, caller, trail.resources);
        return { tag: commandTag(stmt) };
      case 'show-tags':
        return this.showTags(stmt.table, caller, trail.resources);
    }
  }

  /**
   * SHOW TAGS ON t (sqe's): one row per column and tag, ordered by both. As
   * sqe, whoever may load the table may read its tags (the catalog gate
   * decides, asked as the caller); a table the caller may not load is missing.
   */
  private async showTags(parts: string[], caller: AdminCaller, resources: string[]): Promise<AdminResult> {
    const read = this.o.objects.columnTags;
    if (!read) throw new SqlError('0A000', 'SHOW TAGS is not available: the catalog cannot read table properties');
    const object: ObjectRef = { kind: 'table', parts };
    const t = resolveTarget(object, this.ctx(caller));
    const written = parts.slice(-2).join('.');
    resources.push([this.o.catalog, ...t.namespace, t.table].join('.'));
    const found = await this.o.objects.relation(caller, t.namespace, t.table!);
    if (found === null) throw new SqlError('42P01', `relation "${written}" does not exist`);
    if (found !== 'table') throw new SqlError('42809', `"${written}" is not a table`, undefined, { hint: 'Tags are set on the columns of a table.' });
    const tags = await read(caller, t.namespace, t.table!);
    // fail closed: tags that cannot be read are not reported as none
    if (tags === null) throw new SqlError('XX000', `the column tags of "${written}" cannot be read (its sqe.column-tags property is not valid)`);
    const rows = Object.entries(tags)
      .flatMap(([column, ts]) => ts.map((tag) => [column, tag]))
      .sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : a[1]! < b[1]! ? -1 : a[1]! > b[1]! ? 1 : 0));
    return { tag: `SELECT ${rows.length}`, columns: SHOW_TAGS_COLUMNS, rows };
  }

  /** PostgreSQL's CREATE ON DATABASE is the right to create schemas. */
  private normalize(p: Privilege, obj: ObjectRef): Privilege {
    return p === 'CREATE' && obj.kind === 'database' ? 'CREATE_SCHEMA' : p;
  }

  private objectPrefix(obj: ObjectRef, caller: AdminCaller): string {
    const t = resolveTarget(obj, this.ctx(caller));
    return [this.o.catalog, ...t.namespace, ...(t.table !== null && t.table !== '*' ? [t.table] : [])].join('.');
  }

  private async grant(stmt: GrantStatement, caller: AdminCaller, trail: Trail): Promise<void> {
    const admin = this.isAdmin(caller);
    const verb = commandTag(stmt);
    if (stmt.kind === 'deny' && !admin) throw needsAdmin('DENY', this.o.adminRoles);
    if (!admin && this.o.grantAuthority === 'admin-role') throw needsAdmin(verb, this.o.adminRoles);
    const ctx = this.ctx(caller);
    const target = resolveTarget(stmt.object, ctx);
    if (stmt.kind !== 'revoke') refuseWildcardNames(stmt.object);
    // As PostgreSQL: the object must exist, here for the grantor (what the grantor may not load is missing).
    const missing = await missingForGrant(stmt.object, target, caller, this.o.objects);
    // Policies outlive a dropped table, and one left behind would apply again to a table created under its
    // name: an administrator's REVOKE still clears a policy on exactly what it names (checked under the lock).
    const clearing = missing !== null && stmt.kind === 'revoke' && admin;
    if (missing && !clearing) throw missing;
    const privileges = stmt.privileges.map((p) => this.normalize(p, stmt.object));
    const engine = this.o.engine();
    // Per grantee, the writes in order (planning refuses a widening before anything is written).
    const work = stmt.grantees.map((grantee) => {
      const writes: LevelWrite[] = [];
      for (const p of privileges) {
        if (stmt.kind === 'revoke') writes.push(...definedBy(engine, [planRevoke(p, target, ctx)]));
        else
          for (const w of definedBy(engine, planGrant(p, target, ctx, stmt.kind === 'deny'))) {
            if (w.types.length === 0) throw new SqlError('0A000', `the catalog's service definition has none of the access types ${PRIVILEGE_TEXT[p]} needs on the ${w.level} level`);
            // ranger-delegate: a traversal level the grantee already holds (through any policy) is not
            // written, as README says: a delegated grantor holds no grant option above its object.
            // An administrator's GRANT writes every level (merge skips only what is already there).
            if (w.traversal && !admin && engine && holds(engine, granteeSubject(grantee), w, w.types, this.o.requestRealm)) continue;
            if (!writes.some((x) => x.traversal && w.traversal && x.display === w.display)) writes.push(w);
          }
      }
      return { grantee, writes };
    });
    const dataWork = this.dataGateWork(stmt, privileges, target, trail.notices);
    if (!admin && engine) {
      // ranger-delegate: every level written needs the grantor's grant option there.
      const refused: { write: LevelWrite; adminStatement: string }[] = [];
      for (const { grantee, writes } of work)
        for (const w of writes)
          if (!holds(engine, { user: caller.user, roles: caller.roles }, w, ['_admin', ...w.types], this.o.requestRealm)) {
            refused.push({ write: w, adminStatement: adminStatementFor(stmt.kind, w, grantee.type, grantee.name) });
          }
      if (refused.length > 0) throw delegatedRefusal(caller.user, refused);
    }
    if (!admin && dataWork) this.checkDelegatedOnDataGate(caller, dataWork.writes);
    if (stmt.kind !== 'revoke') {
      for (const { grantee } of work) await this.o.store.checkGrantee(grantee);
      if (dataWork) for (const { grantee } of work) await dataWork.gate.store.checkGrantee(grantee);
    }
    await this.exclusive(async () => {
      // A statement written to both gates is written to both or to neither: the catalog gate's
      // policies as they were are put back when the data gate's cannot be written.
      const restore = dataWork ? await this.o.store.checkpoint() : null;
      await this.writeCatalogGate(stmt, caller, work, { admin, clearing, missing, dataWork }, trail);
      if (dataWork) {
        try {
          await this.writeDataGate(stmt, caller, admin, work.map((x) => x.grantee), dataWork, trail.dataGate);
        } catch (e) {
          await this.undoCatalogGate(verb, restore!, dataWork.gate, e);
        }
        await dataWork.gate.flush();
      }
      await this.o.flush();
    });
  }

  /** The catalog gate's policies (the polaris service): Ranger's grant endpoint as a delegated grantor, else read, merge, write. */
  private async writeCatalogGate(
    stmt: GrantStatement,
    caller: AdminCaller,
    work: { grantee: Grantee; writes: LevelWrite[] }[],
    o: { admin: boolean; clearing: boolean; missing: SqlError | null; dataWork: DataGateWork | null },
    trail: Trail,
  ): Promise<void> {
    const store = this.o.store;
    if (!o.admin && store.grantRevoke) {
      // Ranger's grant / revoke endpoint, as the session user: Ranger's own per-resource check decides.
      for (const { grantee, writes } of work)
        for (const [i, w] of writes.entries()) {
          trail.resources.push(w.display);
          try {
            // WITH GRANT OPTION on the object named only: the grantee gains no authority over the traversal above it
            await store.grantRevoke(stmt.kind === 'revoke' ? 'revoke' : 'grant', { grantor: caller.user, resource: w.resource, grantee, accessTypes: w.types, delegateAdmin: stmt.grantOption && !w.traversal });
          } catch (e) {
            if (e instanceof PolicyStoreError && e.status === 403) {
              throw delegatedRefusal(caller.user, writes.slice(i).map((x) => ({ write: x, adminStatement: adminStatementFor(stmt.kind, x, grantee.type, grantee.name) })), e.message);
            }
            throw e;
          }
        }
      return;
    }
    const all = await store.load();
    if (o.clearing && !work.some(({ writes }) => writes.some((w) => findPolicy(all, w.resource)))) {
      // nothing on that name in the catalog gate: a policy the data gate kept alone is still cleared
      const dataAll = o.dataWork ? await o.dataWork.gate.store.load() : [];
      if (!o.dataWork?.writes.some((w) => findPolicy(dataAll, w.resource))) throw o.missing!;
    }
    const changes = this.merge(stmt, caller, all, work, POLARIS_TYPES, trail.resources);
    if (!changes) return;
    await store.commit(changes);
    for (const p of [...changes.created, ...changes.updated]) if (typeof p['id'] === 'number') trail.policyIds.push(p['id']);
  }

  /** The data gate's policies (the query service) for the write privileges: as the catalog gate's are written. */
  private async writeDataGate(stmt: GrantStatement, caller: AdminCaller, admin: boolean, grantees: Grantee[], dataWork: DataGateWork, resources: string[]): Promise<void> {
    const { gate, writes } = dataWork;
    const work = grantees.map((grantee) => ({ grantee, writes }));
    if (!admin && gate.store.grantRevoke) {
      for (const { grantee } of work)
        for (const w of writes) {
          resources.push(w.display);
          await gate.store.grantRevoke(stmt.kind === 'revoke' ? 'revoke' : 'grant', { grantor: caller.user, resource: w.resource, grantee, accessTypes: w.types, delegateAdmin: stmt.grantOption });
        }
      return;
    }
    const all = await gate.store.load();
    const changes = this.merge(stmt, caller, all, work, DATA_GATE_TYPES, resources);
    if (changes) await gate.store.commit(changes);
  }

  /** Merges the statement's writes into a service's policies; null when nothing changes. */
  private merge(stmt: GrantStatement, caller: AdminCaller, all: Json[], work: { grantee: Grantee; writes: LevelWrite[] }[], rules: TypeRules, resources: string[]): PolicyChanges | null {
    const before = new Map(all.map((p) => [p, JSON.stringify(p)]));
    const deleted: Json[] = [];
    const now = this.now();
    for (const { grantee, writes } of work)
      for (const w of writes) {
        // sqe's skip: a traversal level the grantee holds at exactly this resource is a no-op write
        if (stmt.kind === 'grant' && w.traversal && holdsAt(all, w.resource, grantee, w.types)) continue;
        resources.push(w.display);
        if (stmt.kind === 'revoke') {
          const r = applyRevoke(all, w, grantee, now, rules);
          if (r.unlabelled && r.removed.length > 0) {
            this.o.log.warn({ event: 'revoke-unlabelled', resource: w.display, grantee, removed: r.removed }, 'REVOKE on a policy without lakegate grant labels: the named access types were removed as they were');
          }
          if (r.empty && r.policy) deleted.push(r.policy);
        } else {
          // WITH GRANT OPTION on the object named only: the grantee gains no authority over the traversal above it
          applyGrant(all, { write: w, grantee, effect: stmt.kind === 'deny' ? 'deny' : 'allow', delegateAdmin: stmt.grantOption && !w.traversal, grantor: caller.user }, now, () => `lakegate-grant-${now}-${++this.seq}`);
        }
      }
    const created = all.filter((p) => !before.has(p));
    const updated = all.filter((p) => before.has(p) && before.get(p) !== JSON.stringify(p) && !deleted.includes(p));
    if (created.length + updated.length + deleted.length === 0) return null;
    return { all, created, updated, deleted };
  }

  /**
   * The data gate's part of the statement (projectWrites), or null. Without a
   * projection, a GRANT of a write privilege says that the data gate must
   * allow the write too: the catalog gate alone does not let it through.
   */
  private dataGateWork(stmt: GrantStatement, privileges: Privilege[], target: Target, notices: AdminNotice[]): DataGateWork | null {
    const gate = this.o.projectWrites ?? null;
    const written = privileges.filter(isWritePrivilege);
    const service = gate?.serviceName ?? this.o.dataGateService ?? 'the query service';
    if (!gate) {
      if (stmt.kind === 'grant' && written.length > 0) {
        const needs = [...new Set(written.flatMap((p) => dataGateTypes(p)!))].join(', ');
        const on = planDataGate(written[0]!, target)!.display;
        notices.push({
          message: `${written.map((p) => PRIVILEGE_TEXT[p]).join(', ')} ${written.length > 1 ? 'were' : 'was'} written to the catalog gate only: the data gate's policies (${service}) must also allow ${needs} on ${on} for the write to pass`,
          hint: 'Add it to the data gate\'s policies, or set accessControl.projectWrites to have GRANT write both.',
        });
      }
      return null;
    }
    if (stmt.kind === 'grant' && privileges.includes('ALL')) {
      notices.push({
        message: `ALL PRIVILEGES was written to the catalog gate only: the data gate's policies (${service}) decide its writes`,
        hint: 'Grant the write privileges by name (INSERT, UPDATE, DELETE, ALTER, DROP, CREATE) to have both gates written.',
      });
    }
    if (written.length === 0) return null;
    const known = gate.engine() ? new Set(gate.engine()!.serviceDef.accessTypes.map((a) => a.name)) : null;
    const writes: LevelWrite[] = [];
    for (const p of written) {
      const w = planDataGate(p, target)!;
      // a REVOKE takes away what is there, defined or not
      if (stmt.kind === 'revoke') {
        writes.push(w);
        continue;
      }
      const types = known ? w.types.filter((t) => known.has(t)) : w.types;
      if (types.length === 0) throw new SqlError('0A000', `the data gate's service definition (${gate.serviceName}) has none of the access types ${PRIVILEGE_TEXT[p]} needs (${w.types.join(', ')})`);
      writes.push({ ...w, types });
    }
    return { gate, writes };
  }

  /** ranger-delegate: the grantor needs the grant option on the data gate's resource too, as the data gate decides. */
  private checkDelegatedOnDataGate(caller: AdminCaller, writes: LevelWrite[]): void {
    const gate = this.o.projectWrites!;
    const engine = gate.engine();
    if (!engine) throw new SqlError('58030', `the data gate's policies (${gate.serviceName}) are not loaded: a delegated grant cannot be checked`);
    const refused = writes.find((w) => !holdsOnDataGate(engine, { user: caller.user, roles: caller.roles }, w, ['_admin', ...w.types]));
    if (refused) {
      throw new SqlError('42501', `permission denied: ${caller.user} holds no grant option on the data gate's "${refused.display}" (${gate.serviceName}) for ${refused.types.join(', ')}`, undefined, {
        hint: `An administrator must grant it, or give ${caller.user} the grant option there.`,
      });
    }
  }

  /** The data gate could not be written: the catalog gate's policies are put back and the statement fails. */
  private async undoCatalogGate(verb: string, restore: Restore, gate: DataGateWrites, cause: unknown): Promise<never> {
    const why = cause instanceof Error ? cause.message : String(cause);
    let undone = true;
    try {
      await restore();
    } catch (e) {
      undone = false;
      this.o.log.error({ event: 'grant-undo', err: (e as Error).message }, `${verb}: the catalog gate's policies could not be put back`);
    }
    await this.o.flush();
    this.o.log.error({ event: 'grant-data-gate', service: gate.serviceName, err: why }, `${verb}: the data gate's policies could not be written`);
    const store = this.o.store.describe();
    throw new SqlError(
      '58030',
      undone
        ? `${verb} failed and was undone: the data gate's policies could not be written (${gate.store.describe()}): ${why}`
        : `${verb} failed: the data gate's policies could not be written (${gate.store.describe()}): ${why}; the catalog gate's policies written before it could not be put back: check ${store}`,
    );
  }

  private async tag(add: boolean, tag: string, parts: string[], caller: AdminCaller, resources: string[]): Promise<void> {
    const verb = add ? 'SET TAG' : 'UNSET TAG';
    if (!this.isAdmin(caller)) throw needsAdmin(verb, this.o.adminRoles);
    const commit = this.o.columnTags;
    if (!commit) throw new SqlError('0A000', `${verb} is not available: the catalog cannot commit table properties`);
    if (parts.length === 4 && parts[0] !== this.o.catalog) {
      throw new SqlError('0A000', `cross-database references are not implemented: "${parts[0]}" is not the connected catalog "${this.o.catalog}"`);
    }
    // ALTER TABLE t ALTER COLUMN c names the table as PostgreSQL does: unqualified, in the first schema of search_path
    if (parts.length === 2) {
      if (!caller.defaultSchema) throw new SqlError('3F000', 'no schema has been selected to create in', undefined, { hint: 'Qualify the name: schema.table.' });
      parts = [caller.defaultSchema, ...parts];
    }
    const [ns, table, column] = parts.slice(-3) as [string, string, string];
    const display = `${this.o.catalog}.${ns}.${table}.${column}`;
    resources.push(display);
    await this.exclusive(async () => {
      const done = await commit({ namespace: [ns], table, column, tag, add }, caller);
      if (this.o.projection) {
        try {
          await this.o.projection.project({ database: ns, table, column }, tag, add);
        } catch (e) {
          await done.rollback();
          await this.o.flush();
          this.o.log.error({ event: 'tag-projection', column: display, tag, err: (e as Error).message }, `${verb}: projection to Ranger's tag store failed; the table property was rolled back`);
          throw new SqlError('58030', `${verb} failed and was rolled back: the tag could not be written to Ranger's tag store (${this.o.projection.describe()})`);
        }
      }
      await this.o.flush();
      await this.o.flushDataGate?.();
    });
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lock.then(work, work);
    this.lock = run.catch(() => undefined);
    return run;
  }
}

/** The statement an administrator would run to write this level for the grantee. */
function adminStatementFor(kind: string, w: LevelWrite, type: string, name: string): string {
  const parts = w.display.split('.');
  const obj =
    w.level === 'catalog'
      ? `DATABASE ${parts[0]}`
      : w.level === 'namespace'
        ? `SCHEMA ${parts.slice(1).join('.')}`
        : w.resource['table'] === '*'
          ? `ALL ${w.kind === 'view' ? 'VIEWS' : 'TABLES'} IN SCHEMA ${parts.slice(1, -1).join('.')}`
          : `${w.kind === 'view' ? 'VIEW' : 'TABLE'} ${parts.slice(1).join('.')}`;
  const verb = kind === 'revoke' ? 'REVOKE' : 'GRANT';
  return `${verb} ${PRIVILEGE_TEXT[w.privilege as Privilege]} ON ${obj} ${verb === 'REVOKE' ? 'FROM' : 'TO'} ${type} ${name}`;
}
