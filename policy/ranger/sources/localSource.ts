/**
 * Policies from local files, for the embedded mode: the same JSON Ranger Admin
 * serves, either one ServicePolicies file or a folder laid out like a Ranger
 * plugin's policy cache / the authz-embedded test folders:
 *
 *   <base>.json            ServicePolicies (required)
 *   <base>_roles.json      RangerRoles     (optional: no roles)
 *   <base>_tag.json        ServiceTags     (optional: no tag service)
 *   <base>_userstore.json  UserStore       (optional)
 *
 * where <base> is the service name, or `<appId>_<serviceName>` as Java plugins
 * name their cache files (admin.client fixtures: hiveServer2_dev_hive.json).
 *
 * "Unchanged" needs both: no file's mtime or size moved, and the caller holds
 * the versions this source last read. A hand edit that forgets to bump
 * policyVersion is still picked up, because its mtime moved.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { PolicyModelError, parseRangerRoles, parseServicePolicies, parseServiceTags, parseUserStore } from '../model.js';
import {
  PolicySourceError,
  sameKnownVersions,
  versionsOf,
  type FetchResult,
  type KnownVersions,
  type PolicySnapshot,
  type PolicySource,
} from './source.js';

export const LocalSourceConfigSchema = z.object({
  /** A ServicePolicies JSON file, or a folder holding the files above. */
  path: z.string().min(1),
  /** Required for a folder: names the files in it. */
  serviceName: z.string().min(1).optional(),
  /** Prefix of Java plugin cache files: `<appId>_<serviceName>.json`. */
  appId: z.string().min(1).optional(),
});
export type LocalSourceConfig = z.input<typeof LocalSourceConfigSchema>;

interface Layout {
  policies: string;
  roles: string | null;
  tags: string | null;
  userStore: string | null;
}

export class LocalPolicySource implements PolicySource {
  private readonly cfg: z.output<typeof LocalSourceConfigSchema>;
  private held: { fingerprint: string; snapshot: PolicySnapshot } | null = null;

  constructor(config: LocalSourceConfig) {
    this.cfg = LocalSourceConfigSchema.parse(config);
  }

  describe(): string {
    return `policy files at ${this.cfg.path}`;
  }

  async fetch(known: KnownVersions | null, signal?: AbortSignal): Promise<FetchResult> {
    const layout = await this.layout();
    const fingerprint = await this.fingerprint(layout);
    if (this.held && this.held.fingerprint === fingerprint && sameKnownVersions(known, this.held.snapshot.versions)) {
      return { changed: false };
    }
    signal?.throwIfAborted();
    const parts = await readParts(layout, signal).catch((e: unknown) => {
      throw asSourceError(e);
    });
    const snapshot: PolicySnapshot = { ...parts, versions: versionsOf(parts) };
    this.held = { fingerprint, snapshot };
    return { changed: true, snapshot };
  }

  /** Which files make up the set right now (optional ones only when present). */
  private async layout(): Promise<Layout> {
    const st = await statOrNull(this.cfg.path);
    if (st === null) throw new PolicySourceError('io', `policy path ${this.cfg.path} does not exist`);
    if (st.isFile()) return { policies: this.cfg.path, roles: null, tags: null, userStore: null };
    if (!st.isDirectory()) throw new PolicySourceError('io', `policy path ${this.cfg.path} is neither a file nor a folder`);
    if (this.cfg.serviceName === undefined) {
      throw new PolicySourceError('io', `policy folder ${this.cfg.path} needs a serviceName to know which files to read`);
    }
    const base = join(this.cfg.path, this.cfg.appId ? `${this.cfg.appId}_${this.cfg.serviceName}` : this.cfg.serviceName);
    const policies = `${base}.json`;
    if (!(await statOrNull(policies))?.isFile()) {
      throw new PolicySourceError('io', `policy file ${policies} does not exist`);
    }
    const optional = async (suffix: string) => ((await statOrNull(`${base}${suffix}`))?.isFile() ? `${base}${suffix}` : null);
    return {
      policies,
      roles: await optional('_roles.json'),
      tags: await optional('_tag.json'),
      userStore: await optional('_userstore.json'),
    };
  }

  private async fingerprint(l: Layout): Promise<string> {
    const files = [l.policies, l.roles, l.tags, l.userStore];
    const parts = await Promise.all(
      files.map(async (f) => {
        if (f === null) return '-';
        const s = await statOrNull(f);
        return s ? `${f}:${s.mtimeMs}:${s.size}` : `${f}:gone`;
      }),
    );
    return parts.join('|');
  }
}

async function statOrNull(path: string) {
  try {
    return await stat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new PolicySourceError('io', `cannot read ${path}: ${(e as Error).message}`, { cause: e });
  }
}

async function readJson(path: string, signal: AbortSignal | undefined): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, signal ? { encoding: 'utf8', signal } : { encoding: 'utf8' });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new PolicySourceError('io', `cannot read ${path}: ${(e as Error).message}`, { cause: e });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new PolicySourceError('malformed', `${path} is not JSON: ${(e as Error).message}`, { cause: e });
  }
}

async function readParts(l: Layout, signal: AbortSignal | undefined) {
  return {
    policies: parseServicePolicies(await readJson(l.policies, signal), l.policies),
    roles: l.roles ? parseRangerRoles(await readJson(l.roles, signal), l.roles) : parseRangerRoles({ rangerRoles: [] }, 'no roles file'),
    tags: l.tags ? parseServiceTags(await readJson(l.tags, signal), l.tags) : null,
    userStore: l.userStore ? parseUserStore(await readJson(l.userStore, signal), l.userStore) : null,
  };
}

/** The model's refusal, as a PolicySourceError keeping its JSON path. */
function asSourceError(e: unknown): unknown {
  return e instanceof PolicyModelError ? new PolicySourceError('malformed', e.message, { jsonPath: e.path, cause: e }) : e;
}
