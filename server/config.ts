/** lakegate's configuration, validated at the boundary. */
import { z } from 'zod';
import { KeycloakConfigSchema } from './identity/keycloak.js';
import { ThrottleConfigSchema } from './identity/throttle.js';
import { AuditConfigSchema } from './audit/config.js';
import { OpsConfigSchema } from './ops/config.js';
import { serverDefaults } from './settings.js';
import { parseMemorySize } from './engine/memory.js';
import { describeUnknownKey, unknownKeys } from './configKeys.js';

/** Where Ranger policies and roles come from: Ranger Admin, or local JSON in the same shapes. */
const RangerConfigSchema = z.strictObject({
  source: z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('local'),
      /** A ServicePolicies file, or a folder with <service>.json, <service>_roles.json, <service>_tag.json. */
      path: z.string().min(1),
      serviceName: z.string().min(1).optional(),
    }),
    z.strictObject({
      kind: z.literal('admin'),
      url: z.string().url(),
      serviceName: z.string().min(1),
      username: z.string().min(1),
      password: z.string().min(1),
      timeoutMs: z.number().int().min(100).default(10_000),
      retries: z.number().int().min(0).default(2),
      tagService: z.boolean().default(false),
    }),
  ]),
  /** How often the policy set is refreshed. */
  refreshMs: z.number().int().min(100).default(30_000),
  /** How long a failing refresh may keep serving the last good set before everything is denied. */
  maxStalenessMs: z.number().int().min(0).default(300_000),
});
export type RangerConfig = z.output<typeof RangerConfigSchema>;

/**
 * Bounds that keep one session from stalling or exhausting the others
 * (README, "Limits"). PostgreSQL has no equivalent of the statement bounds;
 * the row bound is PostgreSQL's own (1 GB less one byte).
 */
const LimitsSchema = z.strictObject({
  /** Longest query text, in UTF-8 bytes (54000 beyond). */
  maxStatementBytes: z.number().int().min(1024).default(1024 * 1024),
  /** Most parse-tree nodes in one query message (54001 beyond). */
  maxStatementNodes: z.number().int().min(100).default(10_000),
  /** Deepest nesting of a statement: operators, subqueries, UNION arms (54001 beyond). */
  maxStatementDepth: z.number().int().min(16).max(2000).default(256),
  /** Named prepared statements per session (54000 beyond). */
  maxPreparedStatements: z.number().int().min(1).default(1000),
  /** Portals per session (54000 beyond). */
  maxPortals: z.number().int().min(1).default(1000),
  /**
   * Most rows a SCROLL cursor spools into the engine (54000 beyond, before any row is fetched).
   * The spool's memory is the engine's (memory_limit, spilled to tempDirectory); this caps its size.
   */
  maxScrollCursorRows: z.number().int().min(1).default(10_000_000),
  /** Largest message lakegate builds for a client, a DataRow above all (53200 out of memory beyond). */
  maxRowBytes: z.number().int().min(1024).max(0x3fffffff).default(0x3fffffff),
  /** Connections from one address that have not finished logging in (53300 beyond). */
  maxPendingLoginsPerAddress: z.number().int().min(1).default(32),
  /** Worker threads that parse long statements off the event loop. */
  parseWorkers: z.number().int().min(1).max(16).default(2),
});
export type Limits = z.output<typeof LimitsSchema>;
/** S3-compatible object storage, for warehouses outside the local filesystem (httpfs). */
const StorageConfigSchema = z.strictObject({
  /** e.g. http://127.0.0.1:8333 for a local S3-compatible server; AWS when absent */
  endpoint: z.string().url().optional(),
  region: z.string().default('us-east-1'),
  /** Keys the gateway reads every table with; absent: only credentials the catalog vends per table. */
  accessKeyId: z.string().min(1).optional(),
  secretAccessKey: z.string().min(1).optional(),
  pathStyle: z.boolean().default(true),
});

/**
 * The Iceberg catalog behind the PostgreSQL database: the embedded SQL-catalog
 * warehouse (pyiceberg's SqlCatalog / Iceberg's JdbcCatalog layout) with the
 * catalog gate decided locally on polaris-service policies, or Polaris (any
 * Iceberg REST catalog) called with each user's token.
 */
