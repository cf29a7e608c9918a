/** The audit trail's configuration (server/config.ts `audit`). */
import { z } from 'zod';

export const AuditConfigSchema = z
  .object({
    /** JSON lines to stdout, to `file`, or nowhere (the HTTP sink works with any of them). */
    destination: z.enum(['stdout', 'file', 'off']).default('off'),
    file: z.string().min(1).optional(),
    /** The repo named on events no Ranger service decided (logins, refused statements); default the Ranger service's name. */
    repo: z.string().min(1).optional(),
    /** Written as cluster_name on every event. */
    clusterName: z.string().min(1).optional(),
    /** Batches POSTed as JSON arrays; a full queue drops events (counted, logged) rather than slow a query. */
    http: z
      .object({
        url: z.string().url(),
        batchSize: z.number().int().min(1).max(10_000).default(100),
        flushMs: z.number().int().min(10).default(1000),
        maxQueue: z.number().int().min(1).max(1_000_000).default(10_000),
        timeoutMs: z.number().int().min(100).default(5000),
        headers: z.record(z.string(), z.string()).optional(),
      })
      .optional(),
  })
  .refine((a) => a.destination !== 'file' || a.file !== undefined, { message: 'required when destination is "file"', path: ['file'] });
export type AuditConfig = z.output<typeof AuditConfigSchema>;
