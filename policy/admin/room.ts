/**
 * The admin room: runs access-control statements against the policy store.
 * It knows nothing of sockets; the server hands it a statement, the caller
 * and the text, and writes back what it answers.
 *
 * A GRANT / REVOKE / DENY is read-merge-write under one lock (statements of
 * all sessions are serialized), then the policy and catalog caches are
 * flushed, so the grantee's next statement sees the change.
 */
import type { Logger } from 'pino';
import type { PolicyEngine } from '../ranger/engine.js';
import { SqlError } from '../../sql/errors.js';
import { noAdminAudit, type AdminAudit, type AdminOrigin } from './audit.js';
import { delegatedRefusal, granteeSubject, holds, needsAdmin, type GrantAuthority, type Subject } from './authority.js';
import { checkAccess } from './checkAccess.js';
import { applyGrant, applyRevoke, findPolicy, type Json } from './merge.js';
import { missingForGrant, missingForReading, type LoadableObjects } from './objects.js';
import { planGrant, planRevoke, refuseWildcardNames, resolveTarget, type LevelWrite, type PlanContext } from './plan.js';
import { PRIVILEGE_TEXT, type Privilege } from './privileges.js';
import { policyRows, showGrants } from './showGrants.js';
import type { AdminStatement, GrantStatement, ObjectRef } from './statement.js';
import { commandTag } from './statement.js';
import { PolicyStoreError, type PolicyStore } from './store.js';
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
}

export interface AdminCaller extends Subject {
  /** The schema of unqualified names (first of search_path). */
  defaultSchema: string | null;
  /** The session's bearer token (REST catalogs: SET TAG commits as the user). */
  token?: () => string;
  /** For the audit trail: the session's client address and backend id. */
  origin?: AdminOrigin;
}