const CatalogConfigSchema = z.strictObject({
  /** The PostgreSQL database name clients connect to. */
  database: z.string().min(1).max(63),
  /** How long a catalog answer (namespaces, a table load, a denial) is used per user. */
  cacheTtlMs: z.number().int().min(0).default(30_000),
  /** Table answers (misses and denials included) kept per user; the least recently used go first. Default 10,000. */
  cacheMaxEntriesPerUser: z.number().int().min(1).optional(),
  /** Table answers kept over all users; past it the least recently active user's oldest go first. Default 100,000. */
  cacheMaxEntries: z.number().int().min(1).optional(),
  /** Table loads in flight at once when a user's whole listing is needed (pg_class …). */
  loadConcurrency: z.number().int().min(1).max(64).default(8),
  source: z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('embedded'),
      /** The SQL catalog's SQLite file (pyiceberg SqlCatalog `uri` sqlite:///FILE). */
      sqliteFile: z.string().min(1),
      /** `catalog_name` in that file (pyiceberg: the catalog's name); default: the database name. */
      catalogName: z.string().min(1).optional(),
      /** Directories the tables' files live under (pyiceberg's `warehouse`); the only ones the engine may read. */
      warehouse: z.array(z.string().min(1)).min(1),
      /** Polaris realm (the `root` resource of the policies). */
      realm: z.string().min(1).default('POLARIS'),
      /** The polaris-service policies that decide every catalog call (Ranger Admin or local JSON). */
      policies: RangerConfigSchema,
    }),
    z.strictObject({
      kind: z.literal('rest'),
      /** Base URI, e.g. http://polaris:8181/api/catalog */
      uri: z.string().url(),
      /** The catalog (Polaris: the catalog name) sent as `warehouse` to /v1/config. */
      warehouse: z.string().min(1),
      /** Polaris realm, sent as the Polaris-Realm header when set. */
      realm: z.string().min(1).optional(),
      timeoutMs: z.number().int().min(100).default(10_000),
      /** Retries of idempotent reads on network errors and 5xx (never on 4xx). */
      retries: z.number().int().min(0).max(10).default(2),
      /** Ask for vended storage credentials (X-Iceberg-Access-Delegation). */
      vendedCredentials: z.boolean().default(true),
      /** Local directories or object-store prefixes (s3://bucket/prefix/) the tables live under. */
      warehouseRoots: z.array(z.string().min(1)).min(1),
    }),
  ]),
  storage: StorageConfigSchema.optional(),
});
export type CatalogConfig = z.output<typeof CatalogConfigSchema>;
/** The data gate: how row filters, masks and restrictions are applied to every query. */
const DataGateConfigSchema = z.strictObject({
  /**
   * The key of MASK_HASH (HMAC-SHA256 of the value). Without it a MASK_HASH
   * column is restricted (NULL). Never shown to users; keep the config file private.
   */
  maskKey: z.string().min(16, 'maskKey: at least 16 characters').optional(),
  /** Which mask wins when a tag policy and a resource policy both mask a column. */
  maskPrecedence: z.enum(['tag', 'resource']).default('tag'),
  /** Column tags for tables whose catalog carries none: { "<database>.<table>": { "<column>": ["TAG", …] } }. */
  columnTagsFile: z.string().min(1).optional(),
  /**
   * How a row filter is made a barrier against predicates the engine evaluates
   * early: `case` (every column NULL on removed rows) or `materialized`
   * (filtered rows computed first). bench/README.md compares them.
   */
  fence: z.enum(['case', 'materialized']).default('case'),
  /**
   * Leave the fence off a filtered table when every predicate of the statement
   * that may read it is leakproof (cannot fail on any row), so the engine can
   * push them into the scan (the default). false: always fence.
   */
  leakproofPushdown: z.boolean().optional(),
});
export type DataGateConfig = z.output<typeof DataGateConfigSchema>;

/**
 * GRANT / REVOKE / DENY / SHOW GRANTS / CHECK ACCESS (policy/admin/): written
 * as Ranger policies on the polaris service — the embedded catalog's policy
 * files, or Ranger Admin.
 */
const AccessControlConfigSchema = z.strictObject({
  /** admin-role: GRANT needs one of adminRoles; ranger-delegate: a grant option on each level decides. */
  grantAuthority: z.enum(['admin-role', 'ranger-delegate']).default('admin-role'),
  adminRoles: z.array(z.string().min(1)).min(1).default(['sqe_admin']),
  /** The `root` value written into every policy (`*`: every realm). */
  realm: z.string().min(1).default('*'),
  /** SET TAG also writes the data gate's tag store (local `<service>_tag.json`); its failure rolls the table property back. */
  projectTags: z.boolean().default(false),
  /**
   * GRANT / REVOKE / DENY of a write privilege (INSERT, UPDATE, DELETE, TRUNCATE, ALTER, DROP, CREATE)
   * also writes the data gate's policies (the `ranger` source's service: `update`, `create`, `drop`,
   * `alter`); a failure there puts the catalog gate's policies back and fails the statement.
   */
  projectWrites: z.boolean().default(false),
  /**
   * Ranger Admin holding the polaris service, for a REST catalog (Polaris reads
   * its policies from there). An embedded catalog's own policy source is used
   * when this is absent. The account must be a Ranger admin (public policy API)
   * and allowed to call grant / revoke.
   */
  ranger: z
    .object({
      url: z.string().url(),
      serviceName: z.string().min(1).default('polaris'),
      username: z.string().min(1),
      password: z.string().min(1),
      timeoutMs: z.number().int().min(100).default(10_000),
      /** How often the polaris policies are read for CHECK ACCESS and the grant-option checks. */
      refreshMs: z.number().int().min(100).default(30_000),
    })
    .optional(),
});
export type AccessControlConfig = z.output<typeof AccessControlConfigSchema>;

