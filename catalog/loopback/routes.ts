/**
 * The Iceberg REST routes the loopback endpoint serves (the paths after a
 * session's secret), each read into a typed request with its body checked by
 * zod. Namespaces arrive with levels joined by 0x1F (`%1F`), the separator the
 * endpoint advertises. Anything else is refused here, never passed on.
 */
import { z } from 'zod';
import { catalogErrors, CatalogError, type JsonObject, type Namespace, type TableIdent } from '../iceberg/api.js';

const Obj = z.record(z.string(), z.unknown());
const Ident = z.object({ namespace: z.array(z.string().min(1)).min(1), name: z.string().min(1) });
const CreateNamespaceBody = z.object({ namespace: z.array(z.string().min(1)).min(1), properties: z.record(z.string(), z.string()).nullish() });
const CreateTableBody = z.object({
  name: z.string().min(1),
  schema: Obj,
  location: z.string().nullish(),
  'partition-spec': Obj.nullish(),
  'write-order': Obj.nullish(),
  properties: z.record(z.string(), z.string()).nullish(),
  'stage-create': z.boolean().nullish(),
});
const CommitBody = z.object({ identifier: Ident.nullish(), requirements: z.array(Obj), updates: z.array(Obj) });
const TransactionBody = z.object({ 'table-changes': z.array(CommitBody.extend({ identifier: Ident })).min(1) });
const RenameBody = z.object({ source: Ident, destination: Ident });

export type Route =
  | { kind: 'config' }
  | { kind: 'list-namespaces'; parent: Namespace }
  | { kind: 'create-namespace'; namespace: Namespace; properties: Record<string, string> }
  | { kind: 'load-namespace'; namespace: Namespace; head: boolean }
  | { kind: 'drop-namespace'; namespace: Namespace }
  | { kind: 'list'; namespace: Namespace; what: 'tables' | 'views' }
  | { kind: 'create-table'; namespace: Namespace; body: z.output<typeof CreateTableBody> }
  | { kind: 'load-table'; table: TableIdent; head: boolean }
  | { kind: 'commit-table'; table: TableIdent; requirements: JsonObject[]; updates: JsonObject[] }
  | { kind: 'drop-table'; table: TableIdent; purge: boolean }
  | { kind: 'rename'; what: 'table' | 'view'; from: TableIdent; to: TableIdent }
  | { kind: 'commit-transaction'; changes: { table: TableIdent; requirements: JsonObject[]; updates: JsonObject[] }[] }
  | { kind: 'load-view'; view: TableIdent; head: boolean }
  | { kind: 'drop-view'; view: TableIdent }
  | { kind: 'metrics' };

/** What GET /v1/config advertises: every route below but the multi-table commit, so DuckDB commits table by table. */
export const ENDPOINTS = [
  'GET /v1/{prefix}/namespaces',
  'POST /v1/{prefix}/namespaces',
  'GET /v1/{prefix}/namespaces/{namespace}',
  'HEAD /v1/{prefix}/namespaces/{namespace}',
  'DELETE /v1/{prefix}/namespaces/{namespace}',
  'GET /v1/{prefix}/namespaces/{namespace}/tables',
  'POST /v1/{prefix}/namespaces/{namespace}/tables',
  'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics',
  'POST /v1/{prefix}/tables/rename',
  'GET /v1/{prefix}/namespaces/{namespace}/views',
  'GET /v1/{prefix}/namespaces/{namespace}/views/{view}',
  'HEAD /v1/{prefix}/namespaces/{namespace}/views/{view}',
  'DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}',
  'POST /v1/{prefix}/views/rename',
];

const notFound = () => new CatalogError('not-found', 'no such route', 404, 'NotFoundException');

function namespaceOf(segment: string): string[] {
  const levels = segment.split('\x1f');
  if (levels.some((l) => l === '')) throw catalogErrors.badRequest(`Invalid namespace: ${JSON.stringify(segment)}`);
  return levels;
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (!r.success) throw catalogErrors.badRequest(`Malformed request body: ${r.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
  return r.data;
}

/**
 * Routes one request. `segments` are the percent-decoded path segments after
 * the secret (`v1`, …); `body` the parsed JSON of a POST.
 */
export function route(method: string, segments: readonly string[], query: URLSearchParams, body: unknown): Route {
  if (segments[0] !== 'v1') throw notFound();
  const s = segments.slice(1);
  if (s.length === 1 && s[0] === 'config' && method === 'GET') return { kind: 'config' };
  if (s[0] === 'namespaces') {
    if (s.length === 1) {
      if (method === 'GET') {
        const parent = query.get('parent');
        return { kind: 'list-namespaces', parent: parent ? namespaceOf(parent) : [] };
      }
      if (method === 'POST') {
        const b = parse(CreateNamespaceBody, body);
        return { kind: 'create-namespace', namespace: b.namespace, properties: b.properties ?? {} };
      }
      throw notFound();
    }
    const namespace = namespaceOf(s[1]!);
    if (s.length === 2) {
      if (method === 'GET' || method === 'HEAD') return { kind: 'load-namespace', namespace, head: method === 'HEAD' };
      if (method === 'DELETE') return { kind: 'drop-namespace', namespace };
      throw notFound();
    }
    const what = s[2];
    if (what !== 'tables' && what !== 'views') throw notFound();
    if (s.length === 3) {
      if (method === 'GET') return { kind: 'list', namespace, what };
      if (method === 'POST' && what === 'tables') return { kind: 'create-table', namespace, body: parse(CreateTableBody, body) };
      throw notFound();
    }
    const ident = { namespace, name: s[3]! };
    if (ident.name === '') throw notFound();
    if (s.length === 5 && s[4] === 'metrics' && what === 'tables' && method === 'POST') return { kind: 'metrics' };
    if (s.length !== 4) throw notFound();
    if (what === 'views') {
      if (method === 'GET' || method === 'HEAD') return { kind: 'load-view', view: ident, head: method === 'HEAD' };
      if (method === 'DELETE') return { kind: 'drop-view', view: ident };
      throw notFound();
    }
    if (method === 'GET' || method === 'HEAD') return { kind: 'load-table', table: ident, head: method === 'HEAD' };
    if (method === 'DELETE') return { kind: 'drop-table', table: ident, purge: query.get('purgeRequested') === 'true' };
    if (method === 'POST') {
      const b = parse(CommitBody, body);
      if (b.identifier && (b.identifier.name !== ident.name || b.identifier.namespace.join('\x1f') !== namespace.join('\x1f'))) {
        throw catalogErrors.badRequest('the commit names another table than its path');
      }
      return { kind: 'commit-table', table: ident, requirements: b.requirements, updates: b.updates };
    }
    throw notFound();
  }
  if (s.length === 2 && (s[0] === 'tables' || s[0] === 'views') && s[1] === 'rename' && method === 'POST') {
    const b = parse(RenameBody, body);
    return { kind: 'rename', what: s[0] === 'tables' ? 'table' : 'view', from: b.source, to: b.destination };
  }
  if (s.length === 2 && s[0] === 'transactions' && s[1] === 'commit' && method === 'POST') {
    const b = parse(TransactionBody, body);
    return { kind: 'commit-transaction', changes: b['table-changes'].map((c) => ({ table: c.identifier, requirements: c.requirements, updates: c.updates })) };
  }
  throw notFound();
}
