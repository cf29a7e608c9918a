/** lakegate's configuration, validated at the boundary. */
import { z } from 'zod';

export const ConfigSchema = z.object({
  host: z.string().default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(5433),
  /** PostgreSQL database name → DuckDB database file, attached read-only. */
  databases: z.record(z.string().min(1).max(63), z.string().min(1)),
  usersFile: z.string().min(1),
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
  engine: z
    .object({
      threads: z.number().int().min(1).optional(),
      memoryLimit: z.string().optional(),
    })
    .default({}),
});

export type Config = z.infer<typeof ConfigSchema>;

export function parseConfig(input: unknown): Config {
  const r = ConfigSchema.safeParse(input);
  if (!r.success) {
    throw new Error(`invalid configuration: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return r.data;
}
