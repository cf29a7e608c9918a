/** The operations section of the configuration (server/config.ts `ops`): the admin listener and the statement log. */
import { z } from 'zod';

/** `host:port`, `[v6]:port` or a bare port (loopback then). */
const listenAddress = z.string().refine((v) => parseListen(v) !== null, { message: 'an address such as "127.0.0.1:9187" or a port' });

export const OpsConfigSchema = z.object({
  /**
   * The admin listener (/metrics, /healthz, /readyz) over plain HTTP; off unless set. It answers
   * anyone who reaches it and carries no user values, but keep it on loopback or a private network.
   */
  listen: listenAddress.optional(),
  /** One info line per statement (id, user, session, kind, duration, rows, SQLSTATE, gate decisions; literals redacted). */
  statementLog: z.boolean().default(true),
  /** The log's level (pino); unset: LAKEGATE_LOG_LEVEL, else info. Changes with a reload (SIGHUP). */
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  /** Label statement metrics with the user name too (unbounded with many users: off by default). */
  userLabels: z.boolean().default(false),
});
export type OpsConfig = z.output<typeof OpsConfigSchema>;

export function parseListen(v: string): { host: string; port: number } | null {
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[^:\s]+):)?(\d{1,5})$/.exec(v.trim());
  if (!m) return null;
  const port = Number(m[2]);
  if (port > 65535) return null;
  const host = m[1] ? m[1].replace(/^\[|\]$/g, '') : '127.0.0.1';
  return { host, port };
}
