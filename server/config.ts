/** lakegate's configuration, validated at the boundary. */
import { z } from 'zod';
import { KeycloakConfigSchema } from './identity/keycloak.js';
import { ThrottleConfigSchema } from './identity/throttle.js';

/** Where Ranger policies and roles come from: Ranger Admin, or local JSON in the same shapes. */
const RangerConfigSchema = z.object({
  source: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('local'),
      /** A ServicePolicies file, or a folder with <service>.json, <service>_roles.json, <service>_tag.json. */
      path: z.string().min(1),
      serviceName: z.string().min(1).optional(),
    }),
    z.object({
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
const LimitsSchema = z.object({
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
  /** Largest message lakegate builds for a client, a DataRow above all (53200 out of memory beyond). */
  maxRowBytes: z.number().int().min(1024).max(0x3fffffff).default(0x3fffffff),
  /** Connections from one address that have not finished logging in (53300 beyond). */
  maxPendingLoginsPerAddress: z.number().int().min(1).default(32),
  /** Worker threads that parse long statements off the event loop. */
  parseWorkers: z.number().int().min(1).max(16).default(2),
});
export type Limits = z.output<typeof LimitsSchema>;

export const ConfigSchema = z.object({
  host: z.string().default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(5433),
  /** PostgreSQL database name → DuckDB database file, attached read-only. */
  databases: z.record(z.string().min(1).max(63), z.string().min(1)),
  /** The local users file (embedded mode); not used when `keycloak` is set. */
  usersFile: z.string().min(1).optional(),
  /** Log in with Keycloak passwords instead of the users file. */
  keycloak: KeycloakConfigSchema.optional(),
  /** Ranger policies and roles (roles feed every login, in both modes). */
  ranger: RangerConfigSchema.optional(),
  /** Repeated failed logins per user and per client address. */
  throttle: ThrottleConfigSchema.default(ThrottleConfigSchema.parse({})),
  /**
   * How local users prove their password: SCRAM-SHA-256 (nothing reusable
   * crosses the wire), or the cleartext password (for clients without SCRAM;
   * combine with requireTls).
   */
  localAuth: z.enum(['scram-sha-256', 'password']).default('scram-sha-256'),
  tls: z.object({ certFile: z.string(), keyFile: z.string() }).optional(),
  /** Refuse passwords on connections without TLS. */
  requireTls: z.boolean().default(false),
  /** Largest frontend message accepted; bigger ones end the connection with 08P01. */
  maxMessageBytes: z.number().int().min(1024).max(1 << 30).default(16 * 1024 * 1024),
  maxConnections: z.number().int().min(1).default(200),
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
      /** DuckDB memory_limit, e.g. "4GB"; default: half of the machine's memory. */
      memoryLimit: z.string().optional(),
      /** Where DuckDB spills what does not fit in memoryLimit; default: a fresh folder under the OS temp dir. */
      tempDirectory: z.string().min(1).optional(),
      /** DuckDB max_temp_directory_size. */
      maxTempDirectorySize: z.string().default('10GiB'),
    })
    .default({ maxTempDirectorySize: '10GiB' }),
});

export type Config = z.infer<typeof ConfigSchema>;

function checkIdentity(c: Config): string | null {
  if (!c.keycloak && !c.usersFile) return 'usersFile: required unless keycloak is configured';
  return null;
}

export function parseConfig(input: unknown): Config {
  const r = ConfigSchema.safeParse(input);
  if (!r.success) {
    throw new Error(`invalid configuration: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const problem = checkIdentity(r.data);
  if (problem) throw new Error(`invalid configuration: ${problem}`);
  return r.data;
}
