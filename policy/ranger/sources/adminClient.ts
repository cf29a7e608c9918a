/**
 * Ranger Admin as a policy source: the plugin download endpoints (reference
 * ranger.md §10.1–10.4), always the `/secure` variants with HTTP Basic, because
 * the plain twins refuse a session-less call ("Unauthenticated access not
 * allowed") whatever credentials it carries.
 *
 * Each part (policies, roles, tags) is downloaded with the version this client
 * last accepted for it, so Ranger can answer 304. A part whose version the
 * caller does not hold is asked for in full (-1): "unchanged" is never claimed
 * for a set the caller does not have.
 *
 * The password is only ever put into the Authorization header; error messages
 * name the user, the endpoint path and the status, nothing else.
 */
import { hostname } from 'node:os';
import pRetry from 'p-retry';
import { z } from 'zod';
import {
  PolicyModelError,
  parseRangerRoles,
  parseServicePolicies,
  parseServiceTags,
  type RangerRoles,
  type ServicePolicies,
  type ServiceTags,
} from '../model.js';
import {
  PolicySourceError,
  versionsOf,
  type FetchResult,
  type KnownVersions,
  type PolicySource,
} from './source.js';

export const AdminClientConfigSchema = z.object({
  url: z
    .string()
    .url()
    // Credentials in the URL would end up in every message that names it.
    .refine((u) => {
      // A password with '#' or '/' makes the URL unparsable; look for userinfo by hand too.
      const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?]*)/i.exec(u)?.[1] ?? '';
      return !authority.includes('@');
    }, 'put the user and password in username/password, not in the URL'),
  serviceName: z.string().min(1),
  username: z.string().min(1),
  password: z.string(),
  timeoutMs: z.number().int().positive(),
  retries: z.number().int().min(0),
  /** First back-off delay; doubles per attempt. Small in tests. */
  retryMinDelayMs: z.number().int().min(0).default(250),
  pluginId: z.string().min(1).optional(),
  clusterName: z.string().optional(),
  tagService: z.boolean().default(false),
});
export type AdminClientConfig = z.input<typeof AdminClientConfigSchema>;

interface PartSpec<T> {
  path: (svc: string) => string;
  /** Ranger names the version parameter differently per endpoint. */
  versionParam: string;
  extraParams: Record<string, string>;
  parse: (json: unknown, source: string) => T;
  version: (t: T) => number | null;
}

const PARTS: { policies: PartSpec<ServicePolicies>; roles: PartSpec<RangerRoles>; tags: PartSpec<ServiceTags> } = {
  policies: {
    path: (svc) => `/service/plugins/secure/policies/download/${encodeURIComponent(svc)}`,
    versionParam: 'lastKnownVersion',
    extraParams: { supportsPolicyDeltas: 'false' },
    parse: parseServicePolicies,
    version: (p) => p.policyVersion ?? null,
  },
  roles: {
    path: (svc) => `/service/roles/secure/download/${encodeURIComponent(svc)}`,
    versionParam: 'lastKnownRoleVersion',
    extraParams: {},
    parse: parseRangerRoles,
    version: (r) => r.roleVersion ?? null,
  },
  tags: {
    path: (svc) => `/service/tags/secure/download/${encodeURIComponent(svc)}`,
    versionParam: 'lastKnownVersion',
    extraParams: { supportsTagDeltas: 'false' },
    parse: parseServiceTags,
    version: (t) => t.tagVersion ?? null,
  },
};

interface Held<T> {
  value: T;
  version: number | null;
  /** Sent back as lastActivationTime: when this client last took a new download of the part. */
  activatedAt: number;
}

type Download<T> = { changed: false } | { changed: true; value: T };

function heldPart<T>(spec: PartSpec<T>, value: T, now: number): Held<T> {
  return { value, version: spec.version(value), activatedAt: now };
}

export class RangerAdminClient implements PolicySource {
  // #private: a logged or serialised client object shows neither the password nor the header.
  readonly #cfg: z.output<typeof AdminClientConfigSchema>;
  private readonly base: URL;
  readonly #authHeader: string;
  private readonly pluginId: string;
  private held: { policies?: Held<ServicePolicies>; roles?: Held<RangerRoles>; tags?: Held<ServiceTags> } = {};

