/**
 * The Iceberg catalog a gateway serves: the embedded warehouse (with its
 * polaris-service policies) or a REST catalog, behind the per-user cache.
 */
import type { Logger } from 'pino';
import { EmbeddedCatalog } from '../catalog/iceberg/embedded.js';
import { RestCatalog } from '../catalog/iceberg/rest.js';
import { CatalogService } from '../catalog/userCatalog.js';
import type { Caller, WritableCatalog } from '../catalog/iceberg/api.js';
import { RangerPolarisAuthorizer } from '../policy/polaris/rangerAuthorizer.js';
import type { CatalogConfig } from './config.js';
import { startPolicies, type GatewayPolicies, type PolicyObserver } from './policies.js';
import type { Auditor } from './audit/auditor.js';

export interface RunningCatalog {
  service: CatalogService;
  /** The same catalog, written as a user (issue 19). */
  writer: WritableCatalog;
  /** What the engine may read after the lock-down. */
  storageRoots: readonly string[];
  /** The embedded catalog's polaris-service policies (null for a REST catalog: Polaris holds them). */
  policies: GatewayPolicies | null;
  /** After GRANT / REVOKE / SET TAG: the policies reloaded, every user's catalog answers forgotten. */
  flush(): Promise<void>;
  stop(): void;
}

/** How operations watch the catalog (server/ops/): its calls timed, its policy loads counted. */
export interface CatalogObserver {
  client<T extends object>(client: T): T;
  policies: PolicyObserver;
}

export async function startCatalog(cfg: CatalogConfig, log: Logger, audit?: Auditor, observe?: CatalogObserver): Promise<RunningCatalog> {
  const s = cfg.source;
  const cache = {
    ttlMs: cfg.cacheTtlMs,
    loadConcurrency: cfg.loadConcurrency,
    ...(cfg.cacheMaxEntriesPerUser !== undefined ? { maxEntriesPerUser: cfg.cacheMaxEntriesPerUser } : {}),
    ...(cfg.cacheMaxEntries !== undefined ? { maxEntries: cfg.cacheMaxEntries } : {}),
  };
  if (s.kind === 'embedded') {
    const policies = await startPolicies(s.policies, log.child({ component: 'polaris-policies' }), 'polaris', observe?.policies);
    const client = new EmbeddedCatalog({
      sqliteFile: s.sqliteFile,
      catalogName: s.catalogName ?? cfg.database,
      realm: s.realm,
      warehouseRoots: s.warehouse,
      // The catalog gate of embedded mode: Polaris's Ranger authorizer, over the polaris-service policies in force.
      authorizer: new RangerPolarisAuthorizer<Caller>(
        () => policies.current(),
        audit?.enabled
          ? (d) =>
              audit.catalogDecision({
                engine: d.engine,
                subject: { user: d.caller.user, clientIp: d.caller.clientAddress ?? null, sessionId: d.caller.sessionId ?? null },
                operation: d.operation,
                allowed: d.decision.allowed,
                checks: d.decision.checks,
              })
          : undefined,
      ),
    });
    const service = new CatalogService(observe ? observe.client(client) : client, cache);
    return {
      service,
      writer: client,
      storageRoots: client.storageRoots,
      policies,
      flush: async () => {
        await policies.flush();
        service.flush();
      },
      stop: () => {
        policies.stop();
        service.close();
      },
    };
  }
  const client = new RestCatalog({
    uri: s.uri,
    warehouse: s.warehouse,
    realm: s.realm,
    timeoutMs: s.timeoutMs,
    retries: s.retries,
    vendedCredentials: s.vendedCredentials,
    storageRoots: s.warehouseRoots,
  });
  const service = new CatalogService(observe ? observe.client(client) : client, cache);
  return {
    service,
    writer: client,
    storageRoots: client.storageRoots,
    policies: null,
    flush: async () => service.flush(),
    stop: () => service.close(),
  };
}
