/**
 * SIGHUP: a new configuration, applied where it can change under open
 * sessions, and named where it needs a restart. What changes live:
 *
 *  - `ranger` (the data gate's policy source): a new source is loaded first
 *    and used only once it has loaded; an unchanged source is re-read now.
 *    The embedded catalog's policies are re-read and every user's catalog
 *    answers forgotten.
 *  - `audit`: the new trail is opened first, then replaces the old one.
 *  - `ops.statementLog`, `ops.logLevel`.
 *
 * Anything else that differs is left as it is, and the reload says so.
 * Nothing is applied unless everything live could be prepared: a source that
 * does not load or a trail that does not open refuses the whole reload, and
 * the configuration in force stays.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import type { Auditor } from '../audit/auditor.js';
import { startAuditor } from '../audit/start.js';
import type { Config } from '../config.js';
import { startPolicies, type GatewayPolicies } from '../policies.js';
import type { LivePolicies } from './livePolicies.js';
import type { LogLevel } from './logLevel.js';
import type { ObservedAuditor } from './observedAuditor.js';
import type { Ops } from './ops.js';

/** Keys whose change a reload applies (the rest need a restart). */
const LIVE_KEYS = new Set(['ranger', 'audit', 'ops']);
const LIVE_OPS_KEYS = new Set(['statementLog', 'logLevel']);

export interface ReloadParts {
  policies: LivePolicies;
  auditor: ObservedAuditor;
  ops: Ops;
  /** the embedded catalog's policies and every user's catalog answers; null without a catalog */
  flushCatalog: (() => Promise<void>) | null;
  setLogLevel?: (level: LogLevel) => void;
  log: Logger;
}

export interface ReloadReport {
  /** the configuration now in force: the new one's live parts, the old one's others */
  config: Config;
  applied: string[];
  /** keys that differ but need a restart */
  needRestart: string[];
  /** the data gate's policy set after the reload (fresh, stale, …) */
  policyState: string;
}

export class ReloadRefused extends Error {}

/** Top-level keys (and `ops.` keys) that differ between two configurations. */
export function changedKeys(a: Config, b: Config): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const out: string[] = [];
  for (const k of keys) {
    const x = (a as Record<string, unknown>)[k];
    const y = (b as Record<string, unknown>)[k];
    if (isDeepStrictEqual(x, y)) continue;
    if (k === 'ops') {
      const ox = x as Record<string, unknown>;
      const oy = y as Record<string, unknown>;
      for (const ok of new Set([...Object.keys(ox), ...Object.keys(oy)])) if (!isDeepStrictEqual(ox[ok], oy[ok])) out.push(`ops.${ok}`);
    } else out.push(k);
  }
  return out.sort();
}

const isLive = (key: string) => (key.startsWith('ops.') ? LIVE_OPS_KEYS.has(key.slice(4)) : LIVE_KEYS.has(key));

export async function reloadConfig(current: Config, next: Config, parts: ReloadParts): Promise<ReloadReport> {
  const changed = changedKeys(current, next);
  const live = changed.filter(isLive);
  const needRestart = changed.filter((k) => !isLive(k));
  // Prepare first, apply after: a part that cannot be prepared leaves everything as it was.
  let policies: GatewayPolicies | null = null;
  let auditor: Auditor | null = null;
  try {
    if (live.includes('ranger')) {
      policies = await startPolicies(next.ranger, parts.log, 'ranger', parts.ops.policies('data'));
      if (next.ranger && policies.current() === null) {
        throw new ReloadRefused(`the new Ranger policy source (${describeSource(next)}) did not load: see the ranger log lines above`);
      }
    }
    if (live.includes('audit')) {
      const service = (policies ?? parts.policies).current()?.serviceName ?? 'lakegate';
      auditor = await startAuditor(next.audit, service, parts.log);
    }
  } catch (e) {
    policies?.stop();
    await auditor?.close();
    throw e instanceof ReloadRefused ? e : new ReloadRefused((e as Error).message);
  }
  if (policies) parts.policies.replace(policies);
  else await parts.policies.flush();
  if (auditor) await parts.auditor.replace(auditor).close();
  await parts.flushCatalog?.();
  if (live.includes('ops.logLevel')) parts.setLogLevel?.(next.ops.logLevel ?? defaultLogLevel());
  parts.ops.configure(next.ops);
  const config: Config = {
    ...current,
    ranger: next.ranger,
    audit: next.audit,
    ops: { ...current.ops, statementLog: next.ops.statementLog, logLevel: next.ops.logLevel },
  } as Config;
  return { config, applied: live, needRestart, policyState: parts.policies.state() };
}

/** The level without `ops.logLevel`: LAKEGATE_LOG_LEVEL, else info. */
export function defaultLogLevel(): LogLevel {
  return (process.env['LAKEGATE_LOG_LEVEL'] as LogLevel | undefined) ?? 'info';
}

function describeSource(c: Config): string {
  const s = c.ranger?.source;
  if (!s) return 'none';
  return s.kind === 'local' ? `local ${s.path}` : `Ranger Admin ${s.url}, service ${s.serviceName}`;
}
