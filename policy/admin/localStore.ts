/**
 * The embedded mode's policy files as a policy store: `<service>.json`
 * (ServicePolicies) next to `<service>_roles.json`, the same folder
 * LocalPolicySource reads. A change rewrites the policies file whole (a
 * temporary file renamed over it, so a reader never sees half a file), with
 * new policy ids and the policy version bumped as Ranger Admin bumps it.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Json } from './merge.js';
import { PolicyStoreError, unknownGrantee, type PolicyChanges, type PolicyStore, type Restore } from './store.js';
import type { Grantee } from './statement.js';

export interface LocalStoreOptions {
  /** The folder LocalPolicySource reads. */
  folder: string;
  serviceName: string;
  /** Whether a user exists (the users file, or Keycloak); absent: any user name is accepted. */
  userExists?: (name: string) => boolean;
}

export class LocalPolicyFileStore implements PolicyStore {
  constructor(private readonly opts: LocalStoreOptions) {}

  private get file(): string {
    return join(this.opts.folder, `${this.opts.serviceName}.json`);
  }

  describe(): string {
    return `policy files in ${this.opts.folder}`;
  }

  private async readDoc(): Promise<Json> {
    try {
      return JSON.parse(await readFile(this.file, 'utf8')) as Json;
    } catch (e) {
      throw new PolicyStoreError(`cannot read ${this.file}: ${(e as Error).message}`, 'unavailable');
    }
  }

  async load(): Promise<Json[]> {
    const doc = await this.readDoc();
    return structuredClone(((doc['policies'] as Json[] | undefined) ?? []).filter((p) => (p['policyType'] ?? 0) === 0));
  }

  async commit(c: PolicyChanges): Promise<void> {
    const doc = await this.readDoc();
    const others = ((doc['policies'] as Json[] | undefined) ?? []).filter((p) => (p['policyType'] ?? 0) !== 0);
    let nextId = Math.max(0, ...[...others, ...c.all].map((p) => (typeof p['id'] === 'number' ? p['id'] : 0))) + 1;
    const service = (doc['serviceName'] as string | undefined) ?? this.opts.serviceName;
    for (const p of c.created) {
      p['id'] = nextId++;
      p['service'] = service;
      p['version'] = 1;
    }
    for (const p of c.updated) p['version'] = ((p['version'] as number | undefined) ?? 1) + 1;
    const deleted = new Set(c.deleted);
    await this.writeDoc(doc, [...c.all.filter((p) => !deleted.has(p)), ...others]);
  }

  /** The access policies now; restoring writes them back (ids kept), the other policies as they are then, the version bumped. */
  async checkpoint(): Promise<Restore> {
    const then = await this.load();
    return async () => {
      const doc = await this.readDoc();
      const others = ((doc['policies'] as Json[] | undefined) ?? []).filter((p) => (p['policyType'] ?? 0) !== 0);
      await this.writeDoc(doc, [...then, ...others]);
    };
  }

  /** The document with these policies, its version bumped as Ranger Admin bumps it, written whole (a reader never sees half a file). */
  private async writeDoc(doc: Json, policies: Json[]): Promise<void> {
    doc['policies'] = [...policies].sort((a, b) => (a['id'] as number) - (b['id'] as number));
    doc['policyVersion'] = ((doc['policyVersion'] as number | undefined) ?? 0) + 1;
    doc['policyUpdateTime'] = Date.now();
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      await writeFile(tmp, JSON.stringify(doc, null, 2));
      await rename(tmp, this.file);
    } catch (e) {
      throw new PolicyStoreError(`cannot write ${this.file}: ${(e as Error).message}`, 'unavailable');
    }
  }

  async checkGrantee(g: Grantee): Promise<void> {
    if (g.type === 'USER') {
      if (this.opts.userExists && !this.opts.userExists(g.name)) throw unknownGrantee(g);
      return;
    }
    let roles: { name?: string }[] = [];
    try {
      const doc = JSON.parse(await readFile(join(this.opts.folder, `${this.opts.serviceName}_roles.json`), 'utf8')) as Json;
      roles = (doc['rangerRoles'] as { name?: string }[] | undefined) ?? [];
    } catch {
      roles = [];
    }
    if (!roles.some((r) => r.name === g.name)) throw unknownGrantee(g);
  }
}
