/**
 * Decisions of one engine (one immutable policy bundle), remembered per request.
 * A session asks about the same tables again and again; the answer can only
 * change with the bundle, and a new bundle builds a new engine with an empty
 * cache. Requests whose answer may depend on anything outside the key — request
 * context, client addresses, explicit tags, or an engine with conditions or
 * validity schedules — are never cached (the engine decides that).
 */
import type { AccessRequest } from './request.js';

export class DecisionCache<V> {
  private readonly map = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      // Least-recently-used order: re-insert on a hit.
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!);
  }

  get size(): number {
    return this.map.size;
  }
}

/**
 * The key of a request whose decision depends only on what the key holds, or
 * null when the request carries something else a decision could read. Parts are
 * taken in the order given (no sorting): the same request written in another
 * order only misses the cache, it never shares a key with a different request.
 * The separators are NUL bytes, which no PostgreSQL identifier or user name holds.
 */
export function requestKey(req: AccessRequest): string | null {
  if (req.tags !== undefined || req.accessTime !== undefined) return null;
  if (req.clientIPAddress !== undefined || req.remoteIPAddress !== undefined || req.forwardedAddresses !== undefined) return null;
  if (req.context !== undefined) for (const _ in req.context) return null;
  if (req.clusterName !== undefined || req.clusterType !== undefined || req.requestData !== undefined) return null;
  let key = req.user + '\u0000' + req.accessType + '\u0000' + (req.ownerUser ?? '') + '\u0000' + (req.action ?? '') + '\u0000';
  key += (req.resourceMatchingScope ?? '') + '\u0000' + String(req.isDescendantDenyIgnored ?? '') + '\u0000';
  for (const g of req.userGroups) key += g + '\u0001';
  key += '\u0000';
  if (req.userRoles) for (const r of req.userRoles) key += r + '\u0001';
  else key += '-';
  key += '\u0000';
  const resource = req.resource;
  for (const name in resource) {
    const v = resource[name];
    key += name + '=' + (typeof v === 'string' ? v : v === undefined || v === null ? '\u0002' : JSON.stringify(v)) + '\u0001';
  }
  if (req.resourceElementMatchingScopes) key += '\u0000' + JSON.stringify(req.resourceElementMatchingScopes);
  if (req.allAccessTypes) key += '\u0000' + JSON.stringify(req.allAccessTypes);
  if (req.allAccessTypeGroups) key += '\u0000' + JSON.stringify(req.allAccessTypeGroups);
  return key;
}