  constructor(config: AdminClientConfig) {
    const parsed = AdminClientConfigSchema.safeParse(config);
    if (!parsed.success) {
      // zod echoes offending values; name only the fields so a password never shows.
      const fields = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
      throw new PolicySourceError('refused', `invalid Ranger Admin client config: ${fields}`);
    }
    this.#cfg = parsed.data;
    this.base = new URL(this.#cfg.url.endsWith('/') ? this.#cfg.url : `${this.#cfg.url}/`);
    this.#authHeader = `Basic ${Buffer.from(`${this.#cfg.username}:${this.#cfg.password}`).toString('base64')}`;
    // Ranger's own plugins send appId@host-serviceName.
    this.pluginId = this.#cfg.pluginId ?? `lakegate@${hostname()}-${this.#cfg.serviceName}`;
  }

  describe(): string {
    return `Ranger Admin ${this.base.origin} service ${this.#cfg.serviceName} as ${this.#cfg.username}`;
  }

  async fetch(known: KnownVersions | null, signal?: AbortSignal): Promise<FetchResult> {
    const policies = await this.download(PARTS.policies, this.held.policies, known?.policyVersion ?? null, signal);
    const roles = await this.download(PARTS.roles, this.held.roles, known?.roleVersion ?? null, signal);
    const tags = this.#cfg.tagService
      ? await this.download(PARTS.tags, this.held.tags, known?.tagVersion ?? null, signal)
      : null;

    if (!policies.changed && !roles.changed && (tags === null || !tags.changed)) return { changed: false };

    // Only now, with every part in hand, does the client adopt the new parts: a
    // fetch that fails half-way leaves nothing half-updated behind.
    const now = Date.now();
    if (policies.changed) this.held.policies = heldPart(PARTS.policies, policies.value, now);
    if (roles.changed) this.held.roles = heldPart(PARTS.roles, roles.value, now);
    if (tags?.changed) this.held.tags = heldPart(PARTS.tags, tags.value, now);

    const parts = {
      policies: this.held.policies!.value,
      roles: this.held.roles!.value,
      tags: this.#cfg.tagService ? this.held.tags!.value : null,
      userStore: null,
    };
    return { changed: true, snapshot: { ...parts, versions: versionsOf(parts) } };
  }

  private async download<T>(
    spec: PartSpec<T>,
    held: Held<T> | undefined,
    knownVersion: number | null,
    signal: AbortSignal | undefined,
  ): Promise<Download<T>> {
    // Ask for "changes since" only for a version we can hand back if Ranger says 304.
    const since = held !== undefined && knownVersion !== null && held.version === knownVersion ? knownVersion : -1;

    const url = new URL(spec.path(this.#cfg.serviceName).slice(1), this.base);
    url.searchParams.set(spec.versionParam, String(since));
    url.searchParams.set('lastActivationTime', String(held?.activatedAt ?? 0));
    url.searchParams.set('pluginId', this.pluginId);
    if (this.#cfg.clusterName !== undefined) url.searchParams.set('clusterName', this.#cfg.clusterName);
    for (const [k, v] of Object.entries(spec.extraParams)) url.searchParams.set(k, v);

    const endpoint = url.pathname;
    const response = await pRetry(() => this.get(url, endpoint, signal), {
      retries: this.#cfg.retries,
      minTimeout: this.#cfg.retryMinDelayMs,
      factor: 2,
      randomize: true,
      ...(signal ? { signal } : {}),
      shouldRetry: ({ error }) => error instanceof PolicySourceError && error.retryable,
    });

    if (response.status === 304 || response.status === 204) {
      // 304 against -1 cannot happen with a sane server; treat it as a broken answer.
      if (since === -1) {
        throw new PolicySourceError('malformed', `${this.at(endpoint)} answered ${response.status} to a full download`, {
          status: response.status,
        });
      }
      return { changed: false };
    }

    let json: unknown;
    try {
      json = JSON.parse(response.body);
    } catch (e) {
      throw new PolicySourceError('malformed', `${this.at(endpoint)} returned a body that is not JSON: ${(e as Error).message}`, {
        status: response.status,
        cause: e,
      });
    }
    try {
      return { changed: true, value: spec.parse(json, this.at(endpoint)) };
    } catch (e) {
      if (e instanceof PolicyModelError) {
        throw new PolicySourceError('malformed', e.message, { status: response.status, jsonPath: e.path, cause: e });
      }
      throw e;
    }
  }

  /** One HTTP attempt: returns 200/204/304 with the body, throws a classified error otherwise. */
  private async get(url: URL, endpoint: string, outer: AbortSignal | undefined): Promise<{ status: number; body: string }> {
    const timeout = AbortSignal.timeout(this.#cfg.timeoutMs);
    const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
    let res: Response;
    let body: string;
    try {
      res = await fetch(url, {
        headers: { Authorization: this.#authHeader, Accept: 'application/json' },
        signal,
        redirect: 'error',
      });
      body = await res.text();
    } catch (e) {
      if (timeout.aborted) {
        // A slow server gets no second helping inside this fetch: the next poll is the retry.
        throw new PolicySourceError('timeout', `${this.at(endpoint)} did not answer within ${this.#cfg.timeoutMs} ms`, {
          cause: e,
        });
      }
      if (outer?.aborted) throw e;
      throw new PolicySourceError('unreachable', `${this.at(endpoint)} unreachable: ${networkReason(e)}`, {
        retryable: true,
        cause: e,
      });
    }

    const s = res.status;
    if (s === 200 || s === 204 || s === 304) return { status: s, body };
    const said = rangerMessage(body);
    if (s === 401 || s === 403) {
      throw new PolicySourceError(
        'auth',
        `${this.at(endpoint)} refused user "${this.#cfg.username}" (HTTP ${s}${said ? `: ${said}` : ''})`,
        { status: s },
      );
    }
    if (s === 404) {
      throw new PolicySourceError(
        'not-found',
        `service not found: Ranger Admin ${this.base.origin} has no service "${this.#cfg.serviceName}" (HTTP 404 from ${endpoint})`,
        { status: s },
      );
    }
    if (s >= 500) {
      throw new PolicySourceError('server', `${this.at(endpoint)} failed with HTTP ${s}${said ? `: ${said}` : ''}`, {
        status: s,
        retryable: true,
      });
    }
    throw new PolicySourceError('refused', `${this.at(endpoint)} refused the request with HTTP ${s}${said ? `: ${said}` : ''}`, {
      status: s,
    });
  }

  private at(endpoint: string): string {
    return `Ranger Admin ${this.base.origin}${endpoint}`;
  }
}

/** Ranger errors are VXResponse / RESTResponse JSON with a `msgDesc`. */
function rangerMessage(body: string): string {
  let text = body;
  try {
    const j = JSON.parse(body) as { msgDesc?: unknown };
    if (typeof j?.msgDesc === 'string') text = j.msgDesc;
  } catch {
    // Not JSON (a proxy's HTML page, say): keep the start of the text.
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function networkReason(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return cause.message ? `${cause.code} (${cause.message})` : cause.code;
  return e instanceof Error ? e.message : String(e);
}