export interface AdminResult {
  tag: string;
  columns?: { name: string; type: 'text' | 'bool' | 'timestamptz' }[];
  rows?: (string | null)[][];
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
    const resources: string[] = [];
    const policyIds: number[] = [];
    try {
      const result = await this.dispatch(stmt, caller, resources, policyIds);
      this.audit.statement({ action: commandTag(stmt) === 'SELECT' ? stmt.kind.toUpperCase().replace('-', ' ') : commandTag(stmt), user: caller.user, statement: text, allowed: true, reason: 'done', resources, policyIds, time: new Date(this.now()), ...(caller.origin ? { origin: caller.origin } : {}) });
      return result;
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      this.audit.statement({ action: stmt.kind.toUpperCase().replace('-', ' '), user: caller.user, statement: text, allowed: false, reason, resources, policyIds, time: new Date(this.now()), ...(caller.origin ? { origin: caller.origin } : {}) });
      if (e instanceof PolicyStoreError) {
        throw new SqlError(e.kind === 'unknown-grantee' ? '42704' : e.kind === 'unavailable' ? '58030' : '42501', e.message);
      }
      throw e;
    }
  }

  private async dispatch(stmt: AdminStatement, caller: AdminCaller, resources: string[], policyIds: number[]): Promise<AdminResult> {
    switch (stmt.kind) {
      case 'grant':
      case 'deny':
      case 'revoke':
        await this.grant(stmt, caller, resources, policyIds);
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
        const write = planGrant(this.normalize(stmt.privilege, stmt.object), t, this.ctx(caller), true)[0]!;
        resources.push(write.display);
        return checkAccess(engine, stmt.user, write, this.o.requestRealm);
      }
      case 'set-tag':
      case 'unset-tag':
        await this.tag(stmt.kind === 'set-tag', stmt.tag, stmt.column, caller, resources);
        return { tag: commandTag(stmt) };
    }
  }

  /** PostgreSQL's CREATE ON DATABASE is the right to create schemas. */
  private normalize(p: Privilege, obj: ObjectRef): Privilege {
    return p === 'CREATE' && obj.kind === 'database' ? 'CREATE_SCHEMA' : p;
  }

  private objectPrefix(obj: ObjectRef, caller: AdminCaller): string {
    const t = resolveTarget(obj, this.ctx(caller));
    return [this.o.catalog, ...t.namespace, ...(t.table !== null && t.table !== '*' ? [t.table] : [])].join('.');
  }

  private async grant(stmt: GrantStatement, caller: AdminCaller, resources: string[], policyIds: number[]): Promise<void> {
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
    // Access types the service def does not define are left out (Ranger refuses them; 2.8.0's and
    // 2.9.0's polaris defs differ): matched by name, never by itemId.
    const known = engine ? new Set(engine.serviceDef.accessTypes.map((a) => a.name)) : null;
    const defined = (ws: LevelWrite[]) => (known ? ws.map((w) => ({ ...w, types: w.types.filter((t) => known.has(t)) })) : ws);
    // Per grantee, the writes in order (planning refuses a widening before anything is written).
    const work = stmt.grantees.map((grantee) => {
      const writes: LevelWrite[] = [];
      for (const p of privileges) {
        if (stmt.kind === 'revoke') writes.push(...defined([planRevoke(p, target, ctx)]));
        else
          for (const w of defined(planGrant(p, target, ctx, stmt.kind === 'deny'))) {
            if (w.types.length === 0) throw new SqlError('0A000', `the catalog's service definition has none of the access types ${PRIVILEGE_TEXT[p]} needs on the ${w.level} level`);
            // A traversal level the grantee already holds is not written again.
            if (w.traversal && engine && holds(engine, granteeSubject(grantee), w, w.types, this.o.requestRealm)) continue;
            if (!writes.some((x) => x.traversal && w.traversal && x.display === w.display)) writes.push(w);
          }
      }
      return { grantee, writes };
    });
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
    if (stmt.kind !== 'revoke') for (const { grantee } of work) await this.o.store.checkGrantee(grantee);
    const store = this.o.store;
    if (!admin && store.grantRevoke) {
      // Ranger's grant / revoke endpoint, as the session user: Ranger's own per-resource check decides.
      await this.exclusive(async () => {
        for (const { grantee, writes } of work)
          for (const [i, w] of writes.entries()) {
            resources.push(w.display);
            try {
              await store.grantRevoke!(stmt.kind === 'revoke' ? 'revoke' : 'grant', { grantor: caller.user, resource: w.resource, grantee, accessTypes: w.types, delegateAdmin: stmt.grantOption });
            } catch (e) {
              if (e instanceof PolicyStoreError && e.status === 403) {
                throw delegatedRefusal(caller.user, writes.slice(i).map((x) => ({ write: x, adminStatement: adminStatementFor(stmt.kind, x, grantee.type, grantee.name) })), e.message);
              }
              throw e;
            }
          }
        await this.o.flush();
      });
      return;
    }
    await this.exclusive(async () => {
      const all = await this.o.store.load();
      if (clearing && !work.some(({ writes }) => writes.some((w) => findPolicy(all, w.resource)))) throw missing;
      const before = new Map(all.map((p) => [p, JSON.stringify(p)]));
      const deleted: Json[] = [];
      const now = this.now();
      for (const { grantee, writes } of work)
        for (const w of writes) {
          resources.push(w.display);
          if (stmt.kind === 'revoke') {
            const r = applyRevoke(all, w, grantee, now);
            if (r.unlabelled && r.removed.length > 0) {
              this.o.log.warn({ event: 'revoke-unlabelled', resource: w.display, grantee, removed: r.removed }, 'REVOKE on a policy without lakegate grant labels: the named access types were removed as they were');
            }
            if (r.empty && r.policy) deleted.push(r.policy);
          } else {
            applyGrant(all, { write: w, grantee, effect: stmt.kind === 'deny' ? 'deny' : 'allow', delegateAdmin: stmt.grantOption, grantor: caller.user }, now, () => `lakegate-grant-${now}-${++this.seq}`);
          }
        }
      const created = all.filter((p) => !before.has(p));
      const updated = all.filter((p) => before.has(p) && before.get(p) !== JSON.stringify(p) && !deleted.includes(p));
      if (created.length + updated.length + deleted.length === 0) return;
      await this.o.store.commit({ all, created, updated, deleted });
      for (const p of [...created, ...updated]) if (typeof p['id'] === 'number') policyIds.push(p['id']);
      await this.o.flush();
    });
  }

  private async tag(add: boolean, tag: string, parts: string[], caller: AdminCaller, resources: string[]): Promise<void> {
    const verb = add ? 'SET TAG' : 'UNSET TAG';
    if (!this.isAdmin(caller)) throw needsAdmin(verb, this.o.adminRoles);
    const commit = this.o.columnTags;
    if (!commit) throw new SqlError('0A000', `${verb} is not available: the catalog cannot commit table properties`);
    if (parts.length === 4 && parts[0] !== this.o.catalog) {
      throw new SqlError('0A000', `cross-database references are not implemented: "${parts[0]}" is not the connected catalog "${this.o.catalog}"`);
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
