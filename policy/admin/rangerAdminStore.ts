/**
 * Ranger Admin as the policy store GRANT writes (reference ranger.md §10.5,
 * §10.6), with HTTP Basic as a service account:
 *  - the public v2 policy API for admin-role mode (read the service's
 *    policies, merge, POST / PUT / DELETE each changed one; state-changing
 *    calls carry X-XSRF-HEADER);
 *  - the grant / revoke endpoints for ranger-delegate mode, with the session
 *    user as `grantor`, so Ranger's own delegated-admin check decides;
 *  - grantee look-ups (a user by name in the user store, a role by name),
 *    so an unknown grantee is refused before anything is written.
 * Ranger's refusal text (`msgDesc`) is passed on; the password never is.
 */
import { z } from 'zod';
import type { Json } from './merge.js';
import { granteeField } from './merge.js';
import type { Grantee } from './statement.js';
import { PolicyStoreError, unknownGrantee, type GrantRevokeCall, type PolicyChanges, type PolicyStore, type Restore } from './store.js';

export interface RangerAdminStoreOptions {
  url: string;
  serviceName: string;
  username: string;
  password: string;
  timeoutMs: number;
}


const VXResponse = z.object({ msgDesc: z.string().optional(), messageList: z.array(z.object({ message: z.string().optional() })).optional() }).passthrough();
const PolicyList = z.array(z.record(z.string(), z.unknown()));

/** What a policy says, without what Ranger stamps on every write (version, times, who). */
const content = (p: Json): Json => {
  const { version: _v, updateTime: _u, updatedBy: _b, createTime: _c, createdBy: _cb, ...rest } = p;
  return rest;
};

export class RangerAdminPolicyStore implements PolicyStore {
  constructor(private readonly o: RangerAdminStoreOptions) {}

  describe(): string {
    return `Ranger Admin at ${this.o.url} (service ${this.o.serviceName})`;
  }

