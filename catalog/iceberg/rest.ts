/**
 * Iceberg REST catalog client (reference/polaris-iceberg-keycloak.md §2),
 * every call with the calling user's bearer token: Polaris authorizes each
 * one as that user. Writes are renewed once after a 401 (the catalog refused
 * the token before doing anything) and never retried otherwise. Idempotent GETs are retried with backoff on
 * network errors and 5xx, never on a 4xx (401/403/404 are answers). Every
 * response body is validated with zod after a lossless JSON parse.
 */
import pRetry from 'p-retry';
import { z } from 'zod';
import { randomBytes } from 'node:crypto';
import {
  CatalogError,
  renewingOnce,
  type Caller,
  type CommittedTable,
  type CreatedTable,
  type CreateTableRequest,
  type IcebergCatalog,
  type IcebergCatalogWriter,
  type JsonObject,
  type LoadedTable,
  type LoadedView,
  type Namespace,
  type StorageCredential,
  type TableCommit,
  type TableIdent,
  type ViewDefinition,
} from './api.js';
import { newViewMetadata, replaceViewCommit } from './newMetadata.js';
import { parseIcebergJson, stringifyIcebergJsonCompact } from './json.js';
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
const LoadViewResponse = z.object({ 'metadata-location': z.string().nullish(), metadata: ViewMetadataSchema });
const CommitResponse = z.object({ 'metadata-location': z.string(), metadata: TableMetadataSchema });
/** IcebergErrorResponse; a body that is not one (a proxy's page) is reported by status alone. */
const ErrorResponse = z.object({ error: z.object({ message: z.string(), type: z.string(), code: z.number().int() }) });

const KIND_BY_STATUS: Record<number, CatalogError['kind']> = {
  400: 'bad-request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  406: 'unsupported',
  409: 'conflict',
  419: 'unauthorized',
};

class Retryable extends Error {}

export class RestCatalog implements IcebergCatalog, IcebergCatalogWriter {
  private config: Promise<{ prefix: string; separator: string }> | null = null;
  readonly storageRoots: readonly string[];

  constructor(private readonly opts: RestCatalogOptions) {
    this.storageRoots = opts.storageRoots;
  }

  close(): void {}

  private async request<T>(caller: Caller, path: string, schema: z.ZodType<T>, headers: Record<string, string> = {}, post?: unknown): Promise<T> {
    return (await this.call(caller, post === undefined ? 'GET' : 'POST', path, schema, { headers, body: post })).data;
  }

