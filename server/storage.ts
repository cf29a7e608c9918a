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
import type { StorageCredential } from '../catalog/iceberg/api.js';
import type { CatalogConfig } from './config.js';
import { quoteIdent, quoteLiteral } from './engine/quote.js';

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

/**
 * The secrets each engine process holds. DuckDB keeps secrets per instance,
 * so every engine gets them on the first connection that needs them, made by
 * the gateway before the statement that reads the table.
 */
/** Where secrets are made: an engine connection (its engine process holds them), or a DuckDB connection in tests. */
interface SecretTarget {
  run(sql: string): Promise<unknown>;
  /** The instance that keeps what is made; the connection itself when absent. */
  readonly engine?: object;
}

export class StorageSecrets {
  /** Per engine: what each secret was last made from, so unchanged credentials cost nothing. */
  private readonly made = new WeakMap<object, Map<string, string>>();
  private readonly chains = new WeakMap<object, Promise<void>>();
  /** Configured keys cover every object-store warehouse root; vended credentials refine per table. */
  private readonly configuredRoots: StorageCredential[];

  constructor(
    private readonly configured: StorageConfig | undefined,
    roots: readonly string[],
  ) {
    this.configuredRoots = configured?.accessKeyId ? roots.filter(isS3).map((prefix) => ({ prefix, config: {} })) : [];
  }

  /** Make (or refresh) the secrets a table's files need in the engine of `conn`, before a statement reads them. */
  ensure(conn: SecretTarget, location: string, credentials: readonly StorageCredential[]): Promise<void> {
    const engine = conn.engine ?? conn;
    let made = this.made.get(engine);
    if (!made) this.made.set(engine, (made = new Map()));
    const wanted = [...this.configuredRoots, ...credentials].filter((c) => isS3(c.prefix));
    if (wanted.length === 0 && !isS3(location)) return Promise.resolve();
    // One secret statement at a time per engine.
    const next = (this.chains.get(engine) ?? Promise.resolve()).then(async () => {
      for (const c of wanted) {
        const options = secretOptions(c.config, this.configured);
        if (!options) continue;
        const sql = secretStatement(c.prefix, options);
        if (made.get(c.prefix) === sql) continue;
        await conn.run(sql);
        made.set(c.prefix, sql);
      }
    });
    this.chains.set(engine, next.catch(() => undefined));
    return next;
  }
}
