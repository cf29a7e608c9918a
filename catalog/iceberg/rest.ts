/**
 * Iceberg REST catalog client (reference/polaris-iceberg-keycloak.md §2),
 * every call with the calling user's bearer token: Polaris authorizes each
 * one as that user. Reads only. Idempotent GETs are retried with backoff on
 * network errors and 5xx, never on a 4xx (401/403/404 are answers). Every
 * response body is validated with zod after a lossless JSON parse.
 */
import pRetry from 'p-retry';
import { z } from 'zod';
import { CatalogError, type Caller, type IcebergCatalog, type LoadedTable, type LoadedView, type Namespace, type StorageCredential } from './api.js';
import { parseIcebergJson } from './json.js';
import { TableMetadataSchema, ViewMetadataSchema } from './metadata.js';

export interface RestCatalogOptions {
  /** e.g. http://polaris:8181/api/catalog */
  uri: string;
  warehouse: string;
  realm?: string | undefined;
  timeoutMs: number;
  retries: number;
  vendedCredentials: boolean;
  storageRoots: readonly string[];
  /** First delay between retries (ms). */
  retryMinDelayMs?: number;
}

const ConfigResponse = z.object({
  defaults: z.record(z.string(), z.string()).default({}),
  overrides: z.record(z.string(), z.string()).default({}),
});
const NamespacesResponse = z.object({ namespaces: z.array(z.array(z.string())), 'next-page-token': z.string().nullish() });
const NamespaceResponse = z.object({ namespace: z.array(z.string()), properties: z.record(z.string(), z.string()).nullish() });
const IdentifiersResponse = z.object({
  identifiers: z.array(z.object({ namespace: z.array(z.string()), name: z.string() })),
  'next-page-token': z.string().nullish(),
});
const Credentials = z.array(z.object({ prefix: z.string(), config: z.record(z.string(), z.string()) }));
const LoadTableResponse = z.object({
  'metadata-location': z.string().nullish(),
  metadata: TableMetadataSchema,
  config: z.record(z.string(), z.string()).nullish(),
  'storage-credentials': Credentials.nullish(),
});
const LoadViewResponse = z.object({ metadata: ViewMetadataSchema });
/** IcebergErrorResponse; a body that is not one (a proxy's page) is reported by status alone. */
const ErrorResponse = z.object({ error: z.object({ message: z.string(), type: z.string(), code: z.number().int() }) });

const KIND_BY_STATUS: Record<number, CatalogError['kind']> = { 401: 'unauthorized', 403: 'forbidden', 404: 'not-found', 419: 'unauthorized' };

class Retryable extends Error {}

export class RestCatalog implements IcebergCatalog {
  private config: Promise<{ prefix: string; separator: string }> | null = null;
  readonly storageRoots: readonly string[];

  constructor(private readonly opts: RestCatalogOptions) {
    this.storageRoots = opts.storageRoots;
  }

  close(): void {}