/** A memory size DuckDB reads ("4GiB", "512MB"). */
const memorySize = z.string().refine((v) => parseMemorySize(v) !== null, { message: 'a memory size such as "4GiB" or "512MB"' });
const EngineDefaults = { maxProcesses: 16, spareProcesses: 1, idleMs: 300_000, watchIntervalMs: 250, maxTempDirectorySize: '10GiB' };

export const ConfigSchema = z.strictObject({
  host: z.string().default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(5433),
  /** PostgreSQL database name → DuckDB database file, attached read-only (without a catalog). */
  databases: z.record(z.string().min(1).max(63), z.string().min(1)).default({}),
  /** The Iceberg catalog served as a PostgreSQL database. */
  catalog: CatalogConfigSchema.optional(),
  /** The local users file (embedded mode); not used when `keycloak` is set. */
  usersFile: z.string().min(1).optional(),
  /** Log in with Keycloak passwords instead of the users file. */
  keycloak: KeycloakConfigSchema.optional(),
  /** Ranger policies and roles (roles feed every login, in both modes). */
  ranger: RangerConfigSchema.optional(),
  /** Access-control statements (needs `catalog`). */
  accessControl: AccessControlConfigSchema.default(AccessControlConfigSchema.parse({})),
  /** Row filters, masks and column restriction (needs `ranger`: without a policy set no table is readable). */
  dataGate: DataGateConfigSchema.default(DataGateConfigSchema.parse({})),
  /** The audit trail: Ranger audit events as JSON lines (stdout or a file) and/or batches to an HTTP sink. */
  audit: AuditConfigSchema.default(AuditConfigSchema.parse({})),
  /** The admin listener (/metrics, /healthz, /readyz) and the per-statement log (server/ops/). */
  ops: OpsConfigSchema.default(OpsConfigSchema.parse({})),
  /** Repeated failed logins: slowed and then refused per client address and per (user, address), never per user alone (server/identity/throttle.ts). */
  throttle: ThrottleConfigSchema.default(ThrottleConfigSchema.parse({})),
  /**
   * How local users prove their password: SCRAM-SHA-256 (nothing reusable
   * crosses the wire), or the cleartext password (for clients without SCRAM;
   * combine with requireTls).
   */
  localAuth: z.enum(['scram-sha-256', 'password']).default('scram-sha-256'),
  tls: z.strictObject({ certFile: z.string(), keyFile: z.string() }).optional(),
  /** Refuse passwords on connections without TLS. */
  requireTls: z.boolean().default(false),
  /** Largest frontend message accepted; bigger ones end the connection with 08P01. */
  maxMessageBytes: z.number().int().min(1024).max(1 << 30).default(16 * 1024 * 1024),
  maxConnections: z.number().int().min(1).default(200),
  /**
   * Sessions one user may hold at once (PostgreSQL's per-role CONNECTION LIMIT: FATAL 53300 `too many
   * connections for role` beyond). Users holding one of accessControl.adminRoles are not counted, as
   * PostgreSQL does not count superusers.
   */
  maxConnectionsPerUser: z.number().int().min(1).default(50),
  /**
   * The last slots of maxConnections, kept for users holding one of accessControl.adminRoles (PostgreSQL's
   * superuser_reserved_connections): once only this many are free, other users get 53300.
   */
  reservedConnections: z.number().int().min(0).default(3),
  /**
   * Statements one user runs in the engine at once, over all of the user's sessions. A further one waits
   * for its turn, as a PostgreSQL statement waits for a lock: statement_timeout and CancelRequest apply
   * while it waits (57014), and it is never refused for the limit.
   */
  maxStatementsPerUser: z.number().int().min(1).default(8),
  /**
   * Server-wide defaults of session settings, as postgresql.conf sets them: e.g. { "statement_timeout":
   * "5min" }. SHOW shows them; the startup packet (`options=-c …`) and SET override them per session, RESET
   * returns to them. Any setting SET accepts, except client_encoding and the transaction's own
   * (transaction_isolation, transaction_read_only); checked at start as SET checks it.
   */
  settings: z.record(z.string(), z.union([z.string(), z.number()]).transform(String)).default({}),
  authTimeoutMs: z.number().int().min(100).default(60000),
  maxOpenCursorsPerSession: z.number().int().min(1).default(8),
  limits: LimitsSchema.default(LimitsSchema.parse({})),
  /** SIGTERM: how long running statements get to end before every connection is closed. */
  shutdownTimeoutMs: z.number().int().min(0).default(5000),
  /**
   * A file holding the server secret (created with 32 random bytes if missing).
   * Mock SCRAM salts of unknown users derive from it, so they stay the same
   * across restarts and across instances sharing the file. Default: next to usersFile.
   */
  serverSecretFile: z.string().min(1).optional(),
  engine: z
    .object({
      threads: z.number().int().min(1).optional(),
      /**
       * Memory all engine processes together may hold, e.g. "8GiB"; default: half of the
       * machine's memory. Past it the statements of the largest engine are stopped (53200).
       */
      memoryLimit: memorySize.optional(),
      /**
       * Memory one user's engine process may hold (its DuckDB memory_limit, plus room for the
       * rest of the process); default: half of memoryLimit. Past it that user's statements are
       * stopped (53200), and an engine that stays past it is restarted.
       */
      userMemoryLimit: memorySize.optional(),
      /** Engine processes at once (one per user; past this many, users share). */
      maxProcesses: z.number().int().min(1).max(256).default(16),
      /** Engine processes kept started ahead of need, so a user's first statement does not wait for one. */
      spareProcesses: z.number().int().min(0).max(8).default(1),
      /** An engine process no session uses is stopped after this long. */
      idleMs: z.number().int().min(1000).default(300_000),
      /** How often resident memory is read. */
      watchIntervalMs: z.number().int().min(50).max(10_000).default(250),
      /** Where DuckDB spills what does not fit in memory (a folder per engine process below it); default: a fresh folder under the OS temp dir. */
      tempDirectory: z.string().min(1).optional(),
      /** DuckDB max_temp_directory_size, per engine process. */
      maxTempDirectorySize: z.string().default('10GiB'),
      /** Where DuckDB's iceberg/avro/httpfs extensions are kept (server/extensions.ts); default ~/.lakegate/extensions. */
      extensionDirectory: z.string().min(1).optional(),
    })
    .default(EngineDefaults),
});