  /**
   * One catalog call. GETs are retried on network errors and 5xx; nothing
   * else is ever sent twice (a commit is not idempotent). An answer other than
   * 200/204 is a CatalogError with the status, kind and Iceberg error type.
   */
  private async call<T>(
    caller: Caller,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    schema: z.ZodType<T>,
    opts: { headers?: Record<string, string>; body?: unknown } = {},
  ): Promise<{ data: T; body: unknown }> {
    const url = `${this.opts.uri.replace(/\/+$/, '')}${path}`;
    const payload = opts.body === undefined ? undefined : stringifyIcebergJsonCompact(opts.body);
    const send = async () => {
      const h: Record<string, string> = { Accept: 'application/json', ...(opts.headers ?? {}), ...(payload !== undefined ? { 'Content-Type': 'application/json' } : {}) };
      const token = caller.token?.();
      if (token) h['Authorization'] = `Bearer ${token}`;
      if (this.opts.realm) h['Polaris-Realm'] = this.opts.realm;
      let res: Response;
      let text: string;
      try {
        res = await fetch(url, {
          method,
          headers: h,
          signal: AbortSignal.timeout(this.opts.timeoutMs),
          ...(payload !== undefined ? { body: payload } : {}),
        });
        text = await res.text();
      } catch (e) {
        throw new Retryable(`${(e as Error).name}: ${(e as Error).message}`);
      }
      if (res.status >= 500 && method === 'GET') throw new Retryable(`HTTP ${res.status}`);
      return { status: res.status, text };
    };
    let answer: { status: number; text: string };
    try {
      answer = await pRetry(send, {
        retries: method === 'GET' ? this.opts.retries : 0,
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
    if (answer.status !== 200 && answer.status !== 204) {
      const err = ErrorResponse.safeParse(body);
      const message = err.success ? `${err.data.error.type}: ${err.data.error.message}` : `HTTP ${answer.status}`;
      const kind = KIND_BY_STATUS[answer.status] ?? (answer.status >= 500 ? 'unavailable' : 'bad-response');
      throw new CatalogError(kind, message, answer.status, err.success ? err.data.error.type : undefined);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new CatalogError('bad-response', `unexpected answer from ${path}: ${parsed.error.message}`, answer.status);
    return { data: parsed.data, body };
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

  private delegation(): Record<string, string> {
    return this.opts.vendedCredentials ? { 'X-Iceberg-Access-Delegation': 'vended-credentials' } : {};
  }

  async loadTable(caller: Caller, n: Namespace, name: string): Promise<LoadedTable> {
    const { root, ns } = await this.base(caller);
    const { data: r, body } = await this.call(caller, 'GET', `${root}/namespaces/${ns(n)}/tables/${encodeURIComponent(name)}`, LoadTableResponse, { headers: this.delegation() });
    const location = r['metadata-location'];
    if (!location) throw new CatalogError('bad-response', `table ${[...n, name].join('.')} has no metadata location (staged)`);
    return { metadataLocation: location, metadata: r.metadata, credentials: credentialsOf(r), raw: (body as JsonObject)['metadata'] as JsonObject };
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
    const { data: r, body } = await this.call(caller, 'GET', `${root}/namespaces/${ns(n)}/views/${encodeURIComponent(name)}`, LoadViewResponse);
    return { metadata: r.metadata, raw: (body as JsonObject)['metadata'] as JsonObject, ...(r['metadata-location'] ? { metadataLocation: r['metadata-location'] } : {}) };
  }

  // ------------------------------------------------------------ writes (each renewed once after a 401)

  private async write<T>(caller: Caller, method: 'POST' | 'DELETE', path: (root: string, ns: (n: Namespace) => string) => string, schema: z.ZodType<T>, opts: { headers?: Record<string, string>; body?: unknown } = {}) {
    return renewingOnce(caller, async () => {
      const { root, ns } = await this.base(caller);
      return this.call(caller, method, path(root, ns), schema, opts);
    });
  }

  async createNamespace(caller: Caller, namespace: Namespace, properties: Record<string, string> = {}): Promise<Record<string, string>> {
    const { data } = await this.write(caller, 'POST', (root) => `${root}/namespaces`, NamespaceResponse, { body: { namespace, properties } });
    return data.properties ?? {};
  }

  async dropNamespace(caller: Caller, namespace: Namespace): Promise<void> {
    await this.write(caller, 'DELETE', (root, ns) => `${root}/namespaces/${ns(namespace)}`, z.unknown());
  }

  /**
   * Without a location in the request, the table gets the catalog's default
   * location for it with a random suffix: a staged create (which registers
   * nothing) tells the default, so a table created after a rename never lands
   * in the renamed table's folder.
   */
  async createTable(caller: Caller, namespace: Namespace, req: CreateTableRequest): Promise<CreatedTable> {
    const path = (root: string, ns: (n: Namespace) => string) => `${root}/namespaces/${ns(namespace)}/tables`;
    const body: JsonObject = { name: req.name, schema: req.schema };
    if (req.partitionSpec) body['partition-spec'] = req.partitionSpec;
    if (req.writeOrder) body['write-order'] = req.writeOrder;
    if (req.properties) body['properties'] = req.properties;
    let location = req.location;
    if (location === undefined) {
      const probe = await this.write(caller, 'POST', path, LoadTableResponse, { body: { ...body, 'stage-create': true } });
      location = `${probe.data.metadata.location.replace(/\/+$/, '')}-${randomBytes(6).toString('hex')}`;
    }
    const { data, body: raw } = await this.write(caller, 'POST', path, LoadTableResponse, {
      headers: this.delegation(),
      body: { ...body, location, 'stage-create': req.stageCreate === true },
    });
    return { metadataLocation: data['metadata-location'] ?? null, metadata: (raw as JsonObject)['metadata'] as JsonObject, credentials: credentialsOf(data) };
  }

  async commitTable(caller: Caller, namespace: Namespace, name: string, commit: TableCommit): Promise<CommittedTable> {
    const { data, body } = await this.write(caller, 'POST', (root, ns) => `${root}/namespaces/${ns(namespace)}/tables/${encodeURIComponent(name)}`, CommitResponse, {
      body: { identifier: { namespace, name }, requirements: commit.requirements, updates: commit.updates },
    });
    return { metadataLocation: data['metadata-location'], metadata: (body as JsonObject)['metadata'] as JsonObject };
  }

  async renameTable(caller: Caller, from: TableIdent, to: TableIdent): Promise<void> {
    await this.write(caller, 'POST', (root) => `${root}/tables/rename`, z.unknown(), { body: { source: from, destination: to } });
  }

  async dropTable(caller: Caller, namespace: Namespace, name: string, opts: { purge: boolean }): Promise<void> {
    await this.write(caller, 'DELETE', (root, ns) => `${root}/namespaces/${ns(namespace)}/tables/${encodeURIComponent(name)}?purgeRequested=${opts.purge}`, z.unknown());
  }

  async createView(caller: Caller, namespace: Namespace, name: string, view: ViewDefinition): Promise<LoadedView> {
    const now = Date.now();
    const meta = newViewMetadata(view, { uuid: '', location: '', now });
    const { data, body } = await this.write(caller, 'POST', (root, ns) => `${root}/namespaces/${ns(namespace)}/views`, LoadViewResponse, {
      body: { name, schema: (meta['schemas'] as JsonObject[])[0], 'view-version': (meta['versions'] as JsonObject[])[0], properties: meta['properties'] },
    });
    return { metadata: data.metadata, raw: (body as JsonObject)['metadata'] as JsonObject, ...(data['metadata-location'] ? { metadataLocation: data['metadata-location'] } : {}) };
  }

  async replaceView(caller: Caller, namespace: Namespace, name: string, view: ViewDefinition): Promise<LoadedView> {
    const current = await renewingOnce(caller, () => this.loadView(caller, namespace, name));
    const { data, body } = await this.write(caller, 'POST', (root, ns) => `${root}/namespaces/${ns(namespace)}/views/${encodeURIComponent(name)}`, LoadViewResponse, {
      body: replaceViewCommit(current.raw ?? {}, view, Date.now()),
    });
    return { metadata: data.metadata, raw: (body as JsonObject)['metadata'] as JsonObject, ...(data['metadata-location'] ? { metadataLocation: data['metadata-location'] } : {}) };
  }

  async renameView(caller: Caller, from: TableIdent, to: TableIdent): Promise<void> {
    await this.write(caller, 'POST', (root) => `${root}/views/rename`, z.unknown(), { body: { source: from, destination: to } });
  }

  async dropView(caller: Caller, namespace: Namespace, name: string): Promise<void> {
    await this.write(caller, 'DELETE', (root, ns) => `${root}/namespaces/${ns(namespace)}/views/${encodeURIComponent(name)}`, z.unknown());
  }
}

/** Vended credentials: `storage-credentials`, or (older servers) s3.* keys in `config`, valid for the whole table. */
function credentialsOf(r: { metadata: { location: string }; config?: Record<string, string> | null | undefined; 'storage-credentials'?: StorageCredential[] | null | undefined }): StorageCredential[] {
  const credentials: StorageCredential[] = [...(r['storage-credentials'] ?? [])];
  if (credentials.length === 0 && r.config && Object.keys(r.config).some((k) => k.startsWith('s3.'))) credentials.push({ prefix: r.metadata.location, config: r.config });
  return credentials;
}
