/**
 * The gateway's Ranger policy set: a cache over Ranger Admin or local files,
 * compiled into an engine, refreshed in the background. Without a `ranger`
 * section there is no policy set at all — no roles, and (once the data gate
 * asks) no access.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { checkPolicyBundle, PolicyBundleError } from '../policy/ranger/bundle.js';
import { PolicyCache } from '../policy/ranger/cache.js';
import { compileSnapshot } from '../policy/ranger/compile.js';
import type { PolicyEngine } from '../policy/ranger/engine.js';
import { RangerAdminClient } from '../policy/ranger/sources/adminClient.js';
import { LocalPolicySource } from '../policy/ranger/sources/localSource.js';
import type { PolicySnapshot, PolicySource } from '../policy/ranger/sources/source.js';
import type { Config, RangerConfig } from './config.js';

/** Bundles refused at load (checked against their service def), per policy source, since start. */
const refusedBundles = new Map<string, number>();

/**
 * How many policy bundles each source has had refused (labels: `ranger` for the data
 * gate's, `polaris` for the catalog gate's, …), for the metrics endpoint to read.
 */
export function policyBundlesRefused(): ReadonlyMap<string, number> {
  return refusedBundles;
}

/** How operations see a policy set's loads (server/ops/): its source's calls, and each load compiled or refused. */
export interface PolicyObserver {
  source(s: PolicySource): PolicySource;
  compiled(ok: boolean): void;
}

export interface GatewayPolicies {
  current(): PolicyEngine | null;
  /** Reload now (after GRANT / REVOKE / SET TAG); resolves once the change is in force. */
  flush(): Promise<void>;
  /** never-loaded, fresh, stale or expired (policy/ranger/cache.ts); absent without a policy source. */
  state?(): string;
  stop(): void;
}

/**
 * Starts the policy set of one source. `label` names it in logs and in
 * policyBundlesRefused(). A first bundle refused by its service def is a start-up
 * error (there is no good set to keep); a source that cannot be reached is not:
 * the gateway starts denying everything and keeps trying. `observe` counts loads for metrics.
 */
export async function startPolicies(cfg: RangerConfig | undefined, log: Logger, label = 'ranger', observe?: PolicyObserver): Promise<GatewayPolicies> {
  if (!cfg) {
    log.warn({ event: 'ranger', state: 'not-configured' }, 'no Ranger policy source configured: no roles, no access');
    return { current: () => null, flush: async () => undefined, stop: () => undefined };
  }
  const s = cfg.source;
  const plain: PolicySource =
    s.kind === 'local'
      ? new LocalPolicySource({ path: s.path, ...(s.serviceName ? { serviceName: s.serviceName } : {}) })
      : new RangerAdminClient({
          url: s.url,
          serviceName: s.serviceName,
          username: s.username,
          password: s.password,
          timeoutMs: s.timeoutMs,
          retries: s.retries,
          tagService: s.tagService,
        });
  const source = observe ? observe.source(plain) : plain;
  const compile = (snapshot: PolicySnapshot): PolicyEngine => compileSnapshot(checkedSnapshot(snapshot, label, log, () => cache.current() !== null));
  const cache: PolicyCache<PolicyEngine> = new PolicyCache<PolicyEngine>({
    source,
    compile: observe
      ? (snapshot) => {
          try {
            const engine = compile(snapshot);
            observe.compiled(true);
            return engine;
          } catch (e) {
            observe.compiled(false);
            throw e;
          }
        }
      : compile,
    ttlMs: cfg.refreshMs,
    maxStalenessMs: cfg.maxStalenessMs,
    logger: log.child({ component: 'ranger' }),
  });
  // The first load is awaited so logins right after start see roles; a failure
  // leaves the cache never-loaded (deny) and the background refresh keeps trying.
  await cache.start();
  if (cache.state === 'never-loaded' && cache.lastError instanceof PolicyBundleError) {
    cache.stop();
    throw new Error(`cannot start without a valid first policy set: ${cache.lastError.message}`);
  }
  return { current: () => cache.current(), flush: () => cache.flush(), state: () => cache.state, stop: () => cache.stop() };
}