  private async call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    let res: Response;
    try {
      res = await fetch(new URL(path, this.o.url), {
        method,
        headers: {
          authorization: `Basic ${Buffer.from(`${this.o.username}:${this.o.password}`).toString('base64')}`,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(method !== 'GET' ? { 'X-XSRF-HEADER': 'lakegate' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.o.timeoutMs),
      });
    } catch (e) {
      throw new PolicyStoreError(`Ranger Admin is unreachable (${method} ${path}): ${(e as Error).name === 'TimeoutError' ? 'timed out' : (e as Error).message}`, 'unavailable');
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: res.status, json };
  }

  /** Ranger's refusal as an error carrying its own text. */
  private refusal(what: string, status: number, json: unknown): PolicyStoreError {
    const v = VXResponse.safeParse(json);
    const text = v.success ? (v.data.msgDesc ?? v.data.messageList?.[0]?.message) : undefined;
    const message = text ?? `Ranger Admin answered ${status} to ${what}`;
    const kind = status === 401 || status === 403 ? 'refused' : /does not exist|doesn't exist|not found/i.test(message) && status === 400 ? 'unknown-grantee' : status >= 500 ? 'unavailable' : 'refused';
    return new PolicyStoreError(message, kind, status);
  }

  async load(): Promise<Json[]> {
    const path = `/service/public/v2/api/service/${encodeURIComponent(this.o.serviceName)}/policy`;
    const r = await this.call('GET', path);
    if (r.status !== 200) throw this.refusal('a policy listing', r.status, r.json);
    const list = PolicyList.safeParse(r.json);
    if (!list.success) throw new PolicyStoreError(`Ranger Admin's policy listing is not a list of policies: ${list.error.message}`, 'unavailable');
    return list.data.filter((p) => (p['policyType'] ?? 0) === 0) as Json[];
  }

  /**
   * One call per policy, in order. Ranger has no transaction across policies, so a
   * failure halfway undoes what this commit already wrote (newest first): a GRANT
   * is written whole or not at all, unless the undo fails too, which the error says.
   */
  async commit(c: PolicyChanges): Promise<void> {
    const undo: { what: string; run: () => Promise<void> }[] = [];
    try {
      for (const p of c.created) {
        const r = await this.call('POST', '/service/public/v2/api/policy', { ...p, service: this.o.serviceName });
        if (r.status !== 200) throw this.refusal('a policy create', r.status, r.json);
        const id = (r.json as Json | null)?.['id'];
        if (typeof id === 'number') {
          p['id'] = id;
          undo.push({ what: `delete policy ${id}`, run: () => this.write('DELETE', `/service/public/v2/api/policy/${id}`) });
        }
      }
      for (const p of c.updated) {
        const before = await this.current(p['id'] as number);
        const r = await this.call('PUT', `/service/public/v2/api/policy/${p['id'] as number}`, p);
        if (r.status !== 200) throw this.refusal('a policy update', r.status, r.json);
        undo.push({ what: `restore policy ${p['id'] as number}`, run: () => this.write('PUT', `/service/public/v2/api/policy/${p['id'] as number}`, before) });
      }
      for (const p of c.deleted) {
        const before = await this.current(p['id'] as number);
        const r = await this.call('DELETE', `/service/public/v2/api/policy/${p['id'] as number}`);
        if (r.status !== 204 && r.status !== 200) throw this.refusal('a policy delete', r.status, r.json);
        // Ranger gives a re-created policy a new id; its content is what counts
        const { id: _id, ...content } = before;
        undo.push({ what: `re-create policy ${p['id'] as number}`, run: () => this.write('POST', '/service/public/v2/api/policy', { ...content, service: this.o.serviceName }) });
      }
    } catch (e) {
      const failed: string[] = [];
      for (const step of undo.reverse()) {
        await step.run().catch(() => failed.push(step.what));
      }
      if (failed.length > 0 && e instanceof PolicyStoreError) {
        throw new PolicyStoreError(`${e.message}; writes made before it could not be undone (${failed.join(', ')}): check the service's policies`, e.kind, e.status);
      }
      throw e;
    }
  }

  /**
   * The service's access policies now; restoring compares them with Ranger's
   * then and deletes the ones created since, puts back the ones changed, and
   * re-creates the ones deleted (Ranger gives those a new id). Every step is
   * tried; the ones that fail are named.
   */
  async checkpoint(): Promise<Restore> {
    const then = await this.load();
    const same = (a: Json, b: Json) => JSON.stringify(content(a)) === JSON.stringify(content(b));
    return async () => {
      const now = await this.load();
      const before = new Map(then.map((p) => [p['id'], p]));
      const failed: string[] = [];
      const step = async (what: string, run: () => Promise<void>) => {
        await run().catch(() => failed.push(what));
      };
      for (const p of now) {
        const was = before.get(p['id']);
        if (!was) await step(`delete policy ${p['id'] as number}`, () => this.write('DELETE', `/service/public/v2/api/policy/${p['id'] as number}`));
        else if (!same(was, p)) await step(`restore policy ${p['id'] as number}`, () => this.write('PUT', `/service/public/v2/api/policy/${p['id'] as number}`, was));
      }
      const present = new Set(now.map((p) => p['id']));
      for (const p of then) {
        if (present.has(p['id'])) continue;
        const { id: _id, ...rest } = p;
        await step(`re-create policy ${p['id'] as number}`, () => this.write('POST', '/service/public/v2/api/policy', { ...rest, service: this.o.serviceName }));
      }
      if (failed.length > 0) throw new PolicyStoreError(`could not put back ${failed.join(', ')} in ${this.describe()}`, 'unavailable');
    };
  }

  /** A policy as Ranger holds it now, for an undo. */
  private async current(id: number): Promise<Json> {
    const r = await this.call('GET', `/service/public/v2/api/policy/${id}`);
    if (r.status !== 200 || r.json === null || typeof r.json !== 'object') throw this.refusal('a policy read', r.status, r.json);
    return r.json as Json;
  }

  private async write(method: string, path: string, body?: unknown): Promise<void> {
    const r = await this.call(method, path, body);
    if (r.status < 200 || r.status > 299) throw this.refusal(`an undo (${method} ${path})`, r.status, r.json);
  }

  async checkGrantee(g: Grantee): Promise<void> {
    const path =
      granteeField(g) === 'users'
        ? `/service/xusers/users/userName/${encodeURIComponent(g.name)}`
        : `/service/public/v2/api/roles/name/${encodeURIComponent(g.name)}`;
    const r = await this.call('GET', path);
    if (r.status === 200) return;
    if (r.status === 404 || r.status === 400) throw unknownGrantee(g);
    throw this.refusal('a grantee look-up', r.status, r.json);
  }

  /** Ranger's grant / revoke endpoint: Ranger merges, and decides whether the grantor may. */
  async grantRevoke(kind: 'grant' | 'revoke', c: GrantRevokeCall): Promise<void> {
    const field = granteeField(c.grantee);
    const body = {
      grantor: c.grantor,
      resource: c.resource,
      users: field === 'users' ? [c.grantee.name] : [],
      groups: [],
      roles: field === 'roles' ? [c.grantee.name] : [],
      accessTypes: [...c.accessTypes],
      delegateAdmin: c.delegateAdmin,
      enableAudit: true,
      replaceExistingPermissions: false,
      isRecursive: false,
      clientType: 'lakegate',
    };
    const r = await this.call('POST', `/service/plugins/secure/services/${kind}/${encodeURIComponent(this.o.serviceName)}`, body);
    // The HTTP status decides: statusCode has been seen 0 on a denial.
    if (r.status !== 200) throw this.refusal(`a ${kind}`, r.status, r.json);
  }
}
