/**
 * The gateway's Ranger policy set: a cache over Ranger Admin or local files,
 * compiled into an engine, refreshed in the background. Without a `ranger`
 * section there is no policy set at all — no roles, and (once the data gate
 * asks) no access.
 */
import type { Logger } from 'pino';
import { PolicyCache } from '../policy/ranger/cache.js';
import { compileSnapshot } from '../policy/ranger/compile.js';
import type { PolicyEngine } from '../policy/ranger/engine.js';
import { RangerAdminClient } from '../policy/ranger/sources/adminClient.js';
import { LocalPolicySource } from '../policy/ranger/sources/localSource.js';
import type { PolicySource } from '../policy/ranger/sources/source.js';
import type { RangerConfig } from './config.js';

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

export async function startPolicies(cfg: RangerConfig | undefined, log: Logger, observe?: PolicyObserver): Promise<GatewayPolicies> {
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
  const cache = new PolicyCache<PolicyEngine>({
    source,
    compile: observe
      ? (snapshot) => {
          try {
            const engine = compileSnapshot(snapshot);
            observe.compiled(true);
            return engine;
          } catch (e) {
            observe.compiled(false);
            throw e;
          }
        }
      : (snapshot) => compileSnapshot(snapshot),
    ttlMs: cfg.refreshMs,
    maxStalenessMs: cfg.maxStalenessMs,
    logger: log.child({ component: 'ranger' }),
  });
  // The first load is awaited so logins right after start see roles; a failure
  // leaves the cache never-loaded (deny) and the background refresh keeps trying.
  await cache.start();
  return { current: () => cache.current(), flush: () => cache.flush(), state: () => cache.state, stop: () => cache.stop() };
}
