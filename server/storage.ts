/**
 * Object-store credentials for DuckDB's httpfs: one DuckDB secret per
 * location prefix, scoped to it (SCOPE), made by the gateway on its own
 * connection, never by user SQL (the parser refuses CREATE SECRET, and
 * duckdb_secrets() is not on the function allowlist). Credentials come from
 * the catalog (vended per table: `storage-credentials`, or s3.* keys in the
 * table config) or from the configured keys, scoped to the warehouse roots.
 * The user's bearer token never enters DuckDB.
 */
import { createHash } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { StorageCredential } from '../catalog/iceberg/api.js';
import type { CatalogConfig } from './config.js';
import { quoteIdent, quoteLiteral } from './engine.js';

type StorageConfig = NonNullable<CatalogConfig['storage']>;

const isS3 = (location: string) => /^s3a?:\/\//.test(location);

/** The options of a DuckDB S3 secret for one credential, or null when it has no keys. */
export function secretOptions(config: Record<string, string>, fallback: StorageConfig | undefined): Record<string, string> | null {
  const key = config['s3.access-key-id'] ?? fallback?.accessKeyId;
  const secret = config['s3.secret-access-key'] ?? fallback?.secretAccessKey;
  if (!key || !secret) return null;
  const opts: Record<string, string> = { KEY_ID: key, SECRET: secret };
  const session = config['s3.session-token'];
  if (session) opts['SESSION_TOKEN'] = session;
  opts['REGION'] = config['client.region'] ?? config['s3.region'] ?? fallback?.region ?? 'us-east-1';
  const endpoint = config['s3.endpoint'] ?? fallback?.endpoint;
  if (endpoint) {
    const url = new URL(endpoint);
    opts['ENDPOINT'] = url.host;
    opts['USE_SSL'] = url.protocol === 'https:' ? 'true' : 'false';
  }
  const pathStyle = config['s3.path-style-access'] !== undefined ? config['s3.path-style-access'] === 'true' : (fallback?.pathStyle ?? true);
  opts['URL_STYLE'] = pathStyle ? 'path' : 'vhost';
  return opts;
}

/** CREATE OR REPLACE SECRET for a prefix: the name follows the prefix, so new credentials replace the old. */
export function secretStatement(prefix: string, options: Record<string, string>): string {
  const name = `lg_s3_${createHash('sha256').update(prefix).digest('hex').slice(0, 24)}`;
  const scope = prefix.endsWith('/') ? prefix : `${prefix}/`;
  const opts = Object.entries(options).map(([k, v]) => (k === 'USE_SSL' ? `${k} ${v}` : `${k} ${quoteLiteral(v)}`));
  return `CREATE OR REPLACE SECRET ${quoteIdent(name)} (TYPE s3, ${opts.join(', ')}, SCOPE ${quoteLiteral(scope)})`;
}

export class StorageSecrets {
  /** What each secret was last made from, so unchanged credentials cost nothing. */
  private readonly made = new Map<string, string>();
  private chain: Promise<void> = Promise.resolve();
  /** Configured keys cover every object-store warehouse root; vended credentials refine per table. */
  private readonly pending: StorageCredential[];

  constructor(
    private readonly conn: DuckDBConnection,
    private readonly configured: StorageConfig | undefined,
    roots: readonly string[],
  ) {
    this.pending = configured?.accessKeyId ? roots.filter(isS3).map((prefix) => ({ prefix, config: {} })) : [];
  }

  /** Make (or refresh) the secrets a table's files need before a statement reads them. */
  ensure(location: string, credentials: readonly StorageCredential[]): Promise<void> {
    const wanted = [...this.pending.splice(0), ...credentials];
    if (wanted.length === 0 && !isS3(location)) return Promise.resolve();
    // One statement at a time on the gateway's own connection.
    const next = this.chain.then(async () => {
      for (const c of wanted) {
        if (!isS3(c.prefix)) continue;
        const options = secretOptions(c.config, this.configured);
        if (!options) continue;
        const sql = secretStatement(c.prefix, options);
        if (this.made.get(c.prefix) === sql) continue;
        await this.conn.run(sql);
        this.made.set(c.prefix, sql);
      }
    });
    this.chain = next.catch(() => undefined);
    return next;
  }
}