/** The snapshot with its bundle checked (stub defs replaced by Ranger's); a refusal is logged and counted. */
function checkedSnapshot(snapshot: PolicySnapshot, label: string, log: Logger, inForce: () => boolean): PolicySnapshot {
  const service = snapshot.policies.serviceName;
  try {
    const checked = checkPolicyBundle(snapshot.policies);
    for (const type of checked.replacedStubs) {
      log.warn(
        { event: 'policy-bundle', source: label, service, serviceType: type, state: 'stub-def-replaced' },
        `policy bundle of service "${service}" carries a stub "${type}" service definition (no resources): using Apache Ranger's ${type} service definition (lakegate's copy)`,
      );
    }
    return { ...snapshot, policies: checked.policies };
  } catch (e) {
    if (e instanceof PolicyBundleError) {
      refusedBundles.set(label, (refusedBundles.get(label) ?? 0) + 1);
      const kept = inForce() ? 'the policy set in force stays' : 'no policy set is in force: everything is denied';
      log.error({ event: 'policy-bundle', source: label, service, state: 'refused', problems: e.problems }, `${e.message} (${kept})`);
    }
    throw e;
  }
}

/** Where one gate's policies and roles are read from, for check-config. */
export interface PolicySourceDescription {
  gate: string;
  policies: string;
  roles: string;
}

/**
 * Each Ranger service lakegate reads, with the one roles file (or Ranger Admin's role
 * download) its decisions use: the data gate's roles also give every login its roles;
 * the embedded catalog gate decides with the roles of its own polaris service.
 */
export function describePolicySources(config: Config): PolicySourceDescription[] {
  const out: PolicySourceDescription[] = [];
  const add = (gate: string, cfg: RangerConfig) => out.push({ gate, ...describeRangerSource(cfg) });
  if (config.ranger) add('data gate and login roles (ranger)', config.ranger);
  else out.push({ gate: 'data gate and login roles (ranger)', policies: 'none configured: no table is readable', roles: 'none: every login has no roles' });
  const source = config.catalog?.source;
  if (source?.kind === 'embedded') add('catalog gate (catalog.source.policies)', source.policies);
  else if (source?.kind === 'rest') {
    out.push({ gate: 'catalog gate', policies: `decided by the catalog at ${source.uri} (Polaris)`, roles: 'the catalog\'s own (Polaris\'s Ranger service)' });
  }
  const ac = config.accessControl.ranger;
  if (ac) {
    out.push({
      gate: 'GRANT / REVOKE (accessControl.ranger)',
      policies: `Ranger Admin ${ac.url}, service ${ac.serviceName}`,
      roles: `Ranger Admin ${ac.url}, roles of service ${ac.serviceName}`,
    });
  }
  return out;
}

function describeRangerSource(cfg: RangerConfig): { policies: string; roles: string } {
  const s = cfg.source;
  if (s.kind === 'admin') {
    return { policies: `Ranger Admin ${s.url}, service ${s.serviceName}`, roles: `Ranger Admin ${s.url}, roles of service ${s.serviceName}` };
  }
  let isFolder: boolean;
  try {
    isFolder = statSync(s.path).isDirectory();
  } catch {
    return { policies: `${s.path} (missing)`, roles: 'unknown until the policy path exists' };
  }
  if (!isFolder) return { policies: s.path, roles: 'none: a single policy file carries no roles (use a folder with <service>_roles.json beside <service>.json)' };
  if (!s.serviceName) return { policies: `${s.path} (a folder needs serviceName)`, roles: 'unknown: the folder needs serviceName' };
  const roles = join(s.path, `${s.serviceName}_roles.json`);
  return { policies: join(s.path, `${s.serviceName}.json`), roles: existsSync(roles) ? roles : `${roles} (missing: no roles)` };
}
