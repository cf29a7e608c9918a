/**
 * Assemble a running gateway from a configuration: engine (hardened), planner,
 * users, listener.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { totalmem, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Logger } from 'pino';
import type { EngineSql } from '../catalog/catalog.js';
import type { Config } from './config.js';
import { EnginePool } from './engine/pool.js';
import { mebibytes, parseMemorySize } from './engine/memory.js';
import { startServer, type RunningServer } from './listener.js';
import type { QueryPlanner } from './queryPlan.js';
import { LocalUsers } from './users.js';
import { loadServerSecret } from './serverSecret.js';
import { INLINE_PARSE_CHARS, StatementParser } from './statementParser.js';
import type { IdentityProvider } from './identity/identity.js';
import { KeycloakIdentityProvider } from './identity/keycloak.js';
import { LocalIdentityProvider } from './identity/local.js';
import { rangerRoles } from './identity/roles.js';
import { LoginThrottle } from './identity/throttle.js';
import { startPolicies } from './policies.js';
import { startCatalog } from './catalog.js';
import { LoopbackCatalog } from '../catalog/loopback/server.js';
import { startAdminRoom } from './admin.js';
import { defaultExtensionDirectory, ensureExtensions, type ExtensionName } from './extensions.js';
import type { PlannerDeps } from './planner.js';
import { StorageSecrets } from './storage.js';
import { startAuditor } from './audit/start.js';
import { auditedIdentity } from './identity/audited.js';
import { adminAuditTrail } from './audit/adminTrail.js';
import { Ops } from './ops/ops.js';
import { LivePolicies } from './ops/livePolicies.js';
import { ReloadRefused, reloadConfig, type ReloadReport } from './ops/reload.js';
import type { LogLevel } from './ops/logLevel.js';

/**
 * Builds the planner on the privileged connection of the first engine, before
 * it is locked; what it runs there becomes every engine's bootstrap.
 */
export type PlannerFactory = (admin: EngineSql, config: Config, deps: PlannerDeps) => Promise<QueryPlanner>;

/** The engines' memory unless configured: half of the machine, leaving room for the gateway itself. */
export const defaultMemoryLimit = (): string => `${Math.max(256, Math.floor(totalmem() / 2 / 2 ** 20))}MiB`;

/** What an engine process holds besides DuckDB's buffers (Node, the extensions, the catalog emulation). */
const PROCESS_OVERHEAD_BYTES = 256 * 2 ** 20;

export interface RunningGateway extends RunningServer {
  /** The admin listener (/metrics, /healthz, /readyz), when configured. */
  ops: { host: string; port: number } | null;
  /**
   * Read the configuration anew and apply it where it can change under open sessions
   * (server/ops/reload.ts); throws ReloadRefused, the configuration in force unchanged, when
   * `reread` throws or a live part cannot be prepared.
   */
  reload(reread: () => Config): Promise<ReloadReport>;
}

export interface GatewayOptions {
  /** Changes the level of the whole log (server/ops/logLevel.ts) when a reload asks. */
  setLogLevel?: (level: LogLevel) => void;
  /** An admin listener that cannot bind is a warning, not a failed start (`lakegate demo`). */
  opsOptional?: boolean;
}

export async function startGateway(config: Config, log: Logger, makePlanner: PlannerFactory, opts: GatewayOptions = {}): Promise<RunningGateway> {
  const ops = await Ops.start(config.ops, log, opts.opsOptional ?? false);
  try {
    return await assemble(config, log, makePlanner, ops, opts);
  } catch (e) {
    await ops.close();
    throw e;
  }
}