  private async request<T>(caller: Caller, path: string, schema: z.ZodType<T>, headers: Record<string, string> = {}, post?: unknown): Promise<T> {
    const url = `${this.opts.uri.replace(/\/+$/, '')}${path}`;
    const send = async () => {
      const h: Record<string, string> = { Accept: 'application/json', ...headers, ...(post !== undefined ? { 'Content-Type': 'application/json' } : {}) };
      const token = caller.token?.();
      if (token) h['Authorization'] = `Bearer ${token}`;
      if (this.opts.realm) h['Polaris-Realm'] = this.opts.realm;
      let res: Response;
      let text: string;
      try {
        res = await fetch(url, {
          headers: h,
          signal: AbortSignal.timeout(this.opts.timeoutMs),
          ...(post !== undefined ? { method: 'POST', body: JSON.stringify(post) } : {}),
        });
        text = await res.text();
      } catch (e) {
        throw new Retryable(`${(e as Error).name}: ${(e as Error).message}`);
      }
      if (res.status >= 500) throw new Retryable(`HTTP ${res.status}`);
      return { status: res.status, text };
    };
    let answer: { status: number; text: string };
    try {
      answer = await pRetry(send, {
        // A commit is not idempotent: never sent twice.
        retries: post !== undefined ? 0 : this.opts.retries,
        minTimeout: this.opts.retryMinDelayMs ?? 100,
        factor: 2,
        randomize: true,
        shouldRetry: ({ error }) => error instanceof Retryable,
      });
    } catch (e) {
      throw new CatalogError('unavailable', `catalog request failed: ${(e as Error).message}`);
    }
    let body: unknown;
    try {
      body = answer.text === '' ? undefined : parseIcebergJson(answer.text);
    } catch {
      body = undefined;
    }
    if (answer.status !== 200) {
      const err = ErrorResponse.safeParse(body);
      const message = err.success ? `${err.data.error.type}: ${err.data.error.message}` : `HTTP ${answer.status}`;
      throw new CatalogError(KIND_BY_STATUS[answer.status] ?? 'bad-response', message, answer.status);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new CatalogError('bad-response', `unexpected answer from ${path}: ${parsed.error.message}`, answer.status);
    return parsed.data;
  }

  /** GET /v1/config?warehouse=: the path prefix and namespace separator, fetched once. */
  private catalogConfig(caller: Caller): Promise<{ prefix: string; separator: string }> {
    if (!this.config) {
      const p = this.request(caller, `/v1/config?warehouse=${encodeURIComponent(this.opts.warehouse)}`, ConfigResponse).then((c) => {
        const get = (k: string) => c.overrides[k] ?? c.defaults[k];
        const sep = get('namespace-separator');
        return { prefix: get('prefix') ?? '', separator: sep ? decodeURIComponent(sep) : '\u001f' };
      });
      this.config = p;
      p.catch(() => {
        this.config = null;
      });
    }
    return this.config;
  }

  private async base(caller: Caller): Promise<{ root: string; ns: (n: Namespace) => string }> {
    const { prefix, separator } = await this.catalogConfig(caller);
    const root = prefix ? `/v1/${encodeURIComponent(prefix)}` : '/v1';
    return { root, ns: (n) => encodeURIComponent(n.join(separator)) };
  }

  /** Follows next-page-token until the listing ends. */
  private async pages<T>(first: string, fetchPage: (path: string) => Promise<{ items: T[]; next: string | null | undefined }>): Promise<T[]> {
    const out: T[] = [];
    let token: string | null | undefined;
    for (let page = 0; page < 10_000; page++) {
      const sep = first.includes('?') ? '&' : '?';
      const r = await fetchPage(token ? `${first}${sep}pageToken=${encodeURIComponent(token)}` : first);
      out.push(...r.items);
      if (!r.next) return out;
      token = r.next;
    }
    throw new CatalogError('bad-response', 'the catalog listing did not end');
  }

  async listNamespaces(caller: Caller, parent: Namespace): Promise<string[][]> {
    const { root, ns } = await this.base(caller);
    const first = parent.length > 0 ? `${root}/namespaces?parent=${ns(parent)}` : `${root}/namespaces`;
    return this.pages(first, async (path) => {
      const r = await this.request(caller, path, NamespacesResponse);
      return { items: r.namespaces, next: r['next-page-token'] };
    });
  }

  async loadNamespace(caller: Caller, n: Namespace): Promise<Record<string, string>> {
    const { root, ns } = await this.base(caller);
    return (await this.request(caller, `${root}/namespaces/${ns(n)}`, NamespaceResponse)).properties ?? {};
  }

  private async identifiers(caller: Caller, n: Namespace, kind: 'tables' | 'views'): Promise<string[]> {
    const { root, ns } = await this.base(caller);
    return this.pages(`${root}/namespaces/${ns(n)}/${kind}`, async (path) => {
      const r = await this.request(caller, path, IdentifiersResponse);
      return { items: r.identifiers.map((i) => i.name), next: r['next-page-token'] };
    });
  }

  listTables(caller: Caller, ns: Namespace): Promise<string[]> {
    return this.identifiers(caller, ns, 'tables');
  }

  listViews(caller: Caller, ns: Namespace): Promise<string[]> {
    return this.identifiers(caller, ns, 'views');
  }

  async loadTable(caller: Caller, n: Namespace, name: string): Promise<LoadedTable> {
    const { root, ns } = await this.base(caller);
    const headers: Record<string, string> = this.opts.vendedCredentials ? { 'X-Iceberg-Access-Delegation': 'vended-credentials' } : {};
    const r = await this.request(caller, `${root}/namespaces/${ns(n)}/tables/${encodeURIComponent(name)}`, LoadTableResponse, headers);
    const location = r['metadata-location'];
    if (!location) throw new CatalogError('bad-response', `table ${[...n, name].join('.')} has no metadata location (staged)`);
    const credentials: StorageCredential[] = r['storage-credentials'] ?? [];
    // Older servers vend in `config`, valid for the whole table.
    if (credentials.length === 0 && r.config && Object.keys(r.config).some((k) => k.startsWith('s3.'))) {
      credentials.push({ prefix: r.metadata.location, config: r.config });
    }
    return { metadataLocation: location, metadata: r.metadata, credentials };
  }

  /**
   * A table commit of property changes only (set-properties / remove-properties),
   * required to apply to the table as loaded (assert-table-uuid); the catalog
   * authorizes it as the caller (Polaris: table-properties-set / -remove).
   */
  async updateTableProperties(caller: Caller, n: Namespace, name: string, change: { updates: Record<string, string>; removals: string[] }, tableUuid: string): Promise<void> {
    const { root, ns } = await this.base(caller);
    const updates: unknown[] = [];
    if (Object.keys(change.updates).length > 0) updates.push({ action: 'set-properties', updates: change.updates });
    if (change.removals.length > 0) updates.push({ action: 'remove-properties', removals: change.removals });
    await this.request(caller, `${root}/namespaces/${ns(n)}/tables/${encodeURIComponent(name)}`, z.object({ 'metadata-location': z.string() }).passthrough(), {}, {
      requirements: [{ type: 'assert-table-uuid', uuid: tableUuid }],
      updates,
    });
  }

  async loadView(caller: Caller, n: Namespace, name: string): Promise<LoadedView> {
    const { root, ns } = await this.base(caller);
    const r = await this.request(caller, `${root}/namespaces/${ns(n)}/views/${encodeURIComponent(name)}`, LoadViewResponse);
    return { metadata: r.metadata };
  }
}