export type Config = z.infer<typeof ConfigSchema>;
/** A configuration as written (defaults not yet filled in). */
export type ConfigInput = z.input<typeof ConfigSchema>;

function checkIdentity(c: Config): string | null {
  if (!c.keycloak && !c.usersFile) return 'usersFile: required unless keycloak is configured';
  const count = Object.keys(c.databases).length + (c.catalog ? 1 : 0);
  if (count !== 1) return 'exactly one database: either `catalog` or one entry in `databases`';
  return null;
}

function checkConnections(c: Config): string | null {
  // PostgreSQL refuses to start alike: superuser_reserved_connections must be less than max_connections.
  if (c.reservedConnections >= c.maxConnections) return `reservedConnections (${c.reservedConnections}) must be less than maxConnections (${c.maxConnections})`;
  return null;
}

/** The PostgreSQL database names clients may connect to. */
export function databaseNames(c: Config): string[] {
  return c.catalog ? [c.catalog.database] : Object.keys(c.databases);
}

/**
 * The configuration, validated. An unknown key anywhere is an error naming the key it was
 * probably meant to be: a misspelled setting would otherwise be silently at its default
 * (`requireTLS` leaving passwords in cleartext). The sections are strict objects too.
 */
export function parseConfig(input: unknown): Config {
  const unknown = unknownKeys(ConfigSchema, input);
  if (unknown.length > 0) throw new Error(`invalid configuration: ${unknown.map(describeUnknownKey).join('; ')}`);
  const r = ConfigSchema.safeParse(input);
  if (!r.success) {
    throw new Error(`invalid configuration: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const problem = checkIdentity(r.data) ?? checkConnections(r.data);
  if (problem) throw new Error(`invalid configuration: ${problem}`);
  try {
    return { ...r.data, settings: serverDefaults(r.data.settings) };
  } catch (e) {
    throw new Error(`invalid configuration: ${(e as Error).message}`);
  }
}
