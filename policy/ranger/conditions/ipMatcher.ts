/**
 * The `ip-range` condition (RangerIpMatcher), re-derived:
 *  - no values, a `*`, or an all-wildcard value (`*.*`, `*:*`) → matches every request;
 *  - trailing wildcards are dropped and the rest is a prefix (`10.1.*` → `10.1.`); a wildcard
 *    elsewhere stays a literal character (`1.*.1.*` only matches addresses starting `1.*.1.`);
 *  - anything else must equal the address (IPv6 compared lower-cased);
 *  - a request without an address matches (Ranger: "implicitly matched").
 * Extension: a CIDR value (`10.0.0.0/8`, `fd00::/8`) matches the addresses in that block; in
 * Ranger such a value is a literal that matches nothing.
 *
 * The address tested is `clientIPAddress`; when the context has none it is derived as Ranger's
 * request preprocessing does: remote address (else client), replaced by the first forwarded
 * address when forwarded addresses are trusted and the remote address is a trusted proxy (or no
 * proxy list is configured).
 */
import { isIP } from 'node:net';

import type { ConditionContext, ConditionTest } from './context.js';

export interface IpOptions {
  forwardedAddressesTrusted: boolean;
  trustedProxies: readonly string[];
}

export function effectiveClientIp(ctx: ConditionContext, options?: IpOptions): string | undefined {
  if (ctx.clientIPAddress) return ctx.clientIPAddress;
  const direct = ctx.remoteIPAddress ?? ctx.clientIPAddress;
  const forwarded = ctx.forwardedAddresses ?? [];
  if (!options?.forwardedAddressesTrusted || forwarded.length === 0) return direct;
  const proxies = options.trustedProxies.map((p) => p.trim()).filter((p) => p !== '');
  if (proxies.length === 0) return forwarded[0];
  return direct !== undefined && direct !== '' && proxies.includes(direct) ? forwarded[0] : direct;
}

const ALL_WILDCARDS = /^((\*(\.\*)*)|(\*(:\*)*))$/;

export function ipRangeConditionTest(values: readonly string[] | null | undefined, options?: IpOptions): ConditionTest {
  const list = values ?? [];
  if (list.length === 0 || list.includes('*')) return () => true;
  const exact: string[] = [];
  const prefixes: string[] = [];
  const blocks: Array<(ip: string) => boolean> = [];
  for (const value of list) {
    if (ALL_WILDCARDS.test(value)) return () => true;
    const cidr = cidrMatcher(value);
    if (cidr) {
      blocks.push(cidr);
      continue;
    }
    const digested = value.includes('.') ? value.replace(/(\.\*)+$/, '.') : value.replace(/(:\*)+$/, ':').toLowerCase();
    if (digested === value) exact.push(value);
    else prefixes.push(digested);
  }
  return (ctx) => {
    const ip = effectiveClientIp(ctx, options);
    if (ip === undefined || ip === null) return true;
    const isV4 = ip.includes('.');
    const probe = isV4 ? ip : ip.toLowerCase();
    if (prefixes.some((p) => probe.startsWith(p))) return true;
    if (exact.includes(probe)) return true;
    return blocks.some((b) => b(ip));
  };
}

/** A matcher for `addr/len`, or undefined when the value is not CIDR notation. */
function cidrMatcher(value: string): ((ip: string) => boolean) | undefined {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(value.trim());
  if (!m) return undefined;
  const base = toBits(m[1]!);
  const len = Number(m[2]);
  if (!base || len > base.length) return undefined;
  return (ip) => {
    const bits = toBits(ip);
    return bits !== undefined && bits.length === base.length && bits.slice(0, len) === base.slice(0, len);
  };
}

/** The address as a string of 32 or 128 '0'/'1' characters. */
function toBits(ip: string): string | undefined {
  const kind = isIP(ip);
  if (kind === 4) return ip.split('.').map((o) => Number(o).toString(2).padStart(8, '0')).join('');
  if (kind !== 6) return undefined;
  let text = ip.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const b = toBits(v4[1]!)!;
    text = text.slice(0, -v4[1]!.length) + parseInt(b.slice(0, 16), 2).toString(16) + ':' + parseInt(b.slice(16), 2).toString(16);
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const h = head === '' ? [] : head.split(':');
  const t = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  if (groups.length !== 8) return undefined;
  return groups.map((g) => parseInt(g, 16).toString(2).padStart(16, '0')).join('');
}