async function assemble(config: Config, log: Logger, makePlanner: PlannerFactory, ops: Ops, opts: GatewayOptions): Promise<RunningGateway> {
  const { readiness } = ops;
  readiness.starting('loading the data gate policies');
  const policies = new LivePolicies(await startPolicies(config.ranger, log, 'ranger', ops.policies('data')));
  if (config.ranger) readiness.require(() => (policies.current() ? null : `the data gate policies are not loaded (${policies.state()})`));
  const audit = ops.observeAuditor(await startAuditor(config.audit, policies.current()?.serviceName ?? 'lakegate', log));
  const roles = rangerRoles(() => policies.current()?.roleStore ?? null);
  const throttle = new LoginThrottle(config.throttle);
  const users = config.keycloak ? null : LocalUsers.load(config.usersFile!);
  const provider: IdentityProvider = config.keycloak
    ? new KeycloakIdentityProvider(config.keycloak, roles, throttle, log.child({ component: 'keycloak' }))
    : new LocalIdentityProvider(
        users!,
        config.localAuth,
        roles,
        throttle,
        loadServerSecret(config.serverSecretFile ?? join(dirname(config.usersFile!), 'lakegate.secret')),
        log,
      );
  const identity = auditedIdentity(provider, audit);
  readiness.starting('opening the catalog');
  const catalog = config.catalog ? await startCatalog(config.catalog, log, audit, ops.catalog()) : null;
  const catalogPolicies = catalog?.policies;
  if (catalogPolicies) readiness.require(() => (catalogPolicies.current() ? null : `the catalog gate policies are not loaded (${catalogPolicies.state?.() ?? 'unknown'})`));
  // DuckDB reads and writes Iceberg with its own extension; writes reach the catalog endpoint over HTTP (httpfs),
  // and tables in object storage need it too. User SQL never reaches what httpfs adds (CREATE SECRET, ATTACH):
  // the parser and the router refuse them.
  const extensions: ExtensionName[] = [];
  if (catalog) extensions.push('avro', 'iceberg', 'httpfs');
  const extensionDirectory = config.engine.extensionDirectory ?? defaultExtensionDirectory();
  readiness.starting('providing the DuckDB extensions');
  if (extensions.length > 0) await ensureExtensions(extensionDirectory, extensions, log);
  readiness.starting('starting the engine pool');
  let planner: QueryPlanner | null = null;
  const secrets: StorageSecrets | null = catalog?.storageRoots.some((r) => /^s3a?:\/\//.test(r)) ? new StorageSecrets(config.catalog?.storage, catalog?.storageRoots ?? []) : null;
  // A spill folder of our own unless configured, removed again at shutdown.
  const spill = config.engine.tempDirectory ? null : mkdtempSync(join(tmpdir(), 'lakegate-spill-'));
  const total = parseMemorySize(config.engine.memoryLimit ?? defaultMemoryLimit())!;
  const perUser = config.engine.userMemoryLimit ? parseMemorySize(config.engine.userMemoryLimit)! : Math.floor(total / 2);
  const duckConfig: Record<string, string> = { memory_limit: mebibytes(perUser), max_temp_directory_size: config.engine.maxTempDirectorySize };
  if (config.engine.threads) duckConfig['threads'] = String(config.engine.threads);
  duckConfig['extension_directory'] = extensionDirectory;
  let engine: EnginePool;
  try {
    engine = await EnginePool.start(
      {
        start: { config: duckConfig, extensions, databases: config.databases, allowedDirectories: [...(catalog?.storageRoots ?? [])] },
        tempDirectory: config.engine.tempDirectory ?? spill!,
        // Every DuckDB call holds one of libuv's threads until it returns: one per possible session, and a few.
        threadpoolSize: Math.min(1024, config.maxConnections + 8),
        maxProcesses: config.engine.maxProcesses,
        spares: config.engine.spareProcesses,
        idleMs: config.engine.idleMs,
        processMemoryBytes: perUser,
        totalMemoryBytes: total,
        processOverheadBytes: PROCESS_OVERHEAD_BYTES,
        watchIntervalMs: config.engine.watchIntervalMs,
        log: log.child({ component: 'engine' }),
      },
      async (admin) => {
        planner = await makePlanner(admin, config, { policies, log, catalog: catalog?.service ?? null, storage: () => secrets, audit });
      },
    );
  } catch (e) {
    catalog?.stop();
    await audit.close();
    if (spill) rmSync(spill, { recursive: true, force: true });
    throw e;
  }
  const parser = new StatementParser({
    limits: { maxNodes: config.limits.maxStatementNodes, maxDepth: config.limits.maxStatementDepth },
    maxStatementBytes: config.limits.maxStatementBytes,
    inlineChars: INLINE_PARSE_CHARS,
    workers: config.limits.parseWorkers,
  });
  const admin = await startAdminRoom(config, {
    catalog,
    dataGate: policies,
    ...(users ? { userExists: (n: string) => users.get(n) !== undefined } : {}),
    audit: adminAuditTrail(audit),
    log,
  });
  // DuckDB writes through a catalog endpoint of lakegate's own, one secret path per session (catalog/loopback/).
  const loopback = catalog ? await LoopbackCatalog.start({ catalog: catalog.writer, onError: (e) => log.error({ err: e }, 'catalog endpoint failed') }) : null;
  const writes = catalog && loopback ? { loopback, catalog: catalog.writer, catalogName: config.catalog!.database, service: catalog.service, log: log.child({ component: 'writes' }) } : null;
  const server = await startServer({ config, engine, planner: planner!, parser, identity, log, audit, admin: admin?.room ?? null, writes, ops });
  ops.metrics.watchEngine(engine);
  readiness.started();
  let inForce = config;
  return {
    ...server,
    ops: ops.listener ? { host: ops.listener.host, port: ops.listener.port } : null,
    reload: async (reread) => {
      try {
        let next: Config;
        try {
          next = reread();
        } catch (e) {
          throw new ReloadRefused((e as Error).message);
        }
        const report = await reloadConfig(inForce, next, {
          policies,
          auditor: audit,
          ops,
          flushCatalog: catalog ? () => catalog.flush() : null,
          ...(opts.setLogLevel ? { setLogLevel: opts.setLogLevel } : {}),
          log,
        });
        inForce = report.config;
        ops.metrics.reload(true);
        return report;
      } catch (e) {
        ops.metrics.reload(false);
        throw e;
      }
    },
    close: async () => {
      readiness.shuttingDown();
      await server.close();
      await loopback?.close();
      await identity.close();
      policies.stop();
      admin?.stop();
      await parser.close();
      catalog?.stop();
      await engine.close();
      await audit.close();
      await ops.close();
      if (spill) rmSync(spill, { recursive: true, force: true });
    },
  };
}
